package navmesh

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/planners"
)

// planned is a random pair of regions and A*'s plan between them before
// an update: cost +Inf and no path when there was none.
type planned struct {
	s, g planners.NodeID
	path []planners.NodeID
	cum  []float64 // PathCosts of path
	cost float64
}

// beforeAfter runs random edits on each test world. Before each it plans
// pairs random pairs with A*; after it, when the mesh changed, it calls
// check with the update and the plans.
func beforeAfter(t *testing.T, seed uint64, pairs int, check func(name string, ev int, m *Mesh, d *Delta, plans []planned)) {
	ctx := context.Background()
	plans := make([]planned, pairs)
	for _, w := range testWorlds() {
		rng := rand.New(rand.NewPCG(seed, seed+1))
		m, err := New(w.g, w.cfg)
		require.NoError(t, err)
		astar := planners.NewAStar(m)
		var d Delta
		events := 300
		if testing.Short() || raceDetector {
			events = 60
		}
		for ev := range events {
			for i := range plans {
				p := planned{cost: math.Inf(1)}
				_, p.s, _ = randomCell(rng, m)
				_, p.g, _ = randomCell(rng, m)
				if r, err := astar.Plan(ctx, p.s, p.g, nil); err == nil {
					p.path, p.cum, p.cost = r.Path, m.PathCosts(r.Path, nil), r.Cost
				}
				plans[i] = p
			}
			cs := newChangeSet()
			w.edit(rng, w.g, cs)
			m.Update(cs, &d)
			if !d.Empty() {
				check(w.name, ev, m, &d, plans)
			}
		}
	}
}

// TestTollBoundsCheaperPaths: after random edits, every pair of regions
// whose A* distance fell is joined by a shortest path that pays at least
// R's toll between its first and its last region in R, as DPA* assumes
// when it adds the toll to its R-worse test.
func TestTollBoundsCheaperPaths(t *testing.T) {
	checked, tolled := 0, 0
	beforeAfter(t, 7, 20, func(name string, ev int, m *Mesh, d *Delta, plans []planned) {
		require.GreaterOrEqual(t, d.R.Toll, 0.0)
		astar := planners.NewAStar(m)
		for _, p := range plans {
			if !m.Passable(p.s) || !m.Passable(p.g) {
				continue
			}
			r, err := astar.Plan(context.Background(), p.s, p.g, nil)
			if err != nil || r.Cost >= p.cost-1e-9*(1+p.cost) {
				continue
			}
			checked++
			if d.R.Toll > 0 {
				tolled++
			}
			crossing := crossingCost(m, d.R, r.Path)
			require.GreaterOrEqual(t, crossing, d.R.Toll-1e-9*(1+d.R.Toll),
				"%s, event %d: %d → %d fell from %g to %g", name, ev, p.s, p.g, p.cost, r.Cost)
		}
	})
	t.Logf("%d distances fell, %d of them with a toll", checked, tolled)
	require.Greater(t, tolled, 20)
}

// crossingCost returns what path pays between its first and its last
// region positioned in R, 0 when it has none there.
func crossingCost(m *Mesh, r planners.Region, path []planners.NodeID) float64 {
	first, last := -1, -1
	for i, n := range path {
		if r.Contains(m.Position(n)) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0
	}
	cum := m.PathCosts(path[first:last+1], nil)
	return cum[len(cum)-1]
}

// TestNoShortcutEnds: after mixed updates, the test on a whole path that
// avoids R certifies every path the test on its parts does, and more;
// every path it certifies is still as cheap as A* from scratch.
func TestNoShortcutEnds(t *testing.T) {
	more := 0
	beforeAfter(t, 9, 20, func(name string, ev int, m *Mesh, d *Delta, plans []planned) {
		if d.Change != 0 || d.big {
			return
		}
		astar := planners.NewAStar(m)
		for _, p := range plans {
			if len(p.path) < 2 || !avoids(m, d.R, p.path) {
				continue
			}
			parts, ends := m.noShortcut(d, p.path, p.cum), m.noShortcutEnds(d, p.path, p.cum)
			require.False(t, parts && !ends, "%s, event %d", name, ev)
			if !ends {
				continue
			}
			if !parts {
				more++
			}
			r, err := astar.Plan(context.Background(), p.s, p.g, nil)
			require.NoError(t, err)
			require.InDelta(t, p.cost, r.Cost, 1e-9*(1+p.cost), "%s, event %d: certified, A* finds cheaper", name, ev)
		}
	})
	t.Logf("%d paths certified by the whole-path test alone", more)
	require.Positive(t, more)
}

// avoids reports whether every node of path is live and outside r.
func avoids(m *Mesh, r planners.Region, path []planners.NodeID) bool {
	for _, n := range path {
		if !m.Passable(n) || r.Contains(m.Position(n)) {
			return false
		}
	}
	return true
}
