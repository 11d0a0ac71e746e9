package replanner

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDetour: with a RepairBudget too small for the repair, a box put on
// the path gives at once a legal path round it (a detour rejoining the old
// path, Epsilon +Inf), and later Ticks the optimal one.
func TestDetour(t *testing.T) {
	detours := 0
	for _, mk := range worlds {
		w := mk(t)
		t.Run(w.name, func(t *testing.T) {
			l := newLoop(t, w, Config{Strategy: DStarLite, RepairBudget: 1})
			out := start(t, l, w)
			mid := out.Raw[len(out.Raw)/2]
			putBox(t, l, "block", boxOn(l, mid), vec(0.3, 0.3, 0.3))
			first := l.Tick(context.Background())
			require.Equal(t, Following, first.Status, "a path while the repair goes on")
			require.True(t, first.Repair)
			checkPath(t, l, first)
			require.NotContains(t, first.Raw, mid)
			require.Equal(t, math.IsInf(first.Epsilon, 1), first.Detour)
			if first.Detour {
				detours++
				require.Equal(t, out.Raw[len(out.Raw)-1], first.Raw[len(first.Raw)-1])
			}
			// A review found the repair time reported was the last slice's
			// alone: it is the search time of every Tick the repair took.
			searched := first.Stats.Elapsed
			final := first
			for final.Pending {
				final = l.Tick(context.Background())
				checkPath(t, l, final)
				searched += final.Stats.Elapsed
			}
			require.Equal(t, 1.0, final.Epsilon)
			require.True(t, final.Replanned && final.Repair && !final.Detour)
			require.Equal(t, searched, final.RepairTime)
		})
	}
	require.Positive(t, detours, "no world needed a detour: the test tests nothing")
}
