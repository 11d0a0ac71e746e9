package main

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/replanner"
	"github.com/navnode/navnode/ros"
)

// TestPathEndsFacingGoal: the last pose of /plan has the goal's
// orientation, as Nav2's planners give it and its controllers turn to
// at the goal (RViz's 2D Goal Pose arrow). It used to face along the
// path's last step: a goal facing +y at the end of a path along x ended
// facing +x (a review found it).
func TestPathEndsFacingGoal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, _ := testNode(t, 182)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	require.NoError(t, n.advertise())
	got := make(chan nav_msgs.Path, 16)
	_, err = ros.Subscribe[nav_msgs.Path](n.node, "/plan", ros.QoSDefault, func(m *nav_msgs.Path) {
		c, _ := clone(m)
		got <- *c
	})
	require.NoError(t, err)
	require.NoError(t, n.plan.WaitMatched(ctx, 1))

	require.NoError(t, w.setPose(r3.Vector{X: -5, Y: 0.05, Z: 1.05}))
	g := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map", Stamp: builtin_interfaces.Time{Sec: 1}}}
	g.Pose.Position = geometry_msgs.Point{X: 5, Y: 0.05, Z: 1.05}
	g.Pose.Orientation = geometry_msgs.Quaternion{Z: math.Sin(math.Pi / 4), W: math.Cos(math.Pi / 4)} // yaw 90°
	n.onGoal(g)
	(<-n.inbox)(w)
	n.step(ctx, w)
	require.Equal(t, replanner.Following, w.out.Status)
	var path nav_msgs.Path
	select {
	case path = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("no plan")
	}
	yaw := func(q geometry_msgs.Quaternion) float64 { return 2 * math.Atan2(q.Z, q.W) }
	require.InDelta(t, math.Pi/2, yaw(path.Poses[len(path.Poses)-1].Pose.Orientation), 1e-9, "the goal's heading")
	require.InDelta(t, 0, yaw(path.Poses[0].Pose.Orientation), 1e-9, "the others face along the path")

	// A goal set without an orientation (the library's setGoal) keeps
	// the heading of the last step.
	require.NoError(t, w.setGoal(r3.Vector{X: 5, Y: 0.05, Z: 1.05}))
	p := rosconv.Path(w.out.Path, "map", 0)
	w.endFacing(p.Poses, w.out.Path)
	require.InDelta(t, 0, yaw(p.Poses[len(p.Poses)-1].Pose.Orientation), 1e-9)
}

// TestGoalWithoutOrientation: a goal whose orientation is all zeros, as
// tools that zero every unset field send a position alone, is planned to
// (it used to be refused as malformed, a quaternion of norm 0), and the
// path ends along its last step. A NaN orientation is still refused.
func TestGoalWithoutOrientation(t *testing.T) {
	ctx := context.Background()
	n, _ := testNode(t, 195)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	require.NoError(t, n.advertise())
	require.NoError(t, w.setPose(r3.Vector{X: -5, Y: 0.05, Z: 1.05}))
	g := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map", Stamp: builtin_interfaces.Time{Sec: 1}}}
	g.Pose.Position = geometry_msgs.Point{X: 5, Y: 0.05, Z: 1.05}
	n.onGoal(g)
	require.Len(t, n.inbox, 1, "the goal is taken")
	(<-n.inbox)(w)
	require.Zero(t, g.Pose.Orientation.W, "the message is not changed")
	n.step(ctx, w)
	require.Equal(t, replanner.Following, w.out.Status)
	p := rosconv.Path(w.out.Path, "map", 0)
	w.endFacing(p.Poses, w.out.Path)
	last := p.Poses[len(p.Poses)-1].Pose.Orientation
	require.InDelta(t, 0, 2*math.Atan2(last.Z, last.W), 1e-9, "along the last step, +x")
	require.Zero(t, n.cnt.bad[topicGoal])

	g.Pose.Orientation = geometry_msgs.Quaternion{W: math.NaN()}
	n.onGoal(g)
	require.Empty(t, n.inbox)
	require.Equal(t, 1, n.cnt.bad[topicGoal])
}
