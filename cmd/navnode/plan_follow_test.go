package main

import (
	"context"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// TestPlanFollowsRobot: the plan starts at the robot and is published
// when it changes, so a robot moving along a straight plan gets a new
// /plan as it moves (it used to get one only when the number of poses
// changed, and the published plan kept starting where the robot had been).
func TestPlanFollowsRobot(t *testing.T) {
	ctx := context.Background()
	n, _ := testNode(t, 213)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	require.NoError(t, w.setPose(r3.Vector{X: -5, Y: 0.05, Z: 1.05}))
	require.NoError(t, w.setGoal(r3.Vector{X: 5, Y: 0.05, Z: 1.05}))
	out, changed := w.tick(ctx)
	require.True(t, changed)
	first := out.Path[0]
	t.Logf("published: %d poses from %v", len(out.Path), first)
	for x := -4.0; x <= 3; x++ {
		require.NoError(t, w.setPose(r3.Vector{X: x, Y: 0.05, Z: 1.05}))
		out, changed = w.tick(ctx)
		if changed {
			first = out.Path[0]
		}
		t.Logf("robot at x=%v: loop's path starts at %v (%d poses), published one starts at %v", x, out.Path[0], len(out.Path), first)
	}
	require.InDelta(t, 3.0, first.X, 0.5, "the published plan's first pose is not the robot")
}
