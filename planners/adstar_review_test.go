package planners

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestADStarSlicedFirstPassReview: AD*'s doc says a Plan cut by its
// deadline before a path "resumes" on the next call, and the replanner
// gives AD* one such slice per Tick under budget_ms. On a 200×200 map with
// a wall between start and goal, the first pass at ε₀ = 4 takes 16,101
// expansions in one call; cut into slices of ~1024 expansions (a context
// that expires at its second check) it should take about as many. But
// every call starts a new pass (newPass: CLOSED emptied, INCONS back to
// OPEN) though ε, start and graph are unchanged, so nodes the inflated
// search improved are re-expanded slice after slice: the sliced search
// needs ~7.7× the expansions (and 122 Ticks instead of ~16), more than an
// uninflated search (ε₀ = 1, 25,336). Right: a call that resumes an
// unfinished pass with nothing changed continues it.
func TestADStarSlicedFirstPassReview(t *testing.T) {
	l, err := NewLattice(200, 200, 1, true)
	require.NoError(t, err)
	for y := int32(0); y < 180; y++ {
		for x := int32(97); x <= 103; x++ {
			l.SetBlocked(l.ID(x, y, 0), true)
		}
	}
	start, goal := l.ID(5, 5, 0), l.ID(195, 5, 0)
	for _, e0 := range []float64{2.5, 4} {
		whole := NewADStar(l)
		whole.Epsilon0, whole.EpsilonMin = e0, e0 // the first pass only
		r, err := whole.Plan(context.Background(), start, goal, nil)
		require.NoError(t, err)
		sliced := NewADStar(l)
		sliced.Epsilon0, sliced.EpsilonMin = e0, e0
		total, calls := 0, 0
		for {
			calls++
			s, err := sliced.Plan(&stopAfter{Context: context.Background(), n: 2}, start, goal, nil)
			total += s.Stats.Expansions
			if !errors.Is(err, ErrTimeout) {
				require.NoError(t, err)
				break
			}
		}
		t.Logf("ε₀ %v: first pass %d expansions in one call, %d in %d slices", e0, r.Stats.Expansions, total, calls)
		assert.LessOrEqual(t, float64(total), 1.1*float64(r.Stats.Expansions),
			"ε₀ %v: first pass %d expansions in one call, %d in %d slices", e0, r.Stats.Expansions, total, calls)
	}
}
