package navmesh

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/planners"
)

// TestNoShortcutEnds: after mixed updates, the test on a whole path that
// avoids R certifies every path the test on its parts does, and more;
// every path it certifies is still as cheap as A* from scratch.
func TestNoShortcutEnds(t *testing.T) {
	ctx := context.Background()
	const paths = 20
	more := 0
	for _, w := range testWorlds() {
		rng := rand.New(rand.NewPCG(9, 10))
		m, err := New(w.g, w.cfg)
		require.NoError(t, err)
		astar := planners.NewAStar(m)
		var d Delta
		var old [paths][]planners.NodeID
		var cum [paths][]float64
		events := 300
		if testing.Short() || raceDetector {
			events = 60
		}
		for ev := range events {
			for i := range old {
				old[i], cum[i] = nil, nil
				_, s, _ := randomCell(rng, m)
				_, g, _ := randomCell(rng, m)
				if r, err := astar.Plan(ctx, s, g, nil); err == nil && len(r.Path) > 1 {
					old[i], cum[i] = r.Path, m.PathCosts(r.Path, nil)
				}
			}
			cs := newChangeSet()
			w.edit(rng, w.g, cs)
			m.Update(cs, &d)
			if d.Empty() || d.Change != 0 || d.big {
				continue
			}
			for i, p := range old {
				if p == nil || !avoids(m, d.R, p) {
					continue
				}
				parts, ends := m.noShortcut(&d, p, cum[i]), m.noShortcutEnds(&d, p, cum[i])
				require.False(t, parts && !ends, "%s, event %d", w.name, ev)
				if !ends {
					continue
				}
				if !parts {
					more++
				}
				r, err := astar.Plan(ctx, p[0], p[len(p)-1], nil)
				require.NoError(t, err)
				c := cum[i][len(p)-1]
				require.InDelta(t, c, r.Cost, 1e-9*(1+c), "%s, event %d: certified, A* finds cheaper", w.name, ev)
			}
		}
	}
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
