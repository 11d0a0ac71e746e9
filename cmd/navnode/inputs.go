package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/golang/geo/r3"
	"go.uber.org/zap"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/replanner"
	"github.com/navnode/navnode/ros"
)

// Input topics, relative so that a namespace and remapping apply, as ROS
// users expect (ros2 run navnode navnode --ros-args -r points:=/lidar).
const (
	topicMap       = "map"
	topicPoints    = "points"
	topicScan      = "scan"
	topicObstacles = "obstacles"
	topicOdom      = "odom"
	topicTF        = "tf"
	topicTFStatic  = "tf_static"
	topicGoal      = "goal_pose"
)

// subscribe subscribes to every input. Handlers run on the
// subscriptions' goroutines: they check and convert the message there
// and send the planning goroutine only what it must apply.
func (n *navnode) subscribe() error {
	static := ros.QoSMap
	static.Depth = 100 // as tf2_ros's static broadcaster
	subs := []error{
		sub(n, topicMap, ros.QoSMap, n.onMap),
		sub(n, topicPoints, ros.QoSSensorData, n.onPoints),
		sub(n, topicScan, ros.QoSSensorData, n.onScan),
		sub(n, topicObstacles, ros.QoSDefault, n.onObstacles),
		sub(n, topicOdom, ros.QoSDefault, n.onOdom),
		sub(n, topicTF, ros.QoS{History: ros.QoSDefault.History, Depth: 100, Reliability: ros.QoSDefault.Reliability}, n.onTF(false)),
		sub(n, topicTFStatic, static, n.onTF(true)),
		sub(n, topicGoal, ros.QoSDefault, n.onGoal),
	}
	return errors.Join(subs...)
}

// sub subscribes handler to topic, counting what arrives. Payloads that
// do not decode never reach the handler: the subscription counts them,
// and the diagnostics read its count.
func sub[T any, PT ros.Message[T]](n *navnode, topic string, q ros.QoS, handler func(*T)) error {
	s, err := ros.Subscribe[T, PT](n.node, topic, q, func(m *T) {
		n.cnt.got(topic)
		handler(m)
	})
	if err == nil {
		n.cnt.watch(topic, func() int { return int(s.Stats().Malformed) })
	}
	return err
}

// bad counts a message that could not be used, logging the first of each
// kind with its reason.
func (n *navnode) bad(topic string, err error) {
	if n.cnt.malformed(topic, reason(err)) {
		n.log.Warn("malformed message ignored (further ones of this kind are only counted)",
			zap.String("topic", topic), zap.Error(err))
	}
}

// dropped counts a message refused for want of context (no transform to
// its frame yet), logging the first of each kind.
func (n *navnode) dropped(topic string, err error) {
	if n.cnt.drop(topic, reason(err)) {
		n.log.Warn("message dropped (further ones of this kind are only counted)",
			zap.String("topic", topic), zap.Error(err))
	}
}

// reasons are the kinds of error an input can meet, for logging once.
var reasons = []error{
	tf.ErrUnknownFrame, tf.ErrNoPath, tf.ErrExtrapolation, tf.ErrInvalid, tf.ErrLoop, tf.ErrOldData, tf.ErrFull,
	rosconv.ErrInvalid, rosconv.ErrNoXYZ, rosconv.ErrLayout, rosconv.ErrTooLarge, rosconv.ErrUnsupported,
	voxel.ErrInput, voxel.ErrUnknownShape, voxel.ErrMemory,
	replanner.ErrInput, replanner.ErrOutside, errStrayStamp,
}

