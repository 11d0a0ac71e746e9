package replanner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBudgetOneIntervalReview: Tick's doc promises it never runs, beyond
// one deadline-check interval (1,024 expansions), past Config.Budget, and
// budget.go says the planners poll before they expand anything. With a
// 1 ns Budget the deadline has passed when the search starts, so a slice
// should stop at its second poll, after one interval, as D* Lite's does.
// A* and DPA* once polled first after 1,024 expansions, which the slice
// context ignored, and stopped only at 2,048 (two intervals); since
// a90dfa1 they poll before expanding, as D* Lite does.
func TestBudgetOneIntervalReview(t *testing.T) {
	for _, s := range []Strategy{DStarLite, AStar, DPAStar} {
		t.Run(s.String(), func(t *testing.T) {
			w := bigGroundWorld(t)
			l := newLoop(t, w, Config{Strategy: s, Budget: 1})
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			out := l.Tick(context.Background())
			require.Equal(t, Planning, out.Status)
			require.LessOrEqual(t, out.Stats.Expansions, 1024,
				"%v: a 1 ns Budget let the search expand %d nodes", s, out.Stats.Expansions)
		})
	}
}
