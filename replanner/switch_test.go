package replanner

import (
	"context"
	"testing"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/stretchr/testify/require"
)

// gapWorld is a 6 m × 4 m ground world with a wall across x = 3 m from
// y = 0 to 3.4 m but for a 0.8 m gap from y = 0.2 to 1 m: from the start
// (0.55, 0.55) to the goal (5.55, 0.55) the way through the gap is 5 m,
// the way round the wall's end about 11 m.
func gapWorld(t testing.TB) *world {
	w := gridWorld(t, "gap", 60, 40, 0.1, 0.3, func(cells []int8) {
		for y := range 34 {
			if y < 2 || y >= 10 {
				cells[30+y*60] = 100
			}
		}
	})
	w.start, w.goal = vec(0.55, 0.55, 0), vec(5.55, 0.55, 0)
	return w
}

// closeGap fills gapWorld's gap with a box, or deletes the box.
func closeGap(t testing.TB, l *Loop, closed bool) {
	t.Helper()
	if closed {
		putBox(t, l, "gap", vec(3.05, 0.6, 0.2), vec(0.3, 0.8, 0.4))
		return
	}
	apply(t, l, voxel.DeleteShape{ID: "gap"})
}

// throughGap reports whether a raw path crosses gapWorld's wall line
// through the gap.
func throughGap(raw []voxel.Key) bool {
	for _, k := range raw {
		if k.X == 30 && k.Y < 10 {
			return true
		}
	}
	return false
}

// A passage that opens and closes from one tick to the next swings the
// robot between routes without SwitchDelay, and not with it: the path
// round the wall is kept, bounded by Epsilon, while a cheaper path has
// been found for less than SwitchDelay. A passage that stays open is
// taken once SwitchDelay has passed, and a change across the path is
// answered at once.
func TestSwitchDelay(t *testing.T) {
	for _, s := range strategies {
		if s.cfg.Budget > 0 || s.cfg.RepairBudget > 0 {
			continue // their searches take several Ticks: TestRandomEvents runs them held
		}
		t.Run(s.name, func(t *testing.T) {
			require.Greater(t, flicker(t, s.cfg, 0), 40, "without a delay the robot swings from route to route")
			require.Zero(t, flicker(t, s.cfg, time.Second), "with a delay it keeps its route")
		})
	}
}

// flicker runs TestSwitchDelay with one strategy and delay: it returns
// how many times the path changed route while the gap opened and closed
// at every tick, and, with a delay, checks what follows.
func flicker(t *testing.T, cfg Config, delay time.Duration) int {
	w := gapWorld(t)
	now := time.Unix(100, 0)
	cfg.SwitchDelay, cfg.Now = delay, func() time.Time { return now }
	l := newLoop(t, w, cfg)
	closeGap(t, l, true)
	out := start(t, l, w)
	require.False(t, throughGap(out.Raw))
	round := out.RawCost
	switches, through := 0, false
	tick := func() Output {
		now = now.Add(100 * time.Millisecond)
		out := l.Tick(context.Background())
		checkPath(t, l, out)
		if throughGap(out.Raw) != through {
			through = !through
			switches++
		}
		return out
	}
	for i := range 50 {
		closeGap(t, l, i%2 == 1)
		out = tick()
		if delay > 0 && i%2 == 0 {
			require.False(t, out.Replanned, "tick %d", i)
			require.True(t, out.Held, "tick %d", i)
			require.False(t, out.Pending, "tick %d: the next search is due at the loop's rate", i)
			require.Greater(t, out.Epsilon, 1.5, "tick %d: the path round is over twice the way through", i)
		}
	}
	if delay == 0 {
		return switches
	}
	// The gap opens for good: the path changes route one delay later.
	closeGap(t, l, false)
	for i := range 20 {
		out = tick()
		if time.Duration(i)*100*time.Millisecond < delay {
			require.False(t, throughGap(out.Raw), "tick %d", i)
			require.InDelta(t, round, out.RawCost, 1e-9, "tick %d: the path round the wall is kept", i)
		} else {
			require.True(t, throughGap(out.Raw), "tick %d", i)
			require.Equal(t, 1.0, out.Epsilon)
			require.False(t, out.Pending)
			require.False(t, out.Held)
			break
		}
	}
	require.True(t, through)
	// The gap closes across the path: answered at once.
	closeGap(t, l, true)
	out = tick()
	require.True(t, out.Replanned)
	require.False(t, throughGap(out.Raw))
	return switches - 2 // through the gap that stayed open, and back
}

// With SwitchDelay, a change that makes no path cheaper (a box deleted
// away from every route) is answered by keeping the path: settled, not
// held.
func TestSwitchDelayNothingCheaper(t *testing.T) {
	for _, s := range strategies {
		if s.cfg.Budget > 0 || s.cfg.RepairBudget > 0 {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			w := gapWorld(t)
			cfg := s.cfg
			cfg.SwitchDelay = time.Hour
			l := newLoop(t, w, cfg)
			putBox(t, l, "away", vec(1.5, 3.5, 0.2), vec(0.3, 0.3, 0.4))
			out := start(t, l, w)
			require.True(t, throughGap(out.Raw))
			raw := out.Raw
			apply(t, l, voxel.DeleteShape{ID: "away"})
			out = l.Tick(context.Background())
			checkPath(t, l, out)
			require.False(t, out.Replanned, "the path is kept, not replaced by the search's")
			require.False(t, out.Pending)
			require.False(t, out.Held)
			require.Equal(t, 1.0, out.Epsilon)
			require.Equal(t, raw, out.Raw)
			require.False(t, l.holding)
		})
	}
}

func TestSwitchDelayNegative(t *testing.T) {
	w := gapWorld(t)
	_, err := New(w.m, Config{Mode: Ground, Volume: w.volume, SwitchDelay: -time.Second})
	require.ErrorIs(t, err, ErrConfig)
}
