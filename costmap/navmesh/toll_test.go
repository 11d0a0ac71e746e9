package navmesh

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/planners"
)

// TestTollBoundsCheaperPaths: after random edits, every pair of regions
// whose A* distance fell is joined by a shortest path that pays at least
// R's toll between its first and its last region in R, as DPA* assumes
// when it adds the toll to its R-worse test.
func TestTollBoundsCheaperPaths(t *testing.T) {
	ctx := context.Background()
	const pairs = 20
	checked, tolled := 0, 0
	for _, w := range testWorlds() {
		rng := rand.New(rand.NewPCG(7, 8))
		m, err := New(w.g, w.cfg)
		require.NoError(t, err)
		astar := planners.NewAStar(m)
		var d Delta
		var ends [pairs][2]planners.NodeID
		var before [pairs]float64
		events := 300
		if testing.Short() || raceDetector {
			events = 60
		}
		for ev := range events {
			for i := range ends {
				_, ends[i][0], _ = randomCell(rng, m)
				_, ends[i][1], _ = randomCell(rng, m)
				before[i] = math.Inf(1)
				if r, err := astar.Plan(ctx, ends[i][0], ends[i][1], nil); err == nil {
					before[i] = r.Cost
				}
			}
			cs := newChangeSet()
			w.edit(rng, w.g, cs)
			m.Update(cs, &d)
			if d.Empty() {
				continue
			}
			require.GreaterOrEqual(t, d.R.Toll, 0.0)
			for i, e := range ends {
				if !m.Passable(e[0]) || !m.Passable(e[1]) {
					continue
				}
				r, err := astar.Plan(ctx, e[0], e[1], nil)
				if err != nil || r.Cost >= before[i]-1e-9*(1+before[i]) {
					continue
				}
				checked++
				if d.R.Toll > 0 {
					tolled++
				}
				crossing := crossingCost(m, d.R, r.Path)
				require.GreaterOrEqual(t, crossing, d.R.Toll-1e-9*(1+d.R.Toll),
					"%s, event %d: %d → %d fell from %g to %g", w.name, ev, e[0], e[1], before[i], r.Cost)
			}
		}
	}
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
	sum := 0.0
	for i := first; i >= 0 && i < last; i++ {
		sum += m.stepCost(path[i], path[i+1])
	}
	return sum
}
