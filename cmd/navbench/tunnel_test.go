package main

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/planners"
)

// TestRunTunnel runs the experiment on a few Simple scenarios with each
// route, line and schedule, and checks the table against the file's
// optimal costs (the tunnel's never below) and the summary.
func TestRunTunnel(t *testing.T) {
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	_, scen, err := loadMovingAI(m, m+".3dscen")
	require.NoError(t, err)
	n := 4
	if raceDetector {
		n = 2
	}
	for _, extra := range [][]string{
		nil,
		{"-route", "regions", "-line", "portal", "-schedule", "grow", "-tile", "16", "-width", "3"},
		{"-schedule", "shrink", "-routeweight", "1"},
		{"-schedule", "narrow"},
		{"-schedule", "grow", "-width", "0.3"}, // too narrow at first: retries
	} {
		var out bytes.Buffer
		args := append([]string{"-map", m, "-n", strconv.Itoa(n), "-every", "1111"}, extra...)
		require.NoError(t, runTunnel(args, &out), "%v", extra)
		text := out.String()
		table, summary, ok := strings.Cut(text, "\n# summary: ")
		require.True(t, ok, text)
		require.Contains(t, summary, strconv.Itoa(n)+" scenarios; expansions unrestricted/tunnel: total ")
		require.Contains(t, summary, "# summary: tunnel cost over optimal: median ")
		_, rows, ok := strings.Cut(table, "index\toptimal\tadstar_cost\tadstar_exp\tadstar_us\ttunnel_cost\ttunnel_exp\ttunnel_us\tretries\n")
		require.True(t, ok, text)
		lines := strings.Split(rows, "\n")
		require.Len(t, lines, n, text)
		for _, line := range lines {
			f := strings.Split(line, "\t")
			require.Len(t, f, 9, line)
			i, err := strconv.Atoi(f[0])
			require.NoError(t, err)
			require.Zero(t, i%1111)
			var v [8]float64
			for k := range v {
				v[k], err = strconv.ParseFloat(f[k+1], 64)
				require.NoError(t, err, line)
			}
			require.InDelta(t, scen[i].Optimal, v[0], 1e-6, line)
			require.InDelta(t, scen[i].Optimal, v[1], 1e-4, line)
			require.GreaterOrEqual(t, v[4], scen[i].Optimal-1e-6, line)
			require.Positive(t, v[5], line)
		}
		if len(extra) > 0 && extra[len(extra)-1] == "0.3" {
			require.NotContains(t, summary, "retries 0\n", "a 0.12-cell first tunnel holds no path")
		}
	}
}

// TestTunnelFlags: bad flags and files are errors; -h is not run.
func TestTunnelFlags(t *testing.T) {
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	for _, args := range [][]string{
		{},
		{"-map", m, "-every", "0"},
		{"-map", m, "-n", "-1"},
		{"-map", m, "-width", "0"},
		{"-map", m, "-width", "-2"},
		{"-map", m, "-width", "NaN"},
		{"-map", m, "-width", "Inf"},
		{"-map", m, "-tile", "1"},
		{"-map", m, "-tile", "300"},
		{"-map", m, "-route", "voxels"},
		{"-map", m, "-routeweight", "0.5"},
		{"-map", m, "-line", "curve"},
		{"-map", m, "-schedule", "random"},
		{"-map", m, "-bogus"},
		{"-map", m + ".missing"},
		{"-map", m, "-scen", m + ".missing"},
	} {
		var out bytes.Buffer
		require.Error(t, runTunnel(args, &out), "%v", args)
	}
}

// TestTunnelRepairs: after the grow, shrink and narrow schedules re-mark
// the tunnel and repair AD* step by step, its path costs what A* finds
// from scratch in the last tunnel (for narrow, the last width and the
// cells AD* reached, which the last tunnel holds).
func TestTunnelRepairs(t *testing.T) {
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	l, scen, err := loadMovingAI(m, m+".3dscen")
	require.NoError(t, err)
	ctx := context.Background()
	for _, sched := range []string{"grow", "shrink", "narrow"} {
		f := tunnelFlags{width: 2, tile: 8, route: "portals", routeWeight: 1.15, line: "shortcut", schedule: sched}
		tp, err := newTunnelPlanner(l, f)
		require.NoError(t, err)
		for i := 0; i < len(scen); i += 97 {
			run, err := tp.plan(ctx, scen[i])
			require.NoError(t, err, "%s: scenario %d", sched, i)
			start, goal := endpoints(l, scen[i])
			want, err := planners.NewAStar(tp.mask).Plan(ctx, start, goal, nil)
			require.NoError(t, err)
			require.InDelta(t, want.Cost, run.cost, 1e-9, "%s: scenario %d", sched, i)
			require.GreaterOrEqual(t, run.cost, scen[i].Optimal-1e-6)
			for _, n := range tp.path {
				require.True(t, tp.mask.In(n))
			}
			if run.retries == 0 {
				navmesh.Tunnel(tp.line, f.width, tp.bounds, func(k voxel.Key) {
					require.True(t, tp.mask.In(l.ID(k.X, k.Y, k.Z)), "%s: scenario %d: %v outside the last tunnel", sched, i, k)
				})
			}
		}
	}
}

// TestTunnelPortalGraph: on the Simple mesh the portal graph's edges run
// both ways at one cost, its routes cross neighbouring regions from the
// start's to the goal's, and they cost at least the octile distance.
func TestTunnelPortalGraph(t *testing.T) {
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	l, scen, err := loadMovingAI(m, m+".3dscen")
	require.NoError(t, err)
	tp, err := newTunnelPlanner(l, tunnelFlags{tile: 8, routeWeight: 1, width: 1, route: "portals", line: "shortcut", schedule: "fixed"})
	require.NoError(t, err)
	g := tp.portals
	a := planners.NewAStar(g)
	var out, in []planners.Edge
	for i := 0; i < len(scen); i += 500 {
		s := scen[i]
		sp := [3]float64{float64(s.Start[0]), float64(s.Start[1]), float64(s.Start[2])}
		gp := [3]float64{float64(s.Goal[0]), float64(s.Goal[1]), float64(s.Goal[2])}
		sr, gr := tp.mesh.Locate(tunnelKey(s.Start)), tp.mesh.Locate(tunnelKey(s.Goal))
		g.SetQuery(sp, gp, sr, gr)
		r, err := a.Plan(context.Background(), g.Start(), g.Goal(), nil)
		require.NoError(t, err, "scenario %d", i)
		require.GreaterOrEqual(t, r.Cost, navmesh.OctileLength(sp, gp)-1e-9)
		require.LessOrEqual(t, r.Cost, s.Optimal*1.5, "scenario %d", i)
		route := g.Regions(r.Path, nil)
		require.Equal(t, sr, route[0])
		require.Equal(t, gr, route[len(route)-1])
		for k := 1; k < len(route); k++ {
			_, _, ok := tp.mesh.Portal(route[k-1], route[k])
			require.True(t, ok, "scenario %d: regions %d and %d", i, route[k-1], route[k])
		}
		for _, u := range r.Path {
			out = g.Successors(u, out[:0])
			for _, e := range out {
				require.Positive(t, e.Cost)
				in = g.Predecessors(e.To, in[:0])
				found := false
				for _, b := range in {
					found = found || (b.To == u && math.Abs(b.Cost-e.Cost) < 1e-12)
				}
				require.True(t, found, "edge %d → %d", u, e.To)
			}
		}
	}
}
