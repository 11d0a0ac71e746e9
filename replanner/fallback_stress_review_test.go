package replanner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
	"github.com/stretchr/testify/require"
)

// TestDPAFallbackStressReview: DPA* under a 1 ns Budget with bursts of
// events between Ticks (so changes land while the fallback A* runs),
// Cancel, goals mid-search. Every Following path legal and within ε; a
// fallback's Tick reports NoScenario; a DPA* scenario only after Replan.
func TestDPAFallbackStressReview(t *testing.T) {
	for i, mk := range append(worlds, bigGroundWorld) {
		for seed := range 2 {
			w := mk(t)
			t.Run(fmt.Sprint(w.name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(900+seed)))
				l := newLoop(t, w, Config{Strategy: DPAStar, Budget: 1, GoalTolerance: 0.3})
				require.NoError(t, l.SetPose(w.start))
				require.NoError(t, l.SetGoal(w.goal))
				out := l.Tick(context.Background())
				shapes := map[voxel.ShapeID]bool{}
				counts := map[string]int{}
				for ev := range 300 {
					wasStale := l.stale
					n := 1 + rng.IntN(3)
					var name string
					for range n {
						switch rng.IntN(20) {
						case 0:
							require.NoError(t, l.SetGoal(randomFree(t, rng, l)))
							name += "goal,"
						case 1:
							l.Cancel()
							require.NoError(t, l.SetGoal(randomFree(t, rng, l)))
							name += "cancel,"
						default:
							name += randomEvent(t, rng, l, out, shapes) + ","
						}
					}
					out = l.Tick(context.Background())
					counts[out.Status.String()]++
					what := fmt.Sprintf("event %d (%s) stale before %v", ev, name, wasStale)
					if wasStale && out.Replanned {
						counts["fallback"]++
						require.Equal(t, planners.NoScenario, out.Scenario, what)
					}
					if out.Replanned && out.Scenario != planners.NoScenario {
						counts[out.Scenario.String()]++
					}
					if out.Status == Planning {
						require.True(t, out.Pending, what)
						continue
					}
					checkStatus(t, l, out, what)
					moveOn(t, rng, l, out)
				}
				t.Log(counts)
			})
		}
	}
}
