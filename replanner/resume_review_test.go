package replanner

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// pillarWorld is an n × n ground world at 0.1 m with a pillar every
// 5 cells: the tunnel's mesh has many small regions, so its coarse route
// search takes more than one deadline-check interval.
func pillarWorld(t testing.TB, n int) *world {
	w := gridWorld(t, "pillars", n, n, 0.05, 0.1, func(cells []int8) {
		for y := 3; y < n-3; y += 5 {
			for x := 3; x < n-3; x += 5 {
				cells[x+y*n] = 100
			}
		}
		// Serpentine walls every 25 rows, the gap at alternate ends.
		for i, y := 0, 25; y < n-5; i, y = i+1, y+25 {
			for x := range n - 10 {
				if i%2 == 1 {
					x += 10
				}
				cells[x+y*n] = 100
			}
		}
	})
	w.start, w.goal = vec(0.05, 0.05, 0), vec(float64(n)*0.1-0.05, float64(n)*0.1-0.05, 0)
	return w
}

// TestTunnelCoarseRouteCutEveryTickReview: found in review. The
// tunnel's mesh route search (centreLine) was not resumed: when it needed
// more than one deadline-check interval it was cut on every Tick and
// started over on the next, so under a 1 ns Budget the tunnel stayed
// Planning (Pending, the node re-ticking at once) forever, and each such
// Tick reported zero Stats though it spent its budget. Now the route's
// search goes on while the robot stays in its cell, and when the robot
// has moved the search takes the whole lattice; both end, robot still or
// wandering, and every Tick reports what it expanded.
func TestTunnelCoarseRouteCutEveryTickReview(t *testing.T) {
	w := pillarWorld(t, 300)
	a := newLoop(t, w, Config{Strategy: AStar, Budget: 1})
	require.NoError(t, a.SetPose(w.start))
	require.NoError(t, a.SetGoal(w.goal))
	out, ticks, _ := searchOn(t, a, nil)
	require.Equal(t, Following, out.Status)
	t.Logf("A*: %d ticks", ticks)

	ref := newLoop(t, w, Config{Strategy: Tunnel})
	require.NoError(t, ref.SetPose(w.start))
	require.NoError(t, ref.SetGoal(w.goal))
	out = ref.Tick(context.Background())
	require.Equal(t, Following, out.Status)
	ts, _ := ref.TunnelStats()
	t.Logf("unbudgeted: coarse expansions %d, regions %d, fine expansions %d", ts.CoarseNodes, ts.Regions, out.Stats.Expansions)
	require.Greater(t, ts.CoarseNodes, 1024, "the mesh route fits one interval: no test")

	for _, moving := range []bool{false, true} {
		l := newLoop(t, w, Config{Strategy: Tunnel, Budget: 1})
		require.NoError(t, l.SetPose(w.start))
		require.NoError(t, l.SetGoal(w.goal))
		rng := rand.New(rand.NewPCG(1, 2))
		for ticks := 1; ; ticks++ {
			out := l.Tick(context.Background())
			if out.Status != Planning {
				checkPath(t, l, out)
				t.Logf("robot moving %v: %d ticks", moving, ticks)
				break
			}
			require.True(t, out.Pending)
			require.Positive(t, out.Stats.Expansions, "tick %d", ticks)
			require.Less(t, ticks, 2000, "under a 1 ns Budget the tunnel's search never ends")
			if moving {
				wander(t, rng, l)
			}
		}
	}
}
