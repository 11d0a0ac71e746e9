package replanner

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestSwitchDelayADStarBudget: AD* under a Budget (what the Auto strategy
// picks with one) does not swing the robot through a gap that never stays
// open for a whole tick's 0.1 s. Each closing crosses AD*'s path and sends
// ε back up; a search above ε = 1 that finds nothing cheaper must forget
// when a cheaper path was first seen (found in review: it did not, and
// the robot went through the gap at tick 10).
func TestSwitchDelayADStarBudget(t *testing.T) {
	w := gapWorld(t)
	now := time.Unix(100, 0)
	l := newLoop(t, w, Config{Budget: 1, SwitchDelay: time.Second, // 1 ns: one deadline-check interval a Tick
		Now: func() time.Time { return now }})
	require.Equal(t, ADStar, l.Config().Strategy)
	closeGap(t, l, true)
	out := start(t, l, w)
	require.False(t, throughGap(out.Raw))
	for i := range 30 {
		closeGap(t, l, i%2 == 1) // open on even ticks, for one tick
		now = now.Add(100 * time.Millisecond)
		out = l.Tick(context.Background())
		checkPath(t, l, out)
		require.False(t, throughGap(out.Raw), "tick %d: the gap was never open for 1 s", i)
	}
}

// unknownGapWorld is gapWorld with every cell but the wall's unobserved:
// with UnknownCost 252 a search expands more than one deadline-check
// interval (1024 nodes), so a 1 ns Budget cuts it off.
func unknownGapWorld(t testing.TB) *world {
	w := gridWorld(t, "unknown-gap", 60, 40, 0.1, 0.3, func(cells []int8) {
		for i := range cells {
			cells[i] = -1
		}
		for y := range 34 {
			if y < 2 || y >= 10 {
				cells[30+y*60] = 100
			}
		}
	})
	w.start, w.goal = vec(0.55, 0.55, 0), vec(5.55, 0.55, 0)
	return w
}

// TestSwitchDelayBudget: under a Budget that cuts every search off, a
// path held against a cheaper one stays held, with a finite bound, on
// every Tick of the delay, including those whose search was cut off (the
// robot and the map stay put); a Tick whose held search finished is not
// Pending, so the node waits for its loop rate; and the robot switches
// once the delay is over. Found in review: the finished search left the
// loop stale, so every held Tick was Pending, the next one threw the
// search away, and Held and Epsilon flickered between true, 1.64 and
// false, +Inf.
func TestSwitchDelayBudget(t *testing.T) {
	for _, s := range []Strategy{AStar, DPAStar} {
		t.Run(s.String(), func(t *testing.T) {
			w := unknownGapWorld(t)
			now := time.Unix(100, 0)
			l := newLoop(t, w, Config{Strategy: s, Budget: 1, SwitchDelay: time.Second,
				UnknownIsFree: true, UnknownCost: 252, Now: func() time.Time { return now }})
			closeGap(t, l, true)
			start(t, l, w)
			closeGap(t, l, false)
			opened := now
			held, rested := 0, 0
			var out Output
			for i := 0; !throughGap(out.Raw); i++ {
				require.Less(t, i, 40, "still not through the gap 4 s after it opened")
				now = now.Add(100 * time.Millisecond)
				out = l.Tick(context.Background())
				checkPath(t, l, out)
				if throughGap(out.Raw) {
					require.GreaterOrEqual(t, now.Sub(opened), time.Second, "switched within the delay")
					break
				}
				if held > 0 {
					require.True(t, out.Held, "tick %d: held before, not now (ε %v)", i, out.Epsilon)
				}
				if out.Held {
					held++
					require.False(t, math.IsInf(out.Epsilon, 1), "tick %d: nothing moved since the hold began", i)
					if !out.Pending {
						rested++
					}
				}
			}
			require.Positive(t, held)
			require.Positive(t, rested, "no held Tick let the node rest")
		})
	}
}

// TestSwitchDelayClockBack: a clock that steps back (Config.Now on a
// simulation clock that is reset) restarts the delay rather than holding
// until the clock is back where it was (found in review: an hour here).
func TestSwitchDelayClockBack(t *testing.T) {
	w := gapWorld(t)
	now := time.Unix(10000, 0)
	l := newLoop(t, w, Config{Strategy: DStarLite, SwitchDelay: time.Second, Now: func() time.Time { return now }})
	closeGap(t, l, true)
	start(t, l, w)
	closeGap(t, l, false)
	out := l.Tick(context.Background())
	require.True(t, out.Held)
	now = now.Add(-time.Hour)
	for range 30 { // 3 s on the new clock, the gap open throughout
		now = now.Add(100 * time.Millisecond)
		out = l.Tick(context.Background())
		checkPath(t, l, out)
	}
	require.True(t, throughGap(out.Raw), "held %v", out.Held)
}
