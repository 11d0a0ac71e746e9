package main

import (
	"context"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
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
		require.Equal(t, out.Stats.Expansions, d.expansions)
		require.Positive(t, d.expansions)
		// A tick that keeps the path searches nothing; diagnostics keep
		// the last search's expansions (a review found them reading 0).
		out, _ = w.tick(ctx)
		require.False(t, out.Replanned)
		require.Zero(t, out.Stats.Expansions)
		require.Equal(t, d.expansions, w.diagnostics().expansions)
		arr := report(newCounters(), d, time.Now(), std_msgs.Header{})
		require.Contains(t, arr.Status[0].Values, diagnostic_msgs.KeyValue{Key: "dpa scenario", Value: step.want.String()})
	}
}

// following returns a world with parameters p whose robot at (−5, 0, 1)
// follows a path to a goal at (5, 0, 1).
func following(t *testing.T, p params) *world {
	w, _ := followingAlongX(t, p, 5)
	return w
}

// followingAlongX returns a world with parameters p whose robot at
// (−x, 0, 1) follows a path to a goal at (x, 0, 1), and the first tick's
// output.
func followingAlongX(t *testing.T, p params, x float64) (*world, replanner.Output) {
	t.Helper()
	w, err := newWorld(p)
	require.NoError(t, err)
	require.NoError(t, w.setPose(r3.Vector{X: -x, Y: 0.05, Z: 1.05}))
	require.NoError(t, w.setGoal(r3.Vector{X: x, Y: 0.05, Z: 1.05}))
	out, _ := w.tick(context.Background())
	require.Equal(t, replanner.Following, out.Status)
	return w, out
}

// boxOnPath is a 0.4 m box on the path of a world from following.
var boxOnPath = voxel.PutShape{ID: "box", Solid: &voxel.BoxShape{
	Pose: voxel.Pose{Position: r3.Vector{Y: 0.05, Z: 1.05}, Orientation: voxel.Identity},
	Size: r3.Vector{X: 0.4, Y: 0.4, Z: 0.4}}}

// TestPlannerTunnel: with planner tunnel the node keeps a navigation mesh
// of its planning volume, re-plans round a box in a tunnel of
// tunnel_width around the mesh route, and diagnostics report the mesh and
// the tunnel.
func TestPlannerTunnel(t *testing.T) {
	ctx := context.Background()
	p := testParams()
	p.Planner, p.TunnelWidth = "tunnel", 0.4
	w := following(t, p)
	require.Equal(t, replanner.Tunnel, w.loop.Config().Strategy)
	require.Equal(t, 0.4, w.loop.Config().TunnelWidth)
	before, _ := w.loop.TunnelStats()
	require.Positive(t, before.Regions)

	_, err := w.apply(boxOnPath)
	require.NoError(t, err)
	out, _ := w.tick(ctx)
	require.Equal(t, replanner.Following, out.Status)
	require.True(t, out.Replanned)
	for _, k := range out.Raw[1:] { // the robot's own voxel aside
		c := w.vm.Cost(k)
		require.True(t, c != voxel.Lethal && c != voxel.Inscribed, "the path crosses the box at %v", k)
	}
	route := w.loop.TunnelRoute(nil)
	require.GreaterOrEqual(t, len(route), 2)
	require.Less(t, route[0].Distance(r3.Vector{X: -5, Y: 0.05, Z: 1.05}), 0.1, "the route starts at the robot's voxel")
	require.Less(t, route[len(route)-1].Distance(r3.Vector{X: 5, Y: 0.05, Z: 1.05}), 0.1, "the route ends at the goal's voxel")
	m := rosconv.RouteMarker(route, "map", 0)
	require.Equal(t, visualization_msgs.Marker_LINE_STRIP, m.Type)
	require.Equal(t, visualization_msgs.Marker_ADD, m.Action)
	require.Len(t, m.Points, len(route))
	require.Equal(t, visualization_msgs.Marker_DELETE, rosconv.RouteMarker(nil, "map", 0).Action)
	after, _ := w.loop.TunnelStats()
	require.Positive(t, after.Tiles, "the box rebuilt no tile of the mesh")
	require.NotEqual(t, before.Regions, after.Regions, "the box changed no region")

	arr := report(newCounters(), w.diagnostics(), time.Now(), std_msgs.Header{})
	keys := map[string]string{}
	for _, v := range arr.Status[0].Values {
		keys[v.Key] = v.Value
	}
	require.Equal(t, "tunnel", keys["planner"])
	require.Contains(t, arr.Status[0].Values, diagnostic_msgs.KeyValue{Key: "tunnel width", Value: "0.4 m"})
	for _, k := range []string{"mesh regions", "mesh update", "mesh rebuilds", "tunnel retries"} {
		require.Contains(t, keys, k)
	}
}

