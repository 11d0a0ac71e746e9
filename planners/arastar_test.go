package planners

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stopAfter is a context whose Err reports context.Canceled from its
// n-th call on: a deadline that ends after a chosen number of checks,
// the same on every run.
type stopAfter struct {
	context.Context
	n int
}

func (c *stopAfter) Err() error {
	if c.n--; c.n <= 0 {
		return context.Canceled
	}
	return nil
}

// TestARAStarMovingAI: on every tenth scenario of Simple and Complex, ARA*
// run down to ε = 1 reproduces the benchmark's optimal cost. On every
// fiftieth, stopped at ε = 2 or interrupted after one to four deadline
// checks, its path costs at most Stats.Epsilon times the optimum.
func TestARAStarMovingAI(t *testing.T) {
	for _, name := range []string{"Simple", "Complex"} {
		t.Run(name, func(t *testing.T) {
			l, scen := movingAILattice(t, name)
			full := NewARAStar(l)
			two := NewARAStar(l)
			two.Epsilon0, two.EpsilonStep, two.EpsilonMin = 3, 0.5, 2
			cut := NewARAStar(l)
			var path []NodeID
			cutPartial, cutBounded := 0, 0
			for i := 0; i < len(scen); i += movingAIStride() {
				s := scen[i]
				start, goal := l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2])
				r, err := full.Plan(context.Background(), start, goal, path)
				require.NoError(t, err, "scenario %d", i)
				require.InDelta(t, s.Optimal, r.Cost, 1e-4, "scenario %d: %+v", i, s)
				require.Equal(t, 1.0, r.Stats.Epsilon)
				path = r.Path
				if i%50 != 0 {
					continue
				}
				requireBounded(t, l, r, s, start, goal)

				r, err = two.Plan(context.Background(), start, goal, path)
				require.NoError(t, err, "scenario %d", i)
				require.LessOrEqual(t, r.Stats.Epsilon, 2.0)
				requireBounded(t, l, r, s, start, goal)
				path = r.Path

				r, err = cut.Plan(&stopAfter{Context: context.Background(), n: 1 + i/100%4}, start, goal, path)
				if err != nil {
					require.ErrorIs(t, err, ErrTimeout, "scenario %d", i)
					require.True(t, r.Stats.Partial)
					cutPartial++
					continue
				}
				requireBounded(t, l, r, s, start, goal)
				if r.Stats.Epsilon > 1 {
					cutBounded++
				}
				path = r.Path
			}
			t.Logf("%s: interrupted ARA* returned %d partial paths and %d paths with a bound above 1", name, cutPartial, cutBounded)
		})
	}
}

// requireBounded checks that r is a legal path from start to goal whose
// cost is r.Cost and at most r.Stats.Epsilon times the optimum.
func requireBounded(t *testing.T, l *Lattice, r Result, s Scenario, start, goal NodeID) {
	t.Helper()
	require.False(t, r.Stats.Partial)
	require.GreaterOrEqual(t, r.Stats.Epsilon, 1.0)
	require.Equal(t, start, r.Path[0])
	require.Equal(t, goal, r.Path[len(r.Path)-1])
	require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9)
	require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*s.Optimal+1e-6, "%+v: %+v", s, r.Stats)
	require.GreaterOrEqual(t, r.Cost, s.Optimal-1e-4)
}

// TestARAStarRandom compares ARA* with Dijkstra on random small
// lattices, 2D and 3D, with and without weights, for several schedules,
// run to the end and interrupted.
func TestARAStarRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		l, start, goal := anytimeRandomLattice(rng, i%2 == 0, i%3 == 0)
		want := dijkstra(l, start, goal)
		a := NewARAStar(l)
		a.Epsilon0, a.EpsilonStep = 1+rng.Float64()*4, 0.1+rng.Float64()
		r, err := a.Plan(context.Background(), start, goal, nil)
		if math.IsInf(want, 1) {
			require.ErrorIs(t, err, ErrNoPath, "case %d", i)
			continue
		}
		require.NoError(t, err, "case %d", i)
		require.InDelta(t, want, r.Cost, 1e-9, "case %d", i)
		require.InDelta(t, want, pathCost(t, l, r.Path), 1e-9)
		require.Equal(t, 1.0, r.Stats.Epsilon)

		a.EpsilonMin = min(a.Epsilon0, 1.5)
		r, err = a.Plan(context.Background(), start, goal, nil)
		require.NoError(t, err, "case %d", i)
		require.LessOrEqual(t, r.Stats.Epsilon, a.EpsilonMin)
		require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*want+1e-9, "case %d", i)
		require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9)

		a.EpsilonMin = 0
		r, err = a.Plan(&stopAfter{Context: context.Background(), n: 2}, start, goal, nil)
		require.NoError(t, err, "case %d: small lattices finish the first search before a second check", i)
		require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*want+1e-9, "case %d", i)
		require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9)
	}
}

