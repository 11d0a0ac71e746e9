package planners

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// These tests came from a review of the planners (2026-11-22): each
// failed before its fix.

// TestARAStarTinyStep: an EpsilonStep the schedule accepts (> 0, finite)
// but too small to move ε ends at ε = 1, as AD* does, instead of searching
// at the same ε until the deadline, on 20 small maps.
func TestARAStarTinyStep(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for seed := range uint64(20) {
		l := clutteredLattice(t, rand.New(rand.NewPCG(seed, seed+1)), 8, 10, 1, true, 0.2, [3]int32{3, 0, 0}, [3]int32{6, 5, 0})
		start, goal := l.ID(3, 0, 0), l.ID(6, 5, 0)
		a := NewARAStar(l)
		a.EpsilonStep = 1e-17 // 2.5 − 1e-17 == 2.5 in float64
		r, err := a.Plan(ctx, start, goal, nil)
		if math.IsInf(dijkstra(l, start, goal), 1) {
			continue
		}
		require.NoError(t, err, "seed %d", seed)
		require.Equal(t, 1.0, r.Stats.Epsilon, "seed %d", seed)
		require.InDelta(t, dijkstra(l, start, goal), r.Cost, 1e-9, "seed %d", seed)
	}
}

// TestExpiredContextAfterThaw: a D* Lite Plan with an expired context
// expands nothing, also when the search must first thaw cold nodes (the
// thaw used to take the deadline check's first turn). A robot walks and
// jumps on 40³ lattices, a few cells blocked each step.
func TestExpiredContextAfterThaw(t *testing.T) {
	thawFirst := 0
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(23+seed, 9))
		thawFirst += expiredWalk(t, clutteredLattice(t, rng, 40, 40, 40, false, 0.3), rng)
	}
	require.Positive(t, thawFirst, "some searches began with a thaw")
}

// expiredWalk walks a robot on l with D* Lite, calling Plan with an
// expired context before each real one, and returns how many of those
// began with a thaw.
func expiredWalk(t *testing.T, l *Lattice, rng *rand.Rand) (thawFirst int) {
	d := NewDStarLite(l)
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	free := func() NodeID {
		for {
			if n := NodeID(rng.IntN(l.NumNodes())); !l.Blocked(n) {
				return n
			}
		}
	}
	start, goal := free(), free()
	var path []NodeID
	for step := range 40 {
		if len(path) > 5 && rng.IntN(3) > 0 {
			start = path[1+rng.IntN(4)]
		} else if rng.IntN(4) == 0 {
			start = free()
		}
		var changed []NodeID
		for range rng.IntN(4) {
			if n := free(); n != start && n != goal {
				l.SetBlocked(n, true)
				changed = l.Around(n, changed)
			}
		}
		require.NoError(t, d.Update(changed))
		if !d.p.hotLeads() {
			thawFirst++
		}
		r, _ := d.Plan(expired, start, goal, nil)
		require.Zero(t, r.Stats.Expansions, "step %d: a Plan with an expired context expanded nodes", step)
		path = nil
		if r, err := d.Plan(context.Background(), start, goal, nil); err == nil {
			path = r.Path
		}
	}
	return thawFirst
}

// TestHugeFiniteWeights: weights near float32's largest, which SetWeight
// accepts, give finite move costs (the two ends' weights are averaged in
// float64), and every planner finds Dijkstra's path and cost.
func TestHugeFiniteWeights(t *testing.T) {
	l, err := NewLattice(4, 1, 1, true)
	require.NoError(t, err)
	l.SetWeight(1, 3e38)
	l.SetWeight(2, 3e38)
	want := dijkstra(l, 0, 3)
	require.False(t, math.IsInf(want, 0))
	ctx := context.Background()
	for name, p := range map[string]planner{
		"A*": NewAStar(l), "A* generic": NewAStar(graphOnly{l}), "D* Lite": NewDStarLite(l),
		"LPA*": NewLPAStar(l), "AD*": NewADStar(l), "ARA*": NewARAStar(l),
	} {
		r, err := p.Plan(ctx, 0, 3, nil)
		require.NoError(t, err, name)
		require.Equal(t, []NodeID{0, 1, 2, 3}, r.Path, name)
		require.InDelta(t, want, r.Cost, want*1e-12, name)
	}
}
