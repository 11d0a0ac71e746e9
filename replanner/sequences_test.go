package replanner

import (
	"context"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/stretchr/testify/require"
)

// start sets the world's pose and goal and returns the settled output.
func start(t *testing.T, l *Loop, w *world) Output {
	t.Helper()
	require.NoError(t, l.SetPose(w.start))
	require.NoError(t, l.SetGoal(w.goal))
	out := settle(t, l)
	require.Equal(t, Following, out.Status)
	return out
}

// boxOn returns the centre of a box on raw voxel k: in ground mode raised
// so that it stands on the floor within the robot's height.
func boxOn(l *Loop, k voxel.Key) r3.Vector {
	c := l.frame.Center(k)
	if l.cfg.Mode == Ground {
		c.Z = 0.2
	}
	return c
}

// An obstacle put on the path is repaired around, optimally; removed, the
// path costs what it did.
func TestObstacleOnPath(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		l := newLoop(t, w, cfg)
		out := start(t, l, w)
		cost0 := out.RawCost
		mid := out.Raw[len(out.Raw)/2]
		putBox(t, l, "block", boxOn(l, mid), vec(0.3, 0.3, 0.3))
		first := l.Tick(context.Background())
		require.True(t, first.Replanned || first.Status == Planning || first.Epsilon > 1, "a change on the path is repaired")
		require.True(t, first.Repair || !first.Replanned, "a search after a change on the path is a repair")
		if first.Status == Following {
			checkPath(t, l, first)
		}
		out = settle(t, l)
		require.Equal(t, Following, out.Status)
		require.NotContains(t, out.Raw, mid)
		require.Greater(t, out.RawCost, cost0)

		apply(t, l, voxel.DeleteShape{ID: "block"})
		out = settle(t, l)
		require.Equal(t, Following, out.Status)
		require.True(t, relEqual(out.RawCost, cost0), "cost %v after the obstacle left, %v before", out.RawCost, cost0)
	})
}

// farPoint returns a point of the volume at least d metres from every
// voxel of raw and from the start and goal.
func farPoint(t *testing.T, l *Loop, w *world, raw []voxel.Key, d float64) r3.Vector {
	t.Helper()
	b := l.g.box
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y += 2 {
			for x := b.Min.X; x <= b.Max.X; x += 2 {
				p := boxOn(l, voxel.Key{X: x, Y: y, Z: z})
				if farFrom(l, raw, p) >= d && dist(l.project(p), l.project(w.start)) >= d && dist(l.project(p), l.project(w.goal)) >= d {
					return p
				}
			}
		}
	}
	t.Fatal("no point far from the path")
	return r3.Vector{}
}

// An obstacle away from the path changes costs but not the path: no
// search at all.
func TestObstacleAway(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		l := newLoop(t, w, cfg)
		out := start(t, l, w)
		p := farPoint(t, l, w, out.Raw, 1)
		putBox(t, l, "away", p, vec(0.3, 0.3, 0.3))
		require.True(t, l.dirty, "the box changed lattice cells (else this tests nothing)")
		next := l.Tick(context.Background())
		require.Equal(t, Following, next.Status)
		require.False(t, next.Replanned)
		require.Zero(t, next.Stats.Expansions)
		require.Equal(t, out.Raw, next.Raw)
		require.Equal(t, out.Path, next.Path)
		require.Equal(t, out.RawCost, next.RawCost)
		checkPath(t, l, next)
	})
}

// A robot moving along its path gets the path trimmed behind it, with no
// search, and Reached at the goal, which it keeps.
func TestFollowAlong(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		l := newLoop(t, w, cfg)
		out := start(t, l, w)
		raw := out.Raw
		for i := 1; i < len(raw)-2; i += 3 {
			require.NoError(t, l.SetPose(centre(l, raw[i])))
			next := l.Tick(context.Background())
			require.Equal(t, Following, next.Status, "at raw %d", i)
			require.False(t, next.Replanned)
			require.Zero(t, next.Stats.Expansions)
			require.Equal(t, raw[i:], next.Raw)
			require.Equal(t, centre(l, raw[i]), next.Path[0])
			checkPath(t, l, next)
		}
		require.NoError(t, l.SetPose(w.goal))
		require.Equal(t, Reached, l.Tick(context.Background()).Status)
		require.NoError(t, l.SetPose(w.start))
		next := l.Tick(context.Background())
		require.Equal(t, Reached, next.Status, "Reached holds until a new goal")
		require.Empty(t, next.Path)
	})
}

// A robot leaving the path's voxels gets a new path from where it is.
func TestOffPath(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		l := newLoop(t, w, cfg)
		out := start(t, l, w)
		p := offPath(t, l, out.Raw)
		require.NoError(t, l.SetPose(p))
		next := l.Tick(context.Background())
		require.True(t, next.Replanned || next.Status == Planning)
		require.False(t, next.Repair, "moving off the path changes neither the world nor the goal")
		out = settle(t, l)
		require.Equal(t, mustKey(t, l, p), out.Raw[0])
	})
}

// offPath returns the centre of a passable voxel near the start of raw,
// two voxels or more from every voxel of it.
func offPath(t *testing.T, l *Loop, raw []voxel.Key) r3.Vector {
	t.Helper()
	s := raw[0]
	for d := int32(2); d < 6; d++ {
		for _, o := range []voxel.Key{{X: -d}, {Y: -d}, {Y: d}, {X: d}, {Z: d}} {
			k := s.Add(o.X, o.Y, o.Z)
			n := l.g.id(k)
			if n == -1 || !l.g.Passable(n) || farFrom(l, raw, centre(l, k)) < 0.2-1e-9 {
				continue
			}
			return centre(l, k)
		}
	}
	t.Fatal("no passable voxel off the path")
	return r3.Vector{}
}

