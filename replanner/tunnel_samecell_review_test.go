package replanner

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTunnelSameCellReviewEpsilon: a goal in the robot's own voxel (not
// yet Reached: ReachedTolerance below the offset) gives a one-voxel path
// of cost 0. The tunnel reports it with Epsilon +Inf, so the bound
// RawCost ≤ Epsilon·optimal reads 0 ≤ Inf·0 = NaN; checkPath (and so
// checkStatus in TestRandomEvents, e.g. randomEvents(ground, Tunnel,
// seed 101)) fails on it. A one-voxel path is optimal: ε should be 1.
func TestTunnelSameCellReviewEpsilon(t *testing.T) {
	for _, mk := range worlds {
		w := mk(t)
		t.Run(w.name, func(t *testing.T) {
			l := newLoop(t, w, Config{Strategy: Tunnel, ReachedTolerance: 1e-6})
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.start.Add(vec(0.02, 0.02, 0))))
			out := l.Tick(context.Background())
			require.Equal(t, Following, out.Status)
			require.Len(t, out.Raw, 1)
			require.False(t, math.IsNaN(out.RawCost-out.Epsilon*out.RawCost) || math.IsInf(out.Epsilon, 1),
				"a one-voxel path reported with ε %v", out.Epsilon)
		})
	}
}
