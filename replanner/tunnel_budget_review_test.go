package replanner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTunnelBudgetReviewShortSearchNeverFinishes: Config.Budget promises
// that every Tick expands at least one deadline-check interval (1024
// nodes), so a search shorter than that always finishes, whatever the
// Budget; A* does. The tunnel shares one sliceContext between its coarse
// search (which takes the free first poll) and the fine search, whose
// first poll then reports the deadline: the fine search expands nothing,
// every Tick, and the loop replans forever with Pending stuck true, even
// for a goal a few voxels away.
func TestTunnelBudgetReviewShortSearchNeverFinishes(t *testing.T) {
	for _, mk := range worlds {
		w := mk(t)
		goal := w.start.Add(vec(0.3, 0, 0)) // three voxels: a handful of expansions
		for _, s := range []Strategy{AStar, Tunnel} {
			t.Run(w.name+"/"+s.String(), func(t *testing.T) {
				l := newLoop(t, w, Config{Strategy: s, Budget: 1}) // 1 ns
				require.NoError(t, l.SetPose(w.start))
				require.NoError(t, l.SetGoal(goal))
				var out Output
				for i := range 50 {
					out = l.Tick(context.Background())
					if out.Status == Following && !out.Pending {
						t.Logf("settled after %d ticks, %d expansions", i+1, out.Stats.Expansions)
						return
					}
				}
				st, _ := l.TunnelStats()
				t.Fatalf("never settled in 50 ticks: status %v, pending %v, expansions %d, tunnel %+v",
					out.Status, out.Pending, out.Stats.Expansions, st)
			})
		}
	}
}