func mustKey(t *testing.T, l *Loop, p r3.Vector) voxel.Key {
	t.Helper()
	k, ok := l.frame.KeyOf(l.project(p))
	require.True(t, ok)
	return k
}

// A new goal mid-run starts over toward it; Cancel makes the loop Idle.
func TestGoalChangeAndCancel(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		l := newLoop(t, w, cfg)
		out := start(t, l, w)
		require.NoError(t, l.SetPose(centre(l, out.Raw[len(out.Raw)/3])))
		goal2 := vec(1.55, 2.55, 0.65)
		require.NoError(t, l.SetGoal(goal2))
		out = settle(t, l)
		require.Equal(t, Following, out.Status)
		require.Equal(t, l.project(goal2), out.Goal)
		require.Equal(t, mustKey(t, l, goal2), out.Raw[len(out.Raw)-1])

		l.Cancel()
		for range 2 {
			out = l.Tick(context.Background())
			require.Equal(t, Idle, out.Status)
			require.Empty(t, out.Path)
			require.Empty(t, out.Raw)
		}
		require.NoError(t, l.SetGoal(w.goal))
		out = settle(t, l)
		require.Equal(t, Following, out.Status)
	})
}

// wallSide returns a point in a voxel next to the world's wall: inscribed,
// so not passable.
func wallSide(w *world) r3.Vector {
	if w.mode == Ground {
		return vec(2.95, 1.05, 0)
	}
	return vec(1.95, 1.55, 0.35)
}

// A robot inside an inflated obstacle plans from the nearest passable
// voxel; with none within StartTolerance it is Blocked.
func TestStartInObstacle(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		l := newLoop(t, w, cfg)
		p := wallSide(w)
		require.False(t, l.g.Passable(l.g.id(mustKey(t, l, p))), "the test's start must be blocked")
		require.NoError(t, l.SetPose(p))
		require.NoError(t, l.SetGoal(w.goal))
		out := settle(t, l)
		require.Equal(t, Following, out.Status)
		require.NotEqual(t, mustKey(t, l, p), out.Raw[0])
		require.Equal(t, centre(l, out.Raw[0]), out.Path[0])
		require.LessOrEqual(t, dist(l.project(p), out.Path[0]), 0.2+1e-9, "the nearest passable voxel is two voxels away")
		if w.mode == Aerial {
			k, ok := l.m.NearestFree(p, 1, l.cfg.MaxCost)
			require.True(t, ok)
			require.Equal(t, k, out.Raw[0], "as voxel.Map.NearestFree chooses")
		}

		cfg.StartTolerance = 0.05
		l = newLoop(t, w, cfg)
		require.NoError(t, l.SetPose(p))
		require.NoError(t, l.SetGoal(w.goal))
		out = l.Tick(context.Background())
		require.Equal(t, Blocked, out.Status)
		require.Empty(t, out.Path)
		require.NoError(t, l.SetPose(vec(-50, -50, 30)))
		require.Equal(t, Blocked, l.Tick(context.Background()).Status, "far outside the volume")
		require.NoError(t, l.SetPose(w.start))
		require.Equal(t, Following, settle(t, l).Status)

		// Enclosed in a solid block reaching past the default 1 m.
		cfg.StartTolerance = 0
		l = newLoop(t, w, cfg)
		require.NoError(t, l.SetPose(w.start))
		require.NoError(t, l.SetGoal(w.goal))
		putBox(t, l, "block", boxOn(l, mustKey(t, l, w.start)), vec(2.4, 2.4, 2.4))
		out = l.Tick(context.Background())
		require.Equal(t, Blocked, out.Status)
		require.Empty(t, out.Path)
		apply(t, l, voxel.DeleteShape{ID: "block"})
		require.Equal(t, Following, settle(t, l).Status)
	})
}

// A goal in an inflated obstacle moves within GoalTolerance, or is
// Unreachable; a goal sealed off is Unreachable until the seal opens.
func TestGoalBlocked(t *testing.T) {
	forEach(t, func(t *testing.T, w *world, cfg Config) {
		g := wallSide(w)
		noTol := newLoop(t, w, cfg)
		require.NoError(t, noTol.SetPose(w.start))
		require.NoError(t, noTol.SetGoal(g))
		require.Equal(t, Unreachable, noTol.Tick(context.Background()).Status)

		cfg.GoalTolerance = 0.5
		l := newLoop(t, w, cfg)
		require.NoError(t, l.SetPose(w.start))
		require.NoError(t, l.SetGoal(g))
		out := settle(t, l)
		require.Equal(t, Following, out.Status)
		require.NotEqual(t, l.project(g), out.Goal)
		require.LessOrEqual(t, dist(l.project(g), out.Goal), 0.5)
		require.True(t, l.g.Passable(l.g.id(mustKey(t, l, out.Goal))))

		require.NoError(t, l.SetGoal(w.goal))
		require.Equal(t, Following, settle(t, l).Status)
		seal := w.seal(l.project(w.goal))
		for i := range seal {
			apply(t, l, voxel.PutShape{ID: voxel.ShapeID(rune('a' + i)), Solid: &seal[i]})
		}
		out = settle(t, l)
		require.Equal(t, Unreachable, out.Status)
		require.Empty(t, out.Path)
		again := l.Tick(context.Background())
		require.Equal(t, Unreachable, again.Status)
		require.Zero(t, again.Stats.Expansions, "nothing changed: no new search")

		apply(t, l, voxel.DeleteShape{ID: "b"}) // the -x side, toward the robot
		out = settle(t, l)
		require.Equal(t, Following, out.Status)
	})
}
