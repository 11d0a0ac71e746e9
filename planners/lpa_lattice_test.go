package planners

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIncrementalLatticeFastPath: D* Lite, LPA* and AD* on a lattice (the
// fast path) and on the same lattice behind graphOnly (the generic
// search) find the same paths at the same costs with the same expansions,
// on random sequences of moves, changes and new goals; every path is
// legal and costs what A* from scratch finds.
func TestIncrementalLatticeFastPath(t *testing.T) {
	cases := []struct {
		name     string
		w, h, d  int
		planar   bool
		weighted bool
	}{
		{"2D", 30, 25, 1, true, false},
		{"2D-weighted", 25, 25, 1, true, true},
		{"3D", 12, 11, 9, false, false},
		{"3D-weighted", 11, 10, 8, false, true},
		{"3D-planar-layers", 14, 14, 3, true, false},
		{"thin", 1, 40, 7, false, false},
	}
	checked := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for run := range 8 {
				rng := rand.New(rand.NewPCG(uint64(run), 11))
				l := changingLattice(t, rng, c.w, c.h, c.d, c.planar, 0.2, c.weighted)
				checked += fastPathEpisode(t, fmt.Sprintf("run %d", run), rng, l, 30)
			}
		})
	}
	require.GreaterOrEqual(t, checked, 1000)
}

// fastPathEpisode runs one random episode on l and returns how many plans
// it compared.
func fastPathEpisode(t *testing.T, label string, rng *rand.Rand, l *Lattice, changes int) int {
	t.Helper()
	mk := func(g Graph) map[string]incremental {
		ps := incrementalPlanners(g)
		anytime := NewADStar(g)
		anytime.Epsilon0, anytime.EpsilonStep, anytime.LargeChange = 3, 0.5, 1
		ps["ADStar-anytime"] = anytime
		return ps
	}
	fast, slow := mk(l), mk(graphOnly{l})
	require.NotNil(t, fast["DStarLite"].(*DStarLite).p.g.(*Lattice))
	a := NewAStar(l)
	w := &world{l: l, rng: rng}
	start, goal := randomFree(rng, l), randomFree(rng, l)
	fixedStart := start
	var path []NodeID
	compared := 0
	compare := func(what string) {
		for name := range fast {
			from := start
			if name == "LPAStar" {
				from = fixedStart
			}
			rf, errF := fast[name].Plan(context.Background(), from, goal, nil)
			rs, errS := slow[name].Plan(context.Background(), from, goal, nil)
			require.Equal(t, errS, errF, "%s %s", name, what)
			require.Equal(t, rs.Path, rf.Path, "%s %s", name, what)
			require.Equal(t, rs.Cost, rf.Cost, "%s %s", name, what)
			require.Equal(t, rs.Stats.Expansions, rf.Stats.Expansions, "%s %s", name, what)
			require.Equal(t, rs.Stats.Touched, rf.Stats.Touched, "%s %s", name, what)
			require.Equal(t, rs.Stats.Epsilon, rf.Stats.Epsilon, "%s %s", name, what)
			compared++
			if name == "DStarLite" {
				path = rf.Path
			}
			if name == "ADStar-anytime" {
				continue
			}
			ra, errA := a.Plan(context.Background(), from, goal, nil)
			if errors.Is(errA, ErrNoPath) {
				require.ErrorIs(t, errF, ErrNoPath, "%s %s", name, what)
				continue
			}
			require.NoError(t, errF, "%s %s", name, what)
			require.InDelta(t, ra.Cost, rf.Cost, 1e-9*ra.Cost, "%s %s", name, what)
			require.True(t, legalPath(l, rf.Path), "%s %s", name, what)
			require.Equal(t, from, rf.Path[0], "%s %s", name, what)
			require.Equal(t, goal, rf.Path[len(rf.Path)-1], "%s %s", name, what)
		}
	}
	compare(label + " first search")
	for i := range changes {
		what := fmt.Sprintf("%s change %d", label, i)
		start, goal, _ = w.step(path, start, goal, fixedStart)
		for name := range fast {
			require.NoError(t, fast[name].Update(w.changed), "%s %s", name, what)
			require.NoError(t, slow[name].Update(w.changed), "%s %s", name, what)
		}
		compare(what)
	}
	return compared
}

// TestLatGeomCell: the fast path's division-free Cell agrees with
// Lattice.Cell, on lattices one cell wide or high and on large ones.
func TestLatGeomCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, dims := range [][3]int{{1, 1, 1}, {1, 7, 5}, {7, 1, 5}, {1, 1, 9}, {64, 64, 64}, {246, 154, 205}, {853, 245, 321}, {46341, 46340, 1}, {3, 715827882, 1}} {
		l := &Lattice{W: int32(dims[0]), H: int32(dims[1]), D: int32(dims[2])}
		q := newLatGeom(l)
		n := int64(dims[0]) * int64(dims[1]) * int64(dims[2])
		for i := range 20000 {
			id := NodeID(rng.Int64N(n))
			switch i {
			case 0:
				id = 0
			case 1:
				id = NodeID(n - 1)
			}
			x, y, z := q.cell(id)
			wx, wy, wz := l.Cell(id)
			require.Equal(t, [3]int32{wx, wy, wz}, [3]int32{x, y, z}, "%v node %d", dims, id)
		}
	}
}
