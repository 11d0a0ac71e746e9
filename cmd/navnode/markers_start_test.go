package main

import (
	"context"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
)

// TestStartMarkerWithoutPath: with the goal unreachable there is no
// path, and ~/markers shows the start sphere at the robot (it used to ADD
// it at (0, 0, 0) of map_frame).
func TestStartMarkerWithoutPath(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, _ := testNode(t, 212)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	require.NoError(t, n.advertise())
	got := make(chan visualization_msgs.MarkerArray, 16)
	s, err := ros.Subscribe[visualization_msgs.MarkerArray](n.node, "/navnode/markers", ros.QoSDefault, func(m *visualization_msgs.MarkerArray) {
		c, _ := clone(m)
		got <- *c
	})
	require.NoError(t, err)
	require.NoError(t, n.markers.WaitMatched(ctx, 1))
	_ = s

	robot := r3.Vector{X: 5, Y: 5, Z: 1}
	require.NoError(t, w.setPose(robot))
	// The goal inside a 3 m cube: blocked beyond goal_tolerance.
	n.onObstacles(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{{
		Header: std_msgs.Header{FrameID: "map"}, Ns: "wall", ID: 1, Type: visualization_msgs.Marker_CUBE,
		Pose:  geometry_msgs.Pose{Position: geometry_msgs.Point{X: -5, Y: -5, Z: 1.5}, Orientation: geometry_msgs.Quaternion{W: 1}},
		Scale: geometry_msgs.Vector3{X: 3, Y: 3, Z: 3}, Color: std_msgs.ColorRGBA{R: 1, A: 1}}}})
	(<-n.inbox)(w)
	g := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map", Stamp: builtin_interfaces.Time{Sec: 1}}}
	g.Pose.Position = geometry_msgs.Point{X: -5, Y: -5, Z: 1}
	g.Pose.Orientation.W = 1
	n.onGoal(g)
	(<-n.inbox)(w)
	n.step(ctx, w)
	require.Empty(t, w.out.Path, "status %v", w.out.Status)
	t.Logf("status %v", w.out.Status)
	var m visualization_msgs.MarkerArray
	select {
	case m = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("no markers")
	}
	for _, mk := range m.Markers {
		t.Logf("marker id %d type %d action %d at (%v, %v, %v)", mk.ID, mk.Type, mk.Action, mk.Pose.Position.X, mk.Pose.Position.Y, mk.Pose.Position.Z)
		if mk.ID == 1 && mk.Action == visualization_msgs.Marker_ADD {
			require.InDelta(t, robot.X, mk.Pose.Position.X, 0.5, "start sphere is not at the robot")
			require.InDelta(t, robot.Y, mk.Pose.Position.Y, 0.5, "start sphere is not at the robot")
		}
	}
}
