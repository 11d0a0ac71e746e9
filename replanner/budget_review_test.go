package replanner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTrailChangeKeepsPathReview: the robot has moved 12 voxels along its
// path since the last Tick when an obstacle lands on the part of the path
// it has already driven (6 voxels behind it), in the same interval as a
// change large enough to restart the planner, so the repair runs out of
// its time. The remaining path, from the robot on, is still legal, so
// the Tick must keep it (Following, ε +Inf, Pending), as tick.go's
// "previous path is still legal and the robot on it" branch intends.
// route.refresh checks every step past the last Tick's head, including
// the ones behind the robot, finds the driven step blocked and drops the
// whole path: the robot is left with no path (Planning).
func TestTrailChangeKeepsPathReview(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"dstarlite-repair-budget", Config{Strategy: DStarLite, RepairBudget: 1}},
		{"adstar-budget-eps1", Config{Budget: 1, Epsilon0: 1}}, // uninflated: the first pass needs more than one slice
	} {
		t.Run(c.name, func(t *testing.T) {
			w := gridWorld(t, "open", 200, 200, 0.1, 0.3, func([]int8) {})
			l := newLoop(t, w, c.cfg)
			require.NoError(t, l.SetPose(vec(1.05, 1.05, 0)))
			require.NoError(t, l.SetGoal(vec(18.05, 12.05, 0)))
			out := settle(t, l)
			require.Equal(t, Following, out.Status)
			require.Equal(t, 1.0, out.Epsilon)
			// The robot drives 12 voxels on; an obstacle lands 6 voxels
			// behind it, on its trail, and a big one far from the path.
			require.NoError(t, l.SetPose(centre(l, out.Raw[12])))
			putBox(t, l, "trail", boxOn(l, out.Raw[6]), vec(0.1, 0.1, 0.3))
			putBox(t, l, "far", vec(4, 16, 0.2), vec(7.6, 7.6, 0.3))
			opt, ok := optimal(t, l, out.Raw[12], out.Raw[len(out.Raw)-1])
			require.True(t, ok)
			t.Logf("optimum from the robot %v, settled path from the old start %v", opt, out.RawCost)
			next := l.Tick(context.Background())
			require.Equal(t, Following, next.Status,
				"the remaining path from the robot is legal, but the Tick dropped it (stats %+v)", next.Stats)
			checkPath(t, l, next)
		})
	}
}
