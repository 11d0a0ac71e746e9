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
// at the same ε until the deadline.
func TestARAStarTinyStep(t *testing.T) {
	l, err := NewLattice(8, 10, 1, true)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(4, 4))
	for n := range NodeID(l.NumNodes()) {
		l.SetBlocked(n, rng.Float64() < 0.2)
	}
	start, goal := l.ID(3, 0, 0), l.ID(6, 5, 0)
	l.SetBlocked(start, false)
	l.SetBlocked(goal, false)
	a := NewARAStar(l)
	a.EpsilonStep = 1e-17 // 2.5 − 1e-17 == 2.5 in float64
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := a.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	require.Equal(t, 1.0, r.Stats.Epsilon)
	require.InDelta(t, dijkstra(l, start, goal), r.Cost, 1e-9)
}

// TestExpiredContextAfterThaw: a D* Lite Plan with an expired context
// expands nothing, also when the search must first thaw cold nodes (the
// thaw used to take the deadline check's first turn). A robot walks and
// jumps on a 40³ lattice, a few cells blocked each step.
func TestExpiredContextAfterThaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 9))
	l, err := NewLattice(40, 40, 40, false)
	require.NoError(t, err)
	for n := range NodeID(l.NumNodes()) {
		l.SetBlocked(n, rng.Float64() < 0.3)
	}
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
	thawFirst := 0
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
		if r, err = d.Plan(context.Background(), start, goal, nil); err == nil {
			path = r.Path
		} else {
			path = nil
		}
	}
	require.Positive(t, thawFirst, "some searches began with a thaw")
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
		"A*": NewAStar(l), "A* generic": NewAStar(wrappedLattice{l}), "D* Lite": NewDStarLite(l),
		"LPA*": NewLPAStar(l), "AD*": NewADStar(l), "ARA*": NewARAStar(l),
	} {
		r, err := p.Plan(ctx, 0, 3, nil)
		require.NoError(t, err, name)
		require.Equal(t, []NodeID{0, 1, 2, 3}, r.Path, name)
		require.InDelta(t, want, r.Cost, want*1e-12, name)
	}
}

// wrappedLattice hides a *Lattice behind its Graph methods, so that the
// planners take their generic path.
type wrappedLattice struct{ *Lattice }

func (w wrappedLattice) Successors(n NodeID, dst []Edge) []Edge   { return w.Lattice.Successors(n, dst) }
func (w wrappedLattice) Predecessors(n NodeID, dst []Edge) []Edge { return w.Lattice.Predecessors(n, dst) }
