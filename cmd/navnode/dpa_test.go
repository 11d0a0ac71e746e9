package main

import (
	"context"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/planners"
	"github.com/navnode/navnode/replanner"
)

// TestPlannerDPAStar: with planner dpastar the node re-plans with DPA*
// after a box lands on the path (Scenario 2) and after it goes (Scenario
// 4: the way round it ran through the costs its inflation raised), and
// diagnostics say which scenario its last search was.
func TestPlannerDPAStar(t *testing.T) {
	ctx := context.Background()
	p := testParams()
	p.Planner = "dpastar"
	w := following(t, p)
	require.Equal(t, replanner.DPAStar, w.loop.Config().Strategy)
	require.Equal(t, "planned afresh", w.diagnostics().scenario)

	for _, step := range []struct {
		u    voxel.Update
		want planners.DPAScenario
	}{
		{boxOnPath, planners.InsertionAffected},
		{voxel.DeleteShape{ID: "box"}, planners.DeletionAffected}, // the way round runs through the box's inflation
	} {
		_, err := w.apply(step.u)
		require.NoError(t, err)
		out, _ := w.tick(ctx)
		require.Equal(t, replanner.Following, out.Status)
		require.True(t, out.Replanned)
		require.Equal(t, step.want, out.Scenario)
		d := w.diagnostics()
		require.Equal(t, step.want.String(), d.scenario)
		arr := report(newCounters(), d, time.Now(), std_msgs.Header{})
		require.Contains(t, arr.Status[0].Values, diagnostic_msgs.KeyValue{Key: "dpa scenario", Value: step.want.String()})
	}
}

// following returns a world with parameters p whose robot at (−5, 0, 1)
// follows a path to a goal at (5, 0, 1).
func following(t *testing.T, p params) *world {
	t.Helper()
	w, err := newWorld(p)
	require.NoError(t, err)
	require.NoError(t, w.setPose(r3.Vector{X: -5, Y: 0.05, Z: 1.05}))
	require.NoError(t, w.setGoal(r3.Vector{X: 5, Y: 0.05, Z: 1.05}))
	out, _ := w.tick(context.Background())
	require.Equal(t, replanner.Following, out.Status)
	return w
}

// boxOnPath is a 0.4 m box on the path of a world from following.
var boxOnPath = voxel.PutShape{ID: "box", Solid: &voxel.BoxShape{
	Pose: voxel.Pose{Position: r3.Vector{Y: 0.05, Z: 1.05}, Orientation: voxel.Identity},
	Size: r3.Vector{X: 0.4, Y: 0.4, Z: 0.4}}}
