package planners

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAStarResume: a search cut off every checkEvery expansions and
// resumed until it ends, toward a goal that moves now and then, finds
// the cost a search run in one go finds (weighted: within its weight of
// it), with a legal path from the start to the last goal; on the lattice
// fast path, through Graph, and on a Masked lattice. A goal the search has already expanded
// is answered at once. The robot's planning loop runs A* from the goal
// to the moving robot this way under a time budget.
func TestAStarResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 5))
	cuts, moves, closedGoals, expanded := 0, 0, 0, 0
	for i := range 80 {
		planar := i%3 == 0
		w, h, d := 60+rng.IntN(100), 60+rng.IntN(100), 1+rng.IntN(12)
		if planar {
			d = 1
		}
		l := clutteredLattice(t, rng, w, h, d, planar, 0.2)
		if i%4 == 1 {
			for n := range NodeID(l.NumNodes()) {
				l.SetWeight(n, 1+rng.Float32()*2)
			}
		}
		var g Graph = l
		switch i % 5 {
		case 2:
			g = graphOnly{l}
		case 3:
			allowed := make([]uint64, (l.NumNodes()+63)/64)
			for n := range l.NumNodes() {
				if rng.Float64() < 0.9 {
					allowed[n>>6] |= 1 << (n & 63)
				}
			}
			g = NewMasked(l, allowed)
		}
		a, ref := NewAStar(g), NewAStar(g)
		if i%6 == 5 {
			a.Weight = 1.4
		}
		from, goal := randomPassable(rng, g), randomPassable(rng, g)
		what := []any{"case %d: %d×%d×%d planar %v graph %T weight %v", i, w, h, d, planar, g, a.Weight}
		res, err := a.Plan(&expiring{Context: context.Background(), left: 1}, from, goal, nil)
		for errors.Is(err, ErrTimeout) {
			cuts++
			s, ok := a.Suspended()
			require.True(t, ok, what...)
			require.Equal(t, from, s, what...)
			switch {
			case rng.IntN(3) == 0:
				goal = randomPassable(rng, g) // the robot moved
				moves++
			case rng.IntN(4) == 0 && len(res.Path) > 0:
				goal = res.Path[rng.IntN(len(res.Path))] // into the nodes already expanded
				moves++
				closedGoals++
			}
			res, err = a.Resume(&expiring{Context: context.Background(), left: 1}, goal, nil)
			require.LessOrEqual(t, res.Stats.Expansions, checkEvery, what...)
			expanded += res.Stats.Expansions
		}
		_, ok := a.Suspended()
		require.False(t, ok, what...)
		want, werr := ref.Plan(context.Background(), from, goal, nil)
		if werr != nil {
			require.ErrorIs(t, werr, ErrNoPath, what...)
			require.ErrorIs(t, err, ErrNoPath, what...)
			continue
		}
		requirePlanned(t, g, from, goal, res, err, want.Cost, a.Weight, what...)
	}
	require.Greater(t, cuts, 100, "the lattices are too small to cut the searches often")
	require.Greater(t, moves, 20)
	require.Greater(t, closedGoals, 5)
	t.Logf("%d cuts, %d goals moved (%d into the expanded nodes), %d expansions resumed", cuts, moves, closedGoals, expanded)
}

// TestAStarResumeErrors: Resume without a suspended search, after one
// that finished, after a Plan that failed, and toward a blocked goal.
func TestAStarResumeErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	l := clutteredLattice(t, rng, 60, 60, 4, false, 0.1, [3]int32{0, 0, 0}, [3]int32{59, 59, 3})
	start, goal := l.ID(0, 0, 0), l.ID(59, 59, 3)
	a := NewAStar(l)
	_, err := a.Resume(context.Background(), goal, nil)
	require.ErrorIs(t, err, ErrNoSearch)
	_, err = a.Plan(context.Background(), start, goal, nil)
	require.NoError(t, err)
	_, err = a.Resume(context.Background(), goal, nil)
	require.ErrorIs(t, err, ErrNoSearch, "the search finished")

	_, err = a.Plan(&expiring{Context: context.Background(), left: 1}, start, goal, nil)
	require.ErrorIs(t, err, ErrTimeout)
	blocked := l.ID(30, 30, 2)
	l.SetBlocked(blocked, true)
	_, err = a.Resume(context.Background(), blocked, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	_, ok := a.Suspended()
	require.True(t, ok, "a refused goal leaves the search as it was")
	_, err = a.Plan(context.Background(), start, blocked, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	_, err = a.Resume(context.Background(), goal, nil)
	require.ErrorIs(t, err, ErrNoSearch, "a failed Plan drops the search")
}

// randomPassable returns a random passable node of g.
func randomPassable(rng *rand.Rand, g Graph) NodeID {
	for {
		if n := NodeID(rng.IntN(g.NumNodes())); g.Passable(n) {
			return n
		}
	}
}
