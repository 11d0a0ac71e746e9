package replanner

// These tests came from a review of the planning loop (2026-11-22): each
// failed before its fix.

import (
	"context"
	"testing"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
	"github.com/stretchr/testify/require"
)

// bigGroundWorld is groundWorld at 20 m × 20 m, with a wall across x = 10 m
// from y = 0 to 18 m: too large for one deadline-check interval.
func bigGroundWorld(t testing.TB) *world {
	w := gridWorld(t, "bigground", 200, 200, 0.1, 0.3, func(cells []int8) {
		for y := range 180 {
			cells[100+y*200] = 100
		}
	})
	w.start, w.goal = vec(0.55, 0.55, 0), vec(19.55, 0.55, 0)
	return w
}

// unfinishedSearch returns a loop on bigGroundWorld whose first Tick ran
// out of its 1 ns Budget, with its world.
func unfinishedSearch(t *testing.T) (*Loop, *world) {
	w := bigGroundWorld(t)
	l := newLoop(t, w, Config{Strategy: DStarLite, Budget: 1})
	require.NoError(t, l.SetPose(w.start))
	require.NoError(t, l.SetGoal(w.goal))
	out := l.Tick(context.Background())
	require.Equal(t, Planning, out.Status)
	require.True(t, out.Pending)
	return l, w
}

// TestPendingAfterCancel: a search that ran out of time does not leave
// Pending set once the goal is cancelled: an Idle loop has nothing to
// search (cmd/navnode re-ticks at once while Pending, so it would spin).
func TestPendingAfterCancel(t *testing.T) {
	l, _ := unfinishedSearch(t)
	l.Cancel()
	out := l.Tick(context.Background())
	require.Equal(t, Idle, out.Status)
	require.False(t, out.Pending, "an idle loop has no search pending")
}

// TestPendingAfterReached: nor once the robot has reached the goal.
func TestPendingAfterReached(t *testing.T) {
	l, w := unfinishedSearch(t)
	require.NoError(t, l.SetPose(w.goal))
	for range 3 {
		out := l.Tick(context.Background())
		require.Equal(t, Reached, out.Status)
		require.False(t, out.Pending, "a reached goal has no search pending")
	}
}

// pointWorld is a free 6 m × 4 m ground grid at 0.1 m with one occupied
// cell, voxel (30, 20), inflated by a robot of the given radius.
func pointWorld(t testing.TB, radius float64) *world {
	w := gridWorld(t, "point", 60, 40, radius, radius+0.3, func(cells []int8) { cells[30+20*60] = 100 })
	w.start, w.goal = vec(0.55, 0.55, 0), vec(3.05, 2.05, 0)
	return w
}

// TestGoalToleranceRadius: a goal on an obstacle moves to the nearest
// passable voxel within GoalTolerance, also when that voxel is a diagonal
// neighbour (0.141 m within 0.15 m) or exactly as far as the tolerance in
// decimal but not in binary (0.3 m at 0.1 m voxels).
func TestGoalToleranceRadius(t *testing.T) {
	for _, c := range []struct {
		name             string
		robotRadius, tol float64
	}{
		{"diagonal at 0.141 m, tolerance 0.15 m", 0.1, 0.15},
		{"diagonal at 0.283 m, tolerance 0.3 m", 0.25, 0.3},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := pointWorld(t, c.robotRadius)
			l := newLoop(t, w, Config{GoalTolerance: c.tol})
			// The nearest passable voxel by brute force, as the doc defines it.
			gk, _ := l.frame.KeyOf(l.project(w.goal))
			best := -1.0
			for n := range l.g.NumNodes() {
				if l.g.Passable(planners.NodeID(n)) {
					d := dist(centre(l, l.g.key(planners.NodeID(n))), centre(l, gk))
					if best < 0 || d < best {
						best = d
					}
				}
			}
			require.False(t, l.g.Passable(l.g.id(gk)), "the goal voxel is blocked")
			require.LessOrEqual(t, best, c.tol, "a passable voxel %.4f m from the goal, within the tolerance", best)
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			out := l.Tick(context.Background())
			require.Equal(t, Following, out.Status, "nearest passable voxel is %.4f m away, tolerance %v m", best, c.tol)
		})
	}
}

// checkSegments samples every published segment densely, with tiny
// offsets to catch corners grazed, and requires each voxel touched to be
// passable (cost ≤ MaxCost, or Unknown with UnknownIsFree) and inside the
// lattice's box.
func checkSegments(t *testing.T, l *Loop, out Output, what string) {
	t.Helper()
	const eps = 1e-7
	for i := 1; i < len(out.Path); i++ {
		a, b := out.Path[i-1], out.Path[i]
		for s := 0; s <= 4000; s++ {
			p := a.Add(b.Sub(a).Mul(float64(s) / 4000))
			for _, ox := range []float64{-eps, eps} {
				for _, oy := range []float64{-eps, eps} {
					for _, oz := range []float64{-eps, eps} {
						q := p.Add(vec(ox, oy, oz))
						if l.cfg.Mode == Ground {
							q.Z = p.Z
						}
						k, ok := l.frame.KeyOf(q)
						require.True(t, ok)
						require.True(t, costPassable(l, l.m.Cost(k)), "%s: segment %d %v→%v touches voxel %v of cost %d", what, i, a, b, k, l.m.Cost(k))
						require.NotEqual(t, planners.None, l.g.id(k), "%s: segment %d leaves the volume at %v", what, i, k)
					}
				}
			}
		}
	}
}

