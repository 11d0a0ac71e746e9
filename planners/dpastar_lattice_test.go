package planners

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// dpaPlanner is what runDPAWalk asks of DPA*.
type dpaPlanner interface {
	Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error)
	Replan(ctx context.Context, old []NodeID, at int, goal NodeID, r Region, c Change, dst []NodeID) (Result, DPAScenario, error)
	Forget()
	Recall(path []NodeID, cum []float64)
}

// spatialOnly hides a lattice's DPA* fast path: DPA* sees its
// SpatialGraph methods only and takes the generic search.
type spatialOnly struct{ SpatialGraph }

// dpaTwins runs every call on DPA* through the lattice fast path (fast)
// and through the SpatialGraph interface (slow), and fails unless both
// return the same path, cost, counts, scenario and error. It hands back
// fast's answer.
type dpaTwins struct {
	t          *testing.T
	fast, slow *DPAStar
	calls      int
}

func newDPATwins(t *testing.T, l *Lattice) *dpaTwins {
	return &dpaTwins{t: t, fast: NewDPAStar(l), slow: NewDPAStar(spatialOnly{l})}
}

func (w *dpaTwins) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	got, err := w.fast.Plan(ctx, start, goal, dst)
	want, werr := w.slow.Plan(ctx, start, goal, nil)
	w.same(want, got, werr, err, NoScenario, NoScenario)
	return got, err
}

func (w *dpaTwins) Replan(ctx context.Context, old []NodeID, at int, goal NodeID, r Region, c Change, dst []NodeID) (Result, DPAScenario, error) {
	old = append([]NodeID(nil), old...) // dst may be old's storage
	want, wscen, werr := w.slow.Replan(ctx, old, at, goal, r, c, nil)
	got, scen, err := w.fast.Replan(ctx, old, at, goal, r, c, dst)
	w.same(want, got, werr, err, wscen, scen)
	return got, scen, err
}

func (w *dpaTwins) Forget() { w.fast.Forget(); w.slow.Forget() }

func (w *dpaTwins) Recall(path []NodeID, cum []float64) {
	w.fast.Recall(path, cum)
	w.slow.Recall(path, cum)
}

func (w *dpaTwins) same(want, got Result, werr, err error, wscen, scen DPAScenario) {
	t := w.t
	t.Helper()
	w.calls++
	require.Equal(t, werr, err, "call %d", w.calls)
	require.Equal(t, wscen, scen, "call %d", w.calls)
	require.Equal(t, want.Path, got.Path, "call %d", w.calls)
	require.Equal(t, want.Cost, got.Cost, "call %d", w.calls) // exactly: same additions in the same order
	want.Stats.Elapsed, got.Stats.Elapsed = 0, 0
	require.Equal(t, want.Stats, got.Stats, "call %d", w.calls)
}

// TestDPAStarLatticeFastPath: DPA* through the lattice fast path finds
// the same paths with the same expansions as through the SpatialGraph
// interface, in every scenario, on weighted planar grids and on voxel
// lattices, with its memory of the old path kept, forgotten or recalled.
func TestDPAStarLatticeFastPath(t *testing.T) {
	for i, c := range []struct {
		w, h, d int
		density float64
		weights bool
	}{
		{64, 48, 1, 0.08, true},
		{18, 16, 10, 0.1, false},
		{14, 12, 9, 0.15, true},
		{40, 1, 1, 0, false}, // a corridor: every insertion on the path cuts the goal off
	} {
		rng := rand.New(rand.NewPCG(uint64(i), 11))
		wd := newDPAWorld(t, rng, c.w, c.h, c.d, c.density, c.weights)
		twins := newDPATwins(t, wd.l)
		seen := runDPAWalk(t, wd, twins, rng, 600, 6)
		t.Logf("%d×%d×%d: %d calls compared, scenarios %v", c.w, c.h, c.d, twins.calls, seen)
		require.Greater(t, twins.calls, 600)
	}
}

// TestDPAStarLatticeFastPathDeadline: cut off by its context after one,
// two or three checks, the fast path stops where the generic search
// does, with the same partial path.
func TestDPAStarLatticeFastPathDeadline(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	wd := newDPAWorld(t, rng, 70, 60, 1, 0.05, true)
	twins := newDPATwins(t, wd.l)
	partial := 0
	for range 30 {
		start, goal := wd.randomFree(rng), wd.randomFree(rng)
		n := 1 + rng.IntN(3) // each search gets a context of its own: it counts its checks
		want, werr := twins.slow.Plan(&stopAfter{Context: context.Background(), n: n}, start, goal, nil)
		got, err := twins.fast.Plan(&stopAfter{Context: context.Background(), n: n}, start, goal, nil)
		twins.same(want, got, werr, err, NoScenario, NoScenario)
		if got.Stats.Partial {
			partial++
			require.ErrorIs(t, err, ErrTimeout)
		}
	}
	require.Positive(t, partial)
}
