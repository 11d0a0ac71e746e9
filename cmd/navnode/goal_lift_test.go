package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
)

// TestRVizGoalPoseAerial: RViz's 2D Goal Pose tool publishes a
// PoseStamped with z = 0; in aerial mode (min_altitude 0.3) navnode lifts
// it to the lowest layer plans use (it used to refuse it as malformed).
func TestRVizGoalPoseAerial(t *testing.T) {
	n, _ := testNode(t, 210)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	g := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map", Stamp: builtin_interfaces.Time{Sec: 1}}}
	g.Pose.Position = geometry_msgs.Point{X: 2, Y: 3, Z: 0} // what rviz_default_plugins' GoalTool sends
	g.Pose.Orientation.W = 1
	n.onGoal(g)
	(<-n.inbox)(w)
	n.cnt.mu.Lock()
	bad := n.cnt.bad[topicGoal]
	n.cnt.mu.Unlock()
	require.Zero(t, bad, "RViz goal counted malformed")
	require.True(t, w.hasGoal, "RViz goal not taken")
}
