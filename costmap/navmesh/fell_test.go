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

// TestNoShortcut: after mixed updates, every path noShortcut certifies is
// still as cheap as A* from scratch: whole paths that avoid R, and the
// heads and tails of paths through R that trustRegion keeps, which are
// exactly the heads and tails the test certifies one by one.
func TestNoShortcut(t *testing.T) {
	whole, parts := 0, 0
	beforeAfter(t, 9, 20, func(name string, ev int, m *Mesh, d *Delta, plans []planned) {
		if d.Change != 0 || d.big {
			return
		}
		astar := planners.NewAStar(m)
		same := func(x, y planners.NodeID, cost float64, what string) {
			r, err := astar.Plan(context.Background(), x, y, nil)
			require.NoError(t, err)
			require.InDelta(t, cost, r.Cost, 1e-9*(1+cost), "%s, event %d: %s certified, A* finds cheaper", name, ev, what)
		}
		for _, p := range plans {
			n := len(p.path)
			if n < 2 || !livePath(m, p.path) {
				continue
			}
			t0, g := p.path[0], p.path[n-1]
			a, b := m.span(d, p.path)
			if a == n { // the path avoids R
				if m.noShortcut(d, t0, g, p.cost) {
					whole++
					same(t0, g, p.cost, "whole path")
				}
				continue
			}
			head, tail := m.trusted(d, p.path, p.cum, a, b)
			_, r, ok := m.trustRegion(d, p.path, p.cum, a, b)
			require.Equal(t, ok, head >= 1 || tail <= n-2, "%s, event %d", name, ev)
			require.Less(t, head, a)
			require.Greater(t, tail, b)
			if head+1 < a {
				require.False(t, m.noShortcut(d, t0, p.path[head+1], p.cum[head+1]), "%s, event %d: head %d not the last", name, ev, head)
			}
			if tail-1 > b {
				require.False(t, m.noShortcut(d, p.path[tail-1], g, p.cum[n-1]-p.cum[tail-1]), "%s, event %d: tail %d not the first", name, ev, tail)
			}
			if ok {
				// DPA* keeps the path before its first node in r and after
				// its last: within the trusted head and tail.
				first, last := n, -1
				for i, v := range p.path {
					if r.Contains(m.Position(v)) {
						first, last = min(first, i), i
					}
				}
				require.LessOrEqual(t, first, head+1, "%s, event %d", name, ev)
				require.GreaterOrEqual(t, last, tail-1, "%s, event %d", name, ev)
			}
			// What DPA* keeps exists unchanged and is shortest still.
			if head >= 1 {
				parts++
				same(t0, p.path[head], p.cum[head], "head")
			}
			if tail <= n-2 {
				parts++
				same(p.path[tail], g, p.cum[n-1]-p.cum[tail], "tail")
			}
		}
	})
	t.Logf("certified: %d whole paths that avoid R, %d heads and tails of paths through it", whole, parts)
	require.Positive(t, whole)
	require.Positive(t, parts)
}

// livePath reports whether every node of path is live.
func livePath(m *Mesh, path []planners.NodeID) bool {
	for _, n := range path {
		if !m.Passable(n) {
			return false
		}
	}
	return true
}
