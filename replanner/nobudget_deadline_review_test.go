package replanner

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pollCtx is a caller's context whose deadline passes at its polls-th
// poll of Err: a Tick cut off after a fixed amount of work, whatever the
// machine's speed.
type pollCtx struct {
	context.Context
	polls int
}

// Deadline: the caller's ctx has one (it ends at a poll, not a time).
func (c *pollCtx) Deadline() (time.Time, bool) { return time.Now().Add(time.Hour), true }

func (c *pollCtx) Err() error {
	if c.polls--; c.polls < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestNoBudgetDeadlineGoesOnReview: without a Budget, a caller's ctx
// whose deadline cuts each Tick's search off after two deadline-check
// intervals. Output.Pending promises "the next Tick goes on with it",
// and before a5343a2 A* and the tunnel did (they searched from the goal
// and resumed whenever l.resumable). Now they search forward without a
// Budget and fresh ignores resume, so each Tick starts the search over
// and it never ends.
func TestNoBudgetDeadlineGoesOnReview(t *testing.T) {
	for _, s := range []Strategy{AStar, Tunnel} {
		t.Run(s.String(), func(t *testing.T) {
			w := bigGroundWorld(t)
			l := newLoop(t, w, Config{Strategy: s})
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			var out Output
			for ticks := 1; ticks <= 200; ticks++ {
				out = l.Tick(&pollCtx{Context: context.Background(), polls: 3})
				if out.Status != Planning {
					t.Logf("%d Ticks", ticks)
					break
				}
				require.True(t, out.Pending)
			}
			require.Equal(t, Following, out.Status, "200 Ticks of a search cut off and Pending, and it never ended")
			checkPath(t, l, out)
		})
	}
}
