package replanner

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
	"github.com/stretchr/testify/require"
)

// TestBudgetedSearchGoesOn: under a Budget far shorter than their search
// (1 ns: one deadline-check interval per Tick), A* from scratch and the
// tunnel go on with the search Tick after Tick instead of starting over
// (and with DPA*, A* finishes a search the Budget cut off),
// so it ends: with the robot still (A*: after exactly the expansions of
// one search from the goal run in one go), with the robot moving while
// it searches, and after a change mid-search, which starts it over on
// the changed map. Every path is checked against A* from scratch.
func TestBudgetedSearchGoesOn(t *testing.T) {
	for _, s := range []Strategy{AStar, Tunnel, DPAStar} {
		t.Run(s.String(), func(t *testing.T) {
			w := bigGroundWorld(t)
			l := newLoop(t, w, Config{Strategy: s, Budget: 1})
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			out, ticks, expanded := searchOn(t, l, nil)
			checkPath(t, l, out)
			require.Greater(t, ticks, 2, "the search fits a slice: no test")
			if s == AStar {
				ref := reference(t, l)
				sk, _ := l.frame.KeyOf(w.start)
				gk, _ := l.frame.KeyOf(w.goal)
				res, err := planners.NewAStar(ref.Lattice).Plan(context.Background(), ref.id(gk), ref.id(sk), nil)
				require.NoError(t, err)
				require.Equal(t, res.Stats.Expansions, expanded, "the slices add up to one search")
			}
			t.Logf("still: %d Ticks, %d expansions", ticks, expanded)

			// The robot wanders while the search goes on.
			rng := rand.New(rand.NewPCG(4, 4))
			require.NoError(t, l.SetPose(w.goal))
			require.NoError(t, l.SetGoal(w.start))
			out, ticks, _ = searchOn(t, l, func() { wander(t, rng, l) })
			checkPath(t, l, out)
			k, _ := l.frame.KeyOf(l.pose)
			require.Equal(t, k, out.Raw[0], "the path starts where the robot is now")
			t.Logf("moving: %d Ticks", ticks)

			// A box across the gap round the wall's end, mid-search.
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			for range 3 {
				require.Equal(t, Planning, l.Tick(context.Background()).Status)
			}
			putBox(t, l, "gap", vec(10.05, 19, 0.3), vec(0.5, 2.2, 0.6))
			_, ok := optimal(t, l, mustKey(t, l, l.pose), mustKey(t, l, w.goal))
			require.False(t, ok, "the box closes the gap")
			out, _, _ = searchOn(t, l, nil)
			require.Equal(t, Unreachable, out.Status)
			apply(t, l, voxel.DeleteShape{ID: "gap"})
			out, ticks, _ = searchOn(t, l, nil)
			checkPath(t, l, out)
			t.Logf("after the change: %d Ticks", ticks)

			// A shortcut opens through the wall where the search from the
			// goal has already been: going on with it would miss it.
			require.NoError(t, l.SetGoal(w.start))
			require.NoError(t, l.SetPose(w.goal))
			for range 3 {
				require.Equal(t, Planning, l.Tick(context.Background()).Status)
			}
			apply(t, l, bigGroundGrid(20))
			out, _, _ = searchOn(t, l, nil)
			opt := checkPath(t, l, out)
			require.Less(t, opt, 200.0, "the path goes through the shortcut")
		})
	}
}

// searchOn ticks l while it is Planning, calling between each Tick
// (when not nil), and returns the first other output, the Ticks it took
// and the expansions they made.
func searchOn(t *testing.T, l *Loop, between func()) (Output, int, int) {
	t.Helper()
	expanded := 0
	for ticks := 1; ticks <= 10000; ticks++ {
		out := l.Tick(context.Background())
		expanded += out.Stats.Expansions
		if out.Status != Planning {
			return out, ticks, expanded
		}
		require.True(t, out.Pending, "Planning without a search pending")
		if between != nil {
			between()
		}
	}
	t.Fatal("the search never ends")
	return Output{}, 0, 0
}

// wander moves the robot to a random passable neighbour voxel, or keeps
// it where it is.
func wander(t *testing.T, rng *rand.Rand, l *Loop) {
	t.Helper()
	k := mustKey(t, l, l.pose)
	k.X += int32(rng.IntN(3) - 1)
	k.Y += int32(rng.IntN(3) - 1)
	if n := l.g.id(k); n != planners.None && l.g.Passable(n) {
		require.NoError(t, l.SetPose(centre(l, k)))
	}
}

// bigGroundGrid is bigGroundWorld's grid with the wall's first gap cells
// (from y = 0) open.
func bigGroundGrid(gap int) *voxel.Grid {
	g := &voxel.Grid{Width: 200, Height: 200, Resolution: 0.1, Cells: make([]int8, 200*200), ZMin: 0, ZMax: 1}
	for y := gap; y < 180; y++ {
		g.Cells[100+y*200] = 100
	}
	return g
}

// TestKeptGoalVoxelEpsilon: a robot pushed into an inflated obstacle
// whose nearest passable voxel is the goal's, on a path kept from a
// tunnel search with no bound (ε +Inf), follows the one-voxel rest of it
// with ε 1: it costs nothing. (TestRandomEvents found it about once in
// twenty runs: ε +Inf times an optimum of 0 is NaN.)
func TestKeptGoalVoxelEpsilon(t *testing.T) {
	w := aerialWorld(t)
	l := newLoop(t, w, Config{Strategy: Tunnel})
	// The last passable voxel before the wall's inflation, at y 15, z 3.
	gv := voxel.Key{X: 20, Y: 15, Z: 3}
	for !l.g.Passable(l.g.id(gv)) {
		gv.X--
	}
	putBox(t, l, "detour", vec(1.05, 1.55, 0.45), vec(0.5, 0.5, 0.5)) // no straight run, so no bound
	require.NoError(t, l.SetPose(w.start))
	require.NoError(t, l.SetGoal(centre(l, gv)))
	out := l.Tick(context.Background())
	checkPath(t, l, out)
	require.True(t, math.IsInf(out.Epsilon, 1), "the test needs a path with no bound")

	inside := centre(l, voxel.Key{X: gv.X + 1, Y: gv.Y, Z: gv.Z}).Add(vec(0.04, 0, 0))
	require.False(t, l.g.Passable(l.g.id(mustKey(t, l, inside))))
	require.NoError(t, l.SetPose(inside))
	out = l.Tick(context.Background())
	require.Equal(t, Following, out.Status)
	require.False(t, out.Replanned, "the path is kept")
	require.Equal(t, []voxel.Key{gv}, out.Raw)
	require.Equal(t, 1.0, out.Epsilon)
	checkPath(t, l, out)
}
