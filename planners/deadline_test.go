package planners

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDeadlinePartialPath: on a corridor one voxel wide every planner
// expands the voxels in order from the start, so a search cut off at its
// second deadline check (the first comes before it expands anything) has
// expanded exactly x = 0 … checkEvery−1. It reports that many expansions
// and a partial path to the last of them, the expanded node nearest the
// goal; none is popped and left unexpanded.
func TestDeadlinePartialPath(t *testing.T) {
	l, err := NewLattice(3*checkEvery, 1, 1, true)
	require.NoError(t, err)
	start, goal := l.ID(0, 0, 0), l.ID(3*checkEvery-1, 0, 0)
	ara := NewARAStar(l)
	ara.Epsilon0 = 2.5 // a line: inflation does not change the order
	for name, p := range map[string]planner{
		"astar lattice": NewAStar(l),
		"astar graph":   NewAStar(graphOnly{l}),
		"arastar":       ara,
		"theta":         NewLazyTheta(l),
		"dpastar":       NewDPAStar(l),
	} {
		r, err := p.Plan(&stopAfter{Context: context.Background(), n: 2}, start, goal, nil)
		require.ErrorIs(t, err, ErrTimeout, name)
		require.True(t, r.Stats.Partial, name)
		require.Equal(t, checkEvery, r.Stats.Expansions, name)
		require.Equal(t, start, r.Path[0], name)
		require.Equal(t, l.ID(checkEvery-1, 0, 0), r.Path[len(r.Path)-1], name)
		require.InDelta(t, checkEvery-1, r.Cost, 1e-9, name)
	}
}
