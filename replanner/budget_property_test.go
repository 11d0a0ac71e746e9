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

// TestBudgetedRandomEventsProperty: random events (boxes on and near the
// path, deletions, the robot advancing or pushed, new goals mid-repair)
// with the budgeted strategies: AD* under a 1 ns Budget (one slice per
// Tick), D* Lite under a 1 ns RepairBudget (detours), and A*, the
// tunnel and DPA* under a 1 ns Budget (searches that go on Tick after
// Tick, and start over after a change; with DPA*, A* finishes a search
// the budget cut off, and says so: no DPA* scenario). Goals change and
// are cancelled now and then. After every Tick
// a Following path is legal on the map as it is now, starts at the voxel
// the robot plans from, and costs at most Epsilon times A*'s optimum; an
// Unreachable or Blocked is true; Planning only with Pending set.
func TestBudgetedRandomEventsProperty(t *testing.T) {
	cfgs := []struct {
		name string
		cfg  Config
	}{
		{"adstar-budget", Config{Budget: 1, GoalTolerance: 0.3}},
		{"adstar-budget-eps4", Config{Budget: 1, Epsilon0: 4, EpsilonStep: 0.7, GoalTolerance: 0.3}},
		{"dstarlite-repair", Config{Strategy: DStarLite, RepairBudget: 1, GoalTolerance: 0.3}},
		{"astar-budget", Config{Strategy: AStar, Budget: 1, GoalTolerance: 0.3}},
		{"tunnel-budget", Config{Strategy: Tunnel, Budget: 1, GoalTolerance: 0.3}},
		{"dpastar-budget", Config{Strategy: DPAStar, Budget: 1, GoalTolerance: 0.3}},
	}
	for i, mk := range append(worlds, bigGroundWorld) {
		for j, c := range cfgs {
			w := mk(t)
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(50+j)))
				l := newLoop(t, w, c.cfg)
				require.NoError(t, l.SetPose(w.start))
				require.NoError(t, l.SetGoal(w.goal))
				out := l.Tick(context.Background())
				shapes := map[voxel.ShapeID]bool{}
				counts := map[string]int{}
				for ev := range 300 {
					var name string
					switch rng.IntN(24) {
					case 0, 1:
						require.NoError(t, l.SetGoal(randomFree(t, rng, l)))
						name = "goal"
					case 2:
						l.Cancel()
						require.NoError(t, l.SetGoal(randomFree(t, rng, l)))
						name = "cancel"
					default:
						name = randomEvent(t, rng, l, out, shapes)
					}
					counts[name]++
					wasStale := l.stale
					out = l.Tick(context.Background())
					counts[out.Status.String()]++
					what := fmt.Sprintf("event %d (%s)", ev, name)
					if l.dpa != nil && wasStale && out.Replanned {
						// A* finished the search the budget cut off: planned afresh.
						require.Equal(t, planners.NoScenario, out.Scenario, what)
						counts["finished by A*"]++
					}
					if out.Status == Planning {
						require.True(t, out.Pending, "%s: Planning without a search pending", what)
						continue
					}
					if out.Status == Following {
						start, _, ok := l.resolveStart()
						require.True(t, ok, what)
						require.Equal(t, l.g.key(start), out.Raw[0], "%s: the path does not start where the robot plans from", what)
					}
					checkStatus(t, l, out, what)
					moveOn(t, rng, l, out)
				}
				t.Log(counts)
				require.Greater(t, counts["following"], 50)
			})
		}
	}
}
