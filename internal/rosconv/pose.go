package rosconv

import (
	"fmt"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
)

// Stamped is a pose with its frame and time.
type Stamped struct {
	Frame string        // header.frame_id, the frame the pose is in, without a leading "/"
	Child string        // Odometry's child_frame_id (the body), without a leading "/"; "" for PoseStamped
	Stamp time.Duration // header.stamp, since the ROS epoch
	// Pose places the body in Frame: Translation is its position (metres),
	// Rotation its orientation (unit quaternion); as a transform it takes
	// points in the body's frame to Frame.
	Pose tf.Transform
}

// Vector returns a geometry_msgs/Point as a vector (metres), unchecked.
func Vector(p geometry_msgs.Point) r3.Vector { return r3.Vector{X: p.X, Y: p.Y, Z: p.Z} }

// Vector3 returns a geometry_msgs/Vector3 as a vector, unchecked.
func Vector3(v geometry_msgs.Vector3) r3.Vector { return r3.Vector{X: v.X, Y: v.Y, Z: v.Z} }

// Point returns v as a geometry_msgs/Point.
func Point(v r3.Vector) geometry_msgs.Point { return geometry_msgs.Point{X: v.X, Y: v.Y, Z: v.Z} }

// Pose converts a geometry_msgs/Pose. It checks that the position is
// finite and that the orientation is finite with a non-zero norm, and
// normalises the orientation; errors wrap ErrInvalid.
func Pose(p *geometry_msgs.Pose) (tf.Transform, error) {
	v := Vector(p.Position)
	if !tf.Finite(v) {
		return tf.Transform{}, fmt.Errorf("%w: position %s is not finite", ErrInvalid, vecString(v))
	}
	q, err := tf.QuatFromMsg(p.Orientation)
	if err != nil {
		return tf.Transform{}, fmt.Errorf("%w: orientation: %w", ErrInvalid, err)
	}
	return tf.Transform{Translation: v, Rotation: q}, nil
}

// PoseMsg returns t as a geometry_msgs/Pose.
func PoseMsg(t tf.Transform) geometry_msgs.Pose {
	return geometry_msgs.Pose{Position: Point(t.Translation), Orientation: t.Rotation.Msg()}
}

// PoseStamped converts a geometry_msgs/PoseStamped (a goal, for instance).
// Besides Pose's checks it requires a frame_id and a valid stamp (see
// tf.Stamp); stamp 0 is kept (it means "latest" to tf).
func PoseStamped(msg *geometry_msgs.PoseStamped) (Stamped, error) {
	s, err := header(&msg.Header)
	if err != nil {
		return Stamped{}, err
	}
	if s.Pose, err = Pose(&msg.Pose); err != nil {
		return Stamped{}, err
	}
	return s, nil
}

// Odometry converts the pose of a nav_msgs/Odometry (the twist and the
// covariances are not used), with PoseStamped's checks; Child is the
// child_frame_id, not checked.
func Odometry(msg *nav_msgs.Odometry) (Stamped, error) {
	s, err := header(&msg.Header)
	if err != nil {
		return Stamped{}, err
	}
	if s.Pose, err = Pose(&msg.Pose.Pose); err != nil {
		return Stamped{}, err
	}
	s.Child = tf.FrameName(msg.ChildFrameID)
	return s, nil
}

// header checks a header's frame and stamp.
func header(h *std_msgs.Header) (Stamped, error) {
	frame := tf.FrameName(h.FrameID)
	if frame == "" {
		return Stamped{}, fmt.Errorf("%w: empty frame_id", ErrInvalid)
	}
	stamp, err := stampOf(h)
	if err != nil {
		return Stamped{}, err
	}
	return Stamped{Frame: frame, Stamp: stamp}, nil
}

// stampOf converts a header's stamp; errors wrap ErrInvalid.
func stampOf(h *std_msgs.Header) (time.Duration, error) {
	stamp, err := tf.Stamp(h.Stamp)
	if err != nil {
		return 0, fmt.Errorf("%w: header stamp %d s %d ns", ErrInvalid, h.Stamp.Sec, h.Stamp.Nanosec)
	}
	return stamp, nil
}

// Header returns a std_msgs/Header for frame at stamp.
func Header(frame string, stamp time.Duration) std_msgs.Header {
	return std_msgs.Header{Stamp: tf.TimeMsg(stamp), FrameID: frame}
}

// vecString formats a vector briefly, for errors.
func vecString(v r3.Vector) string { return fmt.Sprintf("(%g, %g, %g)", v.X, v.Y, v.Z) }