// TestRepairDiagnosticsPerChange: a repair that runs past
// repair_budget_ms over several ticks counts as one replan, and the
// repair time recorded for the percentiles is its search time over all
// of them. A review found the detour's tick and the final one both
// counted, each with its own slice: one change, two replans, and a p99
// never much above one budget.
func TestRepairDiagnosticsPerChange(t *testing.T) {
	ctx := context.Background()
	p := testParams()
	p.RepairBudget = time.Microsecond
	w := following(t, p)
	replans, samples := w.replans, len(w.repairs.window)
	_, err := w.apply(boxOnPath)
	require.NoError(t, err)
	var searched time.Duration
	detours, ticks := 0, 0
	for out := (replanner.Output{Pending: true}); out.Pending; ticks++ {
		require.Less(t, ticks, 100000)
		out, _ = w.tick(ctx)
		searched += out.Stats.Elapsed
		if out.Detour {
			detours++
		}
	}
	require.Positive(t, detours, "no detour: the repair fitted one tick and the test tests nothing")
	require.Equal(t, 1, w.replans-replans, "one change, one replan")
	require.Equal(t, []time.Duration{searched}, w.repairs.window[samples:], "the repair's search time over %d ticks", ticks)
}

// TestUnknownCost: a first plan across an unobserved volume expands
// little more than its path with unknown_cost 0. At 252, the default, the
// heuristic sees half the real cost and A* expands an ellipsoid round
// the route: 455,513 nodes for this 161-node path.
func TestUnknownCost(t *testing.T) {
	for _, c := range []struct {
		cost     float64
		min, max int // expansions
	}{{0, 150, 200}, {252, 100000, 1e9}} {
		p := testParams()
		p.Planner, p.UnknownCost = "astar", c.cost
		_, out := followingAlongX(t, p, 8)
		require.Len(t, out.Raw, 161, "straight")
		require.InDelta(t, 160*(1+c.cost/252), out.RawCost, 1e-3, "unknown cost %v", c.cost)
		require.GreaterOrEqual(t, out.Stats.Expansions, c.min, "unknown cost %v", c.cost)
		require.LessOrEqual(t, out.Stats.Expansions, c.max, "unknown cost %v", c.cost)
	}
}

// TestSwitchDelayHeld: with switch_delay_s, a box that goes away from
// beside the path leaves the way round it held, not swapped for the
// straight way at once: no replan counted, diagnostics report the path
// held and its bound.
func TestSwitchDelayHeld(t *testing.T) {
	ctx := context.Background()
	p := testParams()
	p.SwitchDelay = time.Hour
	w := following(t, p)
	_, err := w.apply(boxOnPath)
	require.NoError(t, err)
	out, _ := w.tick(ctx)
	require.True(t, out.Replanned)
	replans := w.diagnostics().replans

	_, err = w.apply(voxel.DeleteShape{ID: "box"})
	require.NoError(t, err)
	out, _ = w.tick(ctx)
	require.Equal(t, replanner.Following, out.Status)
	require.True(t, out.Held)
	require.False(t, out.Replanned)
	require.Greater(t, out.Epsilon, 1.0)
	d := w.diagnostics()
	require.Equal(t, replans, d.replans)
	arr := report(newCounters(), d, time.Now(), std_msgs.Header{})
	require.Contains(t, arr.Status[0].Values, diagnostic_msgs.KeyValue{Key: "path held", Value: "true"})
}
