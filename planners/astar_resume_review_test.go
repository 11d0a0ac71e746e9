package planners

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAStarResumeRetargetBoundedReview: Resume toward a moved goal under a
// context that has already ended does no work: it once re-keyed the whole
// open list first, without looking at the deadline (on this lattice about
// 56,000 items, some 8 deadline-check intervals' time), every time the
// robot moved, so the planning loop's Tick overran its Budget by that
// much. Now the keys keep Plan's goal and nothing is re-keyed.
func TestAStarResumeRetargetBoundedReview(t *testing.T) {
	l, err := NewLattice(160, 160, 160, false)
	require.NoError(t, err)
	// A shell round the goal: the search floods the lattice.
	gx, gy, gz := int32(150), int32(150), int32(150)
	for dz := int32(-2); dz <= 2; dz++ {
		for dy := int32(-2); dy <= 2; dy++ {
			for dx := int32(-2); dx <= 2; dx++ {
				if max(abs(dx), abs(dy), abs(dz)) == 2 {
					l.SetBlocked(l.ID(gx+dx, gy+dy, gz+dz), true)
				}
			}
		}
	}
	a := NewAStar(l)
	from, goal := l.ID(80, 80, 80), l.ID(gx, gy, gz)
	_, err = a.Plan(&expiring{Context: context.Background(), left: 1500}, from, goal, nil)
	require.ErrorIs(t, err, ErrTimeout)
	before := slices.Clone(a.cellOpen.items)
	require.Greater(t, len(before), 10000)

	// The robot moved; the context has already ended.
	res, err := a.Resume(&expiring{Context: context.Background(), left: 0}, l.ID(20, 20, 21), nil)
	require.True(t, errors.Is(err, ErrTimeout))
	require.Zero(t, res.Stats.Expansions)
	require.Equal(t, before, a.cellOpen.items, "the open list was worked on before the first deadline check")
}