// anytimeRandomLattice returns a random lattice of up to 12×12×6 cells with a
// free start and goal.
func anytimeRandomLattice(rng *rand.Rand, planar, weighted bool) (*Lattice, NodeID, NodeID) {
	d := 1 + rng.IntN(6)
	if planar {
		d = 1
	}
	l, err := NewLattice(3+rng.IntN(10), 3+rng.IntN(10), d, planar)
	if err != nil {
		panic(err)
	}
	density := rng.Float64() * 0.4
	for n := range NodeID(l.NumNodes()) {
		l.SetBlocked(n, rng.Float64() < density)
		if weighted {
			l.SetWeight(n, 1+rng.Float32()*3)
		}
	}
	start, goal := NodeID(rng.IntN(l.NumNodes())), NodeID(rng.IntN(l.NumNodes()))
	l.SetBlocked(start, false)
	l.SetBlocked(goal, false)
	return l, start, goal
}

func TestARAStarEdgeCases(t *testing.T) {
	l, err := NewLattice(5, 5, 1, true)
	require.NoError(t, err)
	a := NewARAStar(l)
	ctx := context.Background()

	r, err := a.Plan(ctx, 7, 7, nil)
	require.NoError(t, err)
	require.Equal(t, []NodeID{7}, r.Path)
	require.Zero(t, r.Cost)
	require.Equal(t, 1.0, r.Stats.Epsilon)

	l.SetBlocked(3, true)
	_, err = a.Plan(ctx, 3, 7, nil)
	require.ErrorIs(t, err, ErrStartBlocked)
	_, err = a.Plan(ctx, 7, 3, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	_, err = a.Plan(ctx, -1, 3, nil)
	require.ErrorIs(t, err, ErrNodeRange)
	_, err = a.Plan(ctx, 0, 25, nil)
	require.ErrorIs(t, err, ErrNodeRange)

	for y := range int32(5) { // a wall across x = 2
		l.SetBlocked(l.ID(2, y, 0), true)
	}
	r, err = a.Plan(ctx, l.ID(0, 0, 0), l.ID(4, 4, 0), nil)
	require.ErrorIs(t, err, ErrNoPath)
	require.Equal(t, 10, r.Stats.Expansions)
	require.Nil(t, r.Path)

	for _, s := range [][3]float64{{0.5, 0, 0}, {2, -1, 0}, {2, 0.5, 3}, {math.Inf(1), 1, 0}, {math.NaN(), 0, 0}, {2, 0, 0.5}} {
		b := NewARAStar(l)
		b.Epsilon0, b.EpsilonStep, b.EpsilonMin = s[0], s[1], s[2]
		_, err = b.Plan(ctx, 0, 1, nil)
		require.Error(t, err, "schedule %v", s)
	}
}

// TestARAStarDeadline: a context that ends at its second check (the
// first comes before anything is expanded) stops the first search after
// one check interval with a partial path; once a first path exists, an
// ended context returns it with its bound and no error.
func TestARAStarDeadline(t *testing.T) {
	l, err := NewLattice(200, 200, 1, true)
	require.NoError(t, err)
	for y := range int32(199) { // a wall the search must flood around
		l.SetBlocked(l.ID(100, y, 0), true)
	}
	a := NewARAStar(l)
	start, goal := l.ID(0, 0, 0), l.ID(199, 0, 0)
	began := time.Now()
	r, err := a.Plan(&stopAfter{Context: context.Background(), n: 2}, start, goal, nil)
	require.Less(t, time.Since(began), time.Second)
	require.ErrorIs(t, err, ErrTimeout)
	require.True(t, r.Stats.Partial)
	require.Equal(t, checkEvery, r.Stats.Expansions)
	require.Equal(t, 2.5, r.Stats.Epsilon)
	require.Equal(t, start, r.Path[0])
	require.Less(t, l.Heuristic(r.Path[len(r.Path)-1], goal), l.Heuristic(start, goal))
	require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9)

	// No wall: the first search (ε = 2.5) needs fewer expansions than
	// one check interval; the context, ended by then, ends the schedule
	// there.
	for y := range int32(199) {
		l.SetBlocked(l.ID(100, y, 0), false)
	}
	goal = l.ID(150, 60, 0)
	r, err = a.Plan(&stopAfter{Context: context.Background(), n: 2}, start, goal, nil)
	require.NoError(t, err)
	require.Less(t, r.Stats.Expansions, checkEvery)
	require.LessOrEqual(t, r.Stats.Epsilon, 2.5)
	opt := l.Heuristic(start, goal)
	require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*opt+1e-9)
	require.Equal(t, goal, r.Path[len(r.Path)-1])
}

// TestARAStarAllocs: after a first query, a query allocates nothing.
func TestARAStarAllocs(t *testing.T) {
	l := clutteredLattice(t, rand.New(rand.NewPCG(5, 6)), 40, 40, 10, false, 0.2, [3]int32{0, 0, 0}, [3]int32{39, 39, 9})
	start, goal := l.ID(0, 0, 0), l.ID(39, 39, 9)
	a := NewARAStar(l)
	a.EpsilonStep = 0.25
	path := make([]NodeID, 0, 256)
	_, err := a.Plan(context.Background(), start, goal, path)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := a.Plan(context.Background(), start, goal, path); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
}
