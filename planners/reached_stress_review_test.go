package planners

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestADStarReachedStressReview: several rounds per case, as the tunnel
// does: unreached nodes leave untold, reached ones leave told (with their
// neighbours), earlier removed ones come back told, and plans run at
// falling and reset ε, including failed plans (no path).
func TestADStarReachedStressReview(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	ctx := context.Background()
	checked := 0
	for i := range 800 {
		planar := i%2 == 0
		d := 1 + rng.IntN(5)
		if planar {
			d = 1
		}
		l := changingLattice(t, rng, 3+rng.IntN(12), 3+rng.IntN(12), d, planar, rng.Float64()*0.3, i%3 == 0)
		start, goal := randomFree(rng, l), randomFree(rng, l)
		bits := fullMask(l)
		ad := NewADStar(NewMasked(l, bits))
		ad.EpsilonStep, ad.LargeChange = 0.5, 1
		ad.Epsilon0, ad.EpsilonMin = 2.5, 2.5
		var changed []NodeID
		for round := range 6 {
			r, err := ad.Plan(ctx, start, goal, nil)
			if ad.EpsilonMin == 1 {
				want, werr := NewAStar(NewMasked(l, bits)).Plan(ctx, start, goal, nil)
				if werr != nil {
					require.True(t, errors.Is(err, ErrNoPath), "case %d round %d: A* %v, AD* %v", i, round, werr, err)
				} else {
					require.NoError(t, err, "case %d round %d", i, round)
					require.InDelta(t, want.Cost, r.Cost, 1e-9, "case %d round %d", i, round)
					checked++
				}
			}
			changed = changed[:0]
			for v := range NodeID(l.NumNodes()) {
				if v == start || v == goal {
					continue
				}
				in := inSet(bits, v)
				switch {
				case in && !ad.Reached(v) && rng.IntN(3) == 0:
					bits[v>>6] &^= 1 << (v & 63) // untold
				case in && ad.Reached(v) && rng.IntN(8) == 0:
					bits[v>>6] &^= 1 << (v & 63)
					changed = l.Around(v, changed)
				case !in && rng.IntN(3) == 0:
					bits[v>>6] |= 1 << (v & 63)
					changed = l.Around(v, changed)
				}
			}
			ad.Epsilon0 = 2.5 - 0.5*float64(rng.IntN(4))
			ad.EpsilonMin = max(1, ad.Epsilon0-0.5*float64(rng.IntN(3)))
			if round%2 == 1 {
				ad.EpsilonMin = 1
			}
			require.NoError(t, ad.Update(append(changed, goal)))
		}
	}
	t.Log("checked", checked)
	require.Greater(t, checked, 500)
}