// reason is the kind of an error, for logging once: the first of reasons
// it wraps, else "other". Never the error's text, which carries values
// from the wire: each new value would log again and be remembered.
func reason(err error) string {
	for _, s := range reasons {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "other"
}

// toMap returns the transform from frame to the map frame at stamp.
func (n *navnode) toMap(frame string, stamp time.Duration) (tf.Transform, error) {
	frame = tf.FrameName(frame)
	switch frame {
	case "":
		return tf.Identity, fmt.Errorf("%w: empty frame_id", tf.ErrUnknownFrame)
	case n.p.MapFrame:
		return tf.Identity, nil
	}
	return n.tf.Lookup(n.p.MapFrame, frame, stamp)
}

// apply sends a costmap update to the planning goroutine.
func (n *navnode) apply(topic string, u voxel.Update) {
	n.send(func(w *world) { n.applyIn(w, topic, u) })
}

// applyIn applies u in the planning goroutine, counting what it refused
// or skipped.
func (n *navnode) applyIn(w *world, topic string, u voxel.Update) {
	skipped, err := w.apply(u)
	if err != nil {
		n.bad(topic, err)
	}
	n.cnt.skip(skipped)
}

// applySensor applies a sensor's update stamped stamp, then, with decay_s,
// forgets the marks no sensor has hit again within decay_s before that
// stamp. Decay runs on the sensors' clock, not navnode's: a robot whose
// clock is off navnode's, or a bag played without use_sim_time, neither
// loses its marks at once nor keeps them for ever.
func (n *navnode) applySensor(topic string, u voxel.Update, stamp time.Duration) {
	n.send(func(w *world) {
		n.applyIn(w, topic, u)
		if n.p.Decay > 0 {
			_, _ = w.apply(voxel.Expire{Now: stamp}) // cannot fail
		}
	})
}

func (n *navnode) onMap(m *nav_msgs.OccupancyGrid) {
	if f := tf.FrameName(m.Header.FrameID); f != n.p.MapFrame {
		n.dropped(topicMap, fmt.Errorf("%w: map in frame %.64q, want %q", tf.ErrUnknownFrame, f, n.p.MapFrame))
		return
	}
	zmin := n.p.Origin.Z
	zmax := zmin + n.p.Size.Z // walls as tall as the planning volume
	if n.p.Mode == "ground" {
		zmax = zmin + max(n.p.RobotHeight, n.p.Resolution)
	}
	g, err := rosconv.OccupancyGrid(m, zmin, zmax, voxel.UnknownStays)
	if err != nil {
		n.bad(topicMap, err)
		return
	}
	n.apply(topicMap, g)
}

func (n *navnode) onPoints(m *sensor_msgs.PointCloud2) {
	stamp, err := tf.Stamp(m.Header.Stamp)
	if err == nil {
		err = n.stamps.check(topicPoints, stamp, time.Now(), n.p.Decay > 0)
	}
	if err != nil {
		n.bad(topicPoints, err)
		return
	}
	t, err := n.toMap(m.Header.FrameID, stamp)
	if err != nil {
		n.dropped(topicPoints, err)
		return
	}
	n.sawStamp(stamp)
	pts, err := rosconv.PointCloud2(m, t, nil)
	if err != nil {
		n.bad(topicPoints, err)
		return
	}
	c := &voxel.Cloud{Origin: t.Translation, Points: pts,
		MinRange: n.p.SensorMinRange, MaxRange: n.p.SensorMaxRange, Stamp: stamp}
	c.Floor, c.FloorZ = n.p.floor()
	n.applySensor(topicPoints, c, stamp)
}

func (n *navnode) onScan(m *sensor_msgs.LaserScan) {
	stamp, err := tf.Stamp(m.Header.Stamp)
	if err == nil {
		err = n.stamps.check(topicScan, stamp, time.Now(), n.p.Decay > 0)
	}
	if err != nil {
		n.bad(topicScan, err)
		return
	}
	t, err := n.toMap(m.Header.FrameID, stamp)
	if err != nil {
		n.dropped(topicScan, err)
		return
	}
	n.sawStamp(stamp)
	s, err := rosconv.LaserScan(m, t.Pose())
	if err != nil {
		n.bad(topicScan, err)
		return
	}
	s.RangeMax = min(s.RangeMax, n.p.SensorMaxRange)
	s.RangeMin = max(s.RangeMin, n.p.SensorMinRange)
	s.Floor, s.FloorZ = n.p.floor()
	if s.RangeMin >= s.RangeMax {
		n.bad(topicScan, fmt.Errorf("%w: range_min %v ≥ range_max %v after the sensor limits", rosconv.ErrInvalid, s.RangeMin, s.RangeMax))
		return
	}
	n.applySensor(topicScan, s, stamp)
}

func (n *navnode) onObstacles(msg *visualization_msgs.MarkerArray) {
	// The planning goroutine converts the markers, since it owns the
	// marker state; but the subscription decodes the next message into
	// msg as soon as this returns. So it gets a copy of its own.
	m, err := clone(msg)
	if err != nil {
		n.bad(topicObstacles, err)
		return
	}
	lookup := func(frame string, stamp time.Duration) (tf.Transform, error) { return n.toMap(frame, stamp) }
	n.send(func(w *world) {
		updates, errs := rosconv.Markers(m, lookup, &w.markers)
		var refused []voxel.ShapeID
		for _, u := range updates {
			if _, err := w.apply(u); err != nil {
				errs = append(errs, err)
				if p, ok := u.(voxel.PutShape); ok {
					refused = append(refused, p.ID)
				}
			}
		}
		// The marker state forgets a refused shape unless the costmap
		// holds it after all: a refused replacement leaves the old shape
		// held, and a later ADD of the same id in this array may have put
		// it in.
		for _, id := range refused {
			if !w.vm.HasShape(id) {
				forgetShape(&w.markers, id)
			}
		}
		if len(errs) > 0 {
			n.bad(topicObstacles, errors.Join(errs...)) // one malformed message, however many markers
		}
	})
}

// clone returns a deep copy of m, through its wire form.
func clone[T any, PT ros.Message[T]](m PT) (PT, error) {
	b, err := m.AppendCDR(nil)
	if err != nil {
		return nil, err
	}
	c := PT(new(T))
	return c, c.UnmarshalCDR(b)
}

// forgetShape tells the marker state that the costmap refused shape id
// (ns/id), so that a later DELETE of it is not an error.
func forgetShape(s *rosconv.MarkerState, id voxel.ShapeID) {
	str := string(id)
	i := strings.LastIndexByte(str, '/')
	if i < 0 {
		return
	}
	if v, err := strconv.ParseInt(str[i+1:], 10, 32); err == nil {
		s.Forget(str[:i], int32(v))
	}
}

func (n *navnode) onOdom(m *nav_msgs.Odometry) {
	o, err := rosconv.Odometry(m)
	if err != nil {
		n.bad(topicOdom, err)
		return
	}
	t, err := n.toMap(o.Frame, o.Stamp)
	if err != nil {
		n.dropped(topicOdom, err)
		return
	}
	n.pose(topicOdom, t.Apply(o.Pose.Translation), o.Stamp)
}

// onTF adds transforms to the buffer. A dynamic transform's stamp is an
// input stamp (use_sim_time), and after any new transform the robot's
// pose map → base_frame is looked up again, whichever link of the chain
// moved (odom → base_footprint under a static base_link, say): robots
// without odometry messages give their pose this way.
func (n *navnode) onTF(static bool) func(*tf2_msgs.TFMessage) {
	topic := topicTF
	if static {
		topic = topicTFStatic
	}
	return func(m *tf2_msgs.TFMessage) {
		var errs []error
		added := false
		for i := range m.Transforms {
			ts := &m.Transforms[i]
			err := n.tf.Add(ts, static)
			if errors.Is(err, tf.ErrOldData) {
				n.clockJumpedBack(topic, err)
				err = n.tf.Add(ts, static)
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			added = true
			if stamp, err := tf.Stamp(ts.Header.Stamp); err == nil && !static {
				n.sawStamp(stamp)
			}
		}
		if len(errs) > 0 {
			n.bad(topic, errors.Join(errs...))
		}
		if added {
			n.poseFromTF()
		}
	}
}

// clockJumpedBack handles a transform older than its frame's history
// holds: the clock went back (a simulation reset, a bag played again) or
// the history came from a stamp in the future. tf2_ros clears its buffer
// when time jumps back; so does the node, keeping the static transforms.
func (n *navnode) clockJumpedBack(topic string, err error) {
	n.tf.Clear()
	n.tfPoseAt.Store(0)
	if n.cnt.drop(topic, "clock jumped back") {
		n.log.Warn("transform older than the buffer's history: time jumped back, transforms forgotten (static ones kept; further ones are only counted)",
			zap.String("topic", topic), zap.Error(err))
	}
}

// sawStamp notes an input's stamp, the clock outputs use with
// use_sim_time: the newest stamp seen, unless a stamp is more than
// jumpBack behind it, which means the clock went back (a simulation
// reset) or the newest was from the future: the clock follows it back.
func (n *navnode) sawStamp(stamp time.Duration) {
	for {
		old := n.simNow.Load()
		if int64(stamp) <= old && int64(stamp) >= old-int64(jumpBack) {
			return
		}
		if n.simNow.CompareAndSwap(old, int64(stamp)) {
			return
		}
	}
}

// jumpBack is how far behind the newest stamp an input's stamp must be for
// the node to take it that time jumped back: tf's history length.
const jumpBack = tf.DefaultCacheTime

// pose hands the robot's position to the planning goroutine.
func (n *navnode) pose(topic string, p r3.Vector, stamp time.Duration) {
	n.lastOdom.Store(int64(time.Now().UnixNano()))
	n.sawStamp(stamp)
	n.send(func(w *world) {
		if err := w.setPose(p); err != nil {
			n.bad(topic, err)
		}
	})
}

// poseFromTF uses a pose from /tf unless odometry arrived recently.
func (n *navnode) poseFromTF() {
	if time.Since(time.Unix(0, n.lastOdom.Load())) < time.Second {
		return
	}
	t, at, err := n.tf.LookupStamp(n.p.MapFrame, n.p.BaseFrame, 0)
	if err != nil {
		return
	}
	if last := n.tfPoseAt.Load(); last != 0 && int64(at)+1 <= last {
		return // nothing newer on the robot's chain
	}
	n.tfPoseAt.Store(int64(at) + 1)
	p := t.Translation
	n.send(func(w *world) {
		if err := w.setPose(p); err != nil {
			n.bad(topicTF, err)
		}
	})
}

func (n *navnode) onGoal(m *geometry_msgs.PoseStamped) {
	// An all-zero orientation is a goal without one, as tools that fill
	// unset fields with zeros send a position alone: the path then ends
	// along its last step.
	unset := m.Pose.Orientation == (geometry_msgs.Quaternion{})
	if unset {
		c := *m
		c.Pose.Orientation.W = 1
		m = &c
	}
	g, err := rosconv.PoseStamped(m)
	if err != nil {
		n.bad(topicGoal, err)
		return
	}
	t, err := n.toMap(g.Frame, g.Stamp)
	if errors.Is(err, tf.ErrExtrapolation) {
		t, err = n.tf.Lookup(n.p.MapFrame, tf.FrameName(g.Frame), 0) // a goal's stamp is often old
	}
	if err != nil {
		n.bad(topicGoal, err)
		return
	}
	p := t.Apply(g.Pose.Translation)
	if q, lifted := n.p.liftGoal(p); lifted {
		n.log.Info("goal below min_altitude lifted to the lowest layer plans use", zap.Float64("z", p.Z), zap.Float64("to", q.Z))
		p = q
	}
	rot := t.Rotation.Mul(g.Pose.Rotation) // the goal's orientation in the map frame
	if unset {
		rot = tf.Quat{}
	}
	n.send(func(w *world) {
		if err := w.setGoalPose(p, rot); err != nil {
			n.bad(topicGoal, err)
			return
		}
		n.log.Info("new goal", zap.Float64("x", p.X), zap.Float64("y", p.Y), zap.Float64("z", p.Z), zap.Bool("orientation", !unset))
	})
}
