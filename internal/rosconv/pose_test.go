package rosconv

import (
	"math"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
)

func TestPoseStamped(t *testing.T) {
	msg := geometry_msgs.NewPoseStamped()
	msg.Header = Header("/map", 2*time.Second+3)
	msg.Pose.Position = geometry_msgs.Point{X: 1, Y: 2, Z: 3}
	msg.Pose.Orientation = geometry_msgs.Quaternion{Z: 1, W: 1}
	s, err := PoseStamped(&msg)
	require.NoError(t, err)
	require.Equal(t, "map", s.Frame)
	require.Equal(t, 2*time.Second+3, s.Stamp)
	require.Equal(t, vec(1, 2, 3), s.Pose.Translation)
	require.InDelta(t, math.Pi/2, s.Pose.Rotation.Yaw(), 1e-15, "normalised")
	require.Equal(t, msg.Pose.Position, PoseMsg(s.Pose).Position)

	for name, edit := range map[string]func(*geometry_msgs.PoseStamped){
		"NaN x":           func(m *geometry_msgs.PoseStamped) { m.Pose.Position.X = math.NaN() },
		"Inf z":           func(m *geometry_msgs.PoseStamped) { m.Pose.Position.Z = math.Inf(1) },
		"zero quaternion": func(m *geometry_msgs.PoseStamped) { m.Pose.Orientation = geometry_msgs.Quaternion{} },
		"NaN quaternion":  func(m *geometry_msgs.PoseStamped) { m.Pose.Orientation.Y = math.NaN() },
		"no frame":        func(m *geometry_msgs.PoseStamped) { m.Header.FrameID = "" },
		"slash frame":     func(m *geometry_msgs.PoseStamped) { m.Header.FrameID = "/" },
		"bad stamp":       func(m *geometry_msgs.PoseStamped) { m.Header.Stamp.Nanosec = 1e9 },
	} {
		m := msg
		edit(&m)
		_, err := PoseStamped(&m)
		require.ErrorIs(t, err, ErrInvalid, name)
	}
}

func TestOdometry(t *testing.T) {
	msg := nav_msgs.NewOdometry()
	msg.Header = Header("odom", time.Second)
	msg.ChildFrameID = "/base_link"
	msg.Pose.Pose.Position.X = 4
	s, err := Odometry(&msg)
	require.NoError(t, err)
	require.Equal(t, Stamped{Frame: "odom", Child: "base_link", Stamp: time.Second,
		Pose: tf.Transform{Translation: vec(4, 0, 0), Rotation: tf.NoRotation}}, s)
	msg.Pose.Pose.Orientation.W = math.Inf(-1)
	_, err = Odometry(&msg)
	require.ErrorIs(t, err, ErrInvalid)
	msg = nav_msgs.NewOdometry()
	_, err = Odometry(&msg)
	require.ErrorIs(t, err, ErrInvalid, "no frame")
}

func TestPath(t *testing.T) {
	yaws := func(p nav_msgs.Path) []float64 {
		var out []float64
		for _, ps := range p.Poses {
			q, err := tf.QuatFromMsg(ps.Pose.Orientation)
			require.NoError(t, err)
			require.InDelta(t, 0, q.Tilt(), 1e-7, "yaw only")
			out = append(out, q.Yaw())
		}
		return out
	}
	pts := []r3.Vector{vec(0, 0, 1), vec(1, 0, 1), vec(1, 1, 2), vec(1, 1, 2), vec(0, 2, 2)}
	p := Path(pts, "map", 5*time.Second)
	require.Equal(t, "map", p.Header.FrameID)
	require.Len(t, p.Poses, 5)
	for i, ps := range p.Poses {
		require.Equal(t, p.Header, ps.Header)
		require.Equal(t, Point(pts[i]), ps.Pose.Position)
	}
	got := yaws(p)
	want := []float64{0, math.Pi / 2, math.Pi / 2, 3 * math.Pi / 4, 3 * math.Pi / 4}
	for i := range want {
		require.InDelta(t, want[i], got[i], 1e-15, "pose %d", i)
	}

	// Climbing first, then east: the climb faces east too.
	got = yaws(Path([]r3.Vector{vec(0, 0, 0), vec(0, 0, 1), vec(0, 0, 2), vec(0, -1, 2)}, "map", 0))
	for i := range got {
		require.InDelta(t, -math.Pi/2, got[i], 1e-15, "pose %d", i)
	}
	require.Equal(t, []float64{0}, yaws(Path([]r3.Vector{vec(1, 1, 1)}, "map", 0)), "one point: identity")
	require.Equal(t, []float64{0, 0}, yaws(Path([]r3.Vector{vec(1, 1, 1), vec(1, 1, 3)}, "map", 0)))
	require.Empty(t, Path(nil, "map", 0).Poses)
}

func TestPlanMarkers(t *testing.T) {
	path := []r3.Vector{vec(0, 0, 0), vec(1, 0, 0), vec(1, 1, 0)}
	a := PlanMarkers(path, &path[0], &path[2], "map", time.Second)
	require.Len(t, a.Markers, 3)
	for i, m := range a.Markers {
		require.Equal(t, PlanNamespace, m.Ns)
		require.Equal(t, int32(i), m.ID)
		require.Equal(t, "map", m.Header.FrameID)
		require.Equal(t, visualization_msgs.Marker_ADD, m.Action)
		require.Equal(t, float32(1), m.Color.A)
		require.Equal(t, 1.0, m.Pose.Orientation.W)
	}
	line, start, goal := a.Markers[0], a.Markers[1], a.Markers[2]
	require.Equal(t, visualization_msgs.Marker_LINE_STRIP, line.Type)
	require.Equal(t, []geometry_msgs.Point{{}, {X: 1}, {X: 1, Y: 1}}, line.Points)
	require.Equal(t, PathWidth, line.Scale.X)
	require.Equal(t, visualization_msgs.Marker_SPHERE, start.Type)
	require.Equal(t, geometry_msgs.Point{}, start.Pose.Position)
	require.Equal(t, visualization_msgs.Marker_SPHERE, goal.Type)
	require.Equal(t, geometry_msgs.Point{X: 1, Y: 1}, goal.Pose.Position)
	require.Equal(t, geometry_msgs.Vector3{X: EndDiameter, Y: EndDiameter, Z: EndDiameter}, goal.Scale)

	a = PlanMarkers(path[:1], &path[0], &path[2], "map", 0)
	require.Equal(t, visualization_msgs.Marker_DELETE, a.Markers[0].Action, "no line to draw")

	none := PlanMarkers(nil, nil, nil, "map", 0)
	for _, m := range none.Markers {
		require.Equal(t, visualization_msgs.Marker_DELETE, m.Action, "no start, no goal: marker %d", m.ID)
	}

	// Our markers read back as obstacles would be spheres; the line is
	// refused as unsupported.
	var state MarkerState
	ups, errs := Markers(&a, lookupMap, &state)
	require.Len(t, ups, 2)
	require.Empty(t, errs, "DELETE of an unknown id is quiet")
}
