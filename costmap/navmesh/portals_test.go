package navmesh

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/planners"
)

// portalEntry is one portal as seen from one of its regions.
type portalEntry struct {
	other planners.NodeID
	at    [3]float64
}

// portalsOf lists each live region's portals, sorted, and its weight:
// what a portal graph is, whatever slots it keeps its portals in.
func portalsOf(g *PortalGraph, m *Mesh) (map[planners.NodeID][]portalEntry, map[planners.NodeID]float64) {
	out, weights := map[planners.NodeID][]portalEntry{}, map[planners.NodeID]float64{}
	m.ForEach(func(r planners.NodeID, _ Region) bool {
		weights[r] = g.weight[r]
		var es []portalEntry
		for _, p := range g.of[r] {
			o := g.ends[p][0]
			if o == r {
				o = g.ends[p][1]
			}
			es = append(es, portalEntry{o, g.at[p]})
		}
		slices.SortFunc(es, func(a, b portalEntry) int { return cmp.Compare(a.other, b.other) })
		out[r] = es
		return true
	})
	return out, weights
}

// TestPortalGraphUpdate: a portal graph kept in step by Update, after
// Mesh.Update or Mesh.Refresh, equals one built afresh on the mesh after
// every step of random edits, and its slots are reused.
func TestPortalGraphUpdate(t *testing.T) {
	for _, w := range testWorlds() {
		t.Run(w.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			m, err := New(w.g, w.cfg)
			require.NoError(t, err)
			g := NewPortalGraph(m)
			var d Delta
			steps := 200
			if testing.Short() || raceDetector {
				steps = 20
			}
			for step := range steps {
				cs := newChangeSet()
				for range 1 + rng.IntN(3) {
					w.edit(rng, w.g, cs)
				}
				if step%2 == 0 {
					m.Update(cs, &d)
				} else {
					m.Refresh(cs, &d)
					require.Zero(t, d.Change, "Refresh certifies nothing")
				}
				g.Update(m, &d)
				wantP, wantW := portalsOf(NewPortalGraph(m), m)
				gotP, gotW := portalsOf(g, m)
				require.Equal(t, wantP, gotP, "step %d", step)
				require.Equal(t, wantW, gotW, "step %d", step)
			}
			live := 0
			for _, e := range g.ends {
				if e[0] != planners.None {
					live++
				}
			}
			require.Equal(t, live+len(g.free), len(g.ends))
			require.LessOrEqual(t, len(g.ends), 3*live+64, "slots are reused")
		})
	}
}

// TestRefreshEqualsUpdate: Refresh leaves the mesh as Update does.
func TestRefreshEqualsUpdate(t *testing.T) {
	for _, w := range testWorlds() {
		t.Run(w.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			a, err := New(w.g, w.cfg)
			require.NoError(t, err)
			b, err := New(w.g, w.cfg)
			require.NoError(t, err)
			var da, db Delta
			for step := range 50 {
				cs := newChangeSet()
				w.edit(rng, w.g, cs)
				a.Update(cs, &da)
				b.Refresh(cs, &db)
				require.Equal(t, canon(a), canon(b), "step %d", step)
				require.Equal(t, da.Removed, db.Removed)
				require.Equal(t, da.Added, db.Added)
				require.Equal(t, da.Changed, db.Changed)
			}
		})
	}
}
