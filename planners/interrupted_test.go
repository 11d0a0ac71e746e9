package planners

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// expiring is a context whose deadline passes after its Err has been
// asked a number of times: a search it bounds stops after that many
// blocks of checkEvery steps, wherever it is.
type expiring struct {
	context.Context
	left int
}

func (c *expiring) Err() error {
	if c.left--; c.left < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestIncrementalInterrupted: a search cut off by its deadline midway,
// then told of more changes and run again to the end, still finds A*'s
// cost, for every incremental planner, with the robot moving and goals
// changing between the two searches (the replanner's budgeted repairs do
// exactly this).
func TestIncrementalInterrupted(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 11))
	cut := 0
	for run := range 4 {
		l := changingLattice(t, rng, 160, 120, 6, false, 0.15, run%2 == 1)
		a, ps := NewAStar(l), incrementalPlanners(l)
		w := &world{l: l, rng: rng}
		start, goal := randomFree(rng, l), randomFree(rng, l)
		fixedStart := start // LPA*'s
		path := []NodeID{start}
		for i := range 30 {
			what := fmt.Sprintf("run %d change %d", run, i)
			for half := range 2 {
				if half == 1 {
					path = path[:0] // the robot stays: its cell is spared
				}
				start, goal, _ = w.step(path, start, goal, fixedStart)
				for name, p := range ps {
					require.NoError(t, p.Update(w.changed), "%s %s", name, what)
				}
				if half == 1 {
					break
				}
				for name, p := range ps {
					from := start
					if name == "LPAStar" {
						from = fixedStart
					}
					_, err := p.Plan(&expiring{Context: context.Background(), left: 1 + rng.IntN(2)}, from, goal, nil)
					if errors.Is(err, ErrTimeout) {
						cut++
					} else if err != nil {
						require.ErrorIs(t, err, ErrNoPath, "%s %s", name, what)
					}
				}
			}
			path = requireSameAsAStar(t, "DStarLite", ps["DStarLite"], a, l, start, goal, what)
			requireSameAsAStar(t, "DStarLite-cold", ps["DStarLite-cold"], a, l, start, goal, what)
			requireSameAsAStar(t, "LPAStar", ps["LPAStar"], a, l, fixedStart, goal, what)
			requireSameAsAStar(t, "ADStar", ps["ADStar"], a, l, start, goal, what)
			if path == nil {
				path = []NodeID{start}
			}
		}
	}
	t.Logf("%d searches cut off midway", cut)
	require.Greater(t, cut, 50, "too few searches were cut off to test anything")
}