// TestSmoothKeepsCorners: the published path does not pass through the
// corner of a blocked voxel (a diagonal step past it, which the lattice's
// no-corner-cutting rule forbids): a 6 m × 4 m free ground grid with one
// unknown (blocked) cell, voxel (21, 33); the robot at (3.45, 3.15), the
// goal at (1.45, 3.55). The straight segment between them crosses the
// corner (2.2, 3.4) shared by voxels (21,33), (22,33), (21,34), (22,34).
// Line of sight saw only one of the voxels beside the corner.
func TestSmoothKeepsCorners(t *testing.T) {
	w := gridWorld(t, "corner", 60, 40, 0.1, 0, func(cells []int8) { cells[21+33*60] = -1 })
	l := newLoop(t, w, Config{})
	require.Equal(t, voxel.Unknown, w.m.Cost(voxel.Key{X: 21, Y: 33}))
	// the centres of voxels (34, 31) and (14, 35), as the loop computes them
	require.NoError(t, l.SetPose(centre(l, voxel.Key{X: 34, Y: 31})))
	require.NoError(t, l.SetGoal(centre(l, voxel.Key{X: 14, Y: 35})))
	out := l.Tick(context.Background())
	require.Equal(t, Following, out.Status)
	t.Logf("path %v", out.Path)
	checkSegments(t, l, out, "corner")
}

// TestSmoothThroughUnknown: with UnknownIsFree, a path through voxels
// nothing has observed is shortened as one through free voxels is. A
// review found every corner of such a path kept (a staircase): line of
// sight asked the map, where an Unknown voxel costs more than MaxCost.
// A 6 m × 4 m ground grid all unknown but for a known free band and one
// occupied cell between the robot and the goal.
func TestSmoothThroughUnknown(t *testing.T) {
	w := gridWorld(t, "unknown", 60, 40, 0.1, 0, func(cells []int8) {
		for i := range cells {
			cells[i] = -1
		}
		for x := range 60 {
			cells[x+20*60] = 0 // a known free row across the middle
		}
		cells[45+30*60] = 100
	})
	l := newLoop(t, w, Config{UnknownIsFree: true})
	require.NoError(t, l.SetPose(centre(l, voxel.Key{X: 5, Y: 5})))
	require.NoError(t, l.SetGoal(centre(l, voxel.Key{X: 35, Y: 25})))
	out := l.Tick(context.Background())
	require.Equal(t, Following, out.Status)
	require.Len(t, out.Path, 2, "a straight run through unknown space: %v", out.Path)
	checkSegments(t, l, out, "unknown")

	// Round the occupied cell: a corner or two, each segment clear.
	require.NoError(t, l.SetGoal(centre(l, voxel.Key{X: 55, Y: 35})))
	out = l.Tick(context.Background())
	require.Equal(t, Following, out.Status)
	require.LessOrEqual(t, len(out.Path), 4, "%v", out.Path)
	checkSegments(t, l, out, "round the cell")
}

// TestNoDetourUnderBudget: RepairBudget is for D* Lite without a Budget.
// Under a Budget the Tick after a wall blocks the path is the same with
// it as without it: no detour searched after the Budget is spent.
func TestNoDetourUnderBudget(t *testing.T) {
	run := func(repair time.Duration) Output {
		w := gridWorld(t, "open", 500, 500, 0.1, 0.3, func([]int8) {})
		l := newLoop(t, w, Config{Strategy: DStarLite, Budget: 1, RepairBudget: repair})
		require.NoError(t, l.SetPose(vec(20.05, 25.05, 0)))
		require.NoError(t, l.SetGoal(vec(30.05, 25.05, 0)))
		out := settle(t, l)
		require.Equal(t, Following, out.Status)
		// A wall across the path, x = 25 m, y from 1 m to 49 m.
		putBox(t, l, "wall", vec(25.05, 25, 0.2), vec(0.1, 48, 0.4))
		return l.Tick(context.Background())
	}
	plain, with := run(0), run(time.Hour)
	require.Equal(t, Planning, plain.Status, "the Budget runs out before the repair ends")
	require.Equal(t, plain.Status, with.Status)
	require.Equal(t, plain.Epsilon, with.Epsilon, "no detour (ε +Inf)")
	require.Equal(t, plain.Stats.Expansions, with.Stats.Expansions)
}
