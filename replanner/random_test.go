package replanner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
	"github.com/stretchr/testify/require"
)

// 300 random events (boxes put near the path and deleted, the robot
// advancing along its path or pushed off it, new goals) with D* Lite and
// with DPA*: after every Tick the path is legal and costs what A* from
// scratch finds, and every Unreachable or Blocked is true. DPA* re-plans
// in each of its three searching scenarios (the loop keeps the path
// itself in the fourth, an insertion away from it). With Tunnel the paths
// are legal but may cost more than A*'s; its mesh must equal one built
// afresh after every event.
//
// With a SwitchDelay of 1 s, events 0.1 s apart, the paths held against
// cheaper ones are legal and within their Epsilon of A*'s cost.
func TestRandomEvents(t *testing.T) {
	held := 0
	t.Cleanup(func() {
		if !t.Failed() {
			require.GreaterOrEqual(t, held, 5, "paths held against cheaper ones, over every strategy and world")
		}
	})
	for _, delay := range []time.Duration{0, time.Second} {
		for _, s := range []Strategy{DStarLite, DPAStar, Tunnel} {
			for i, mk := range worlds {
				w := mk(t)
				name := s.String() + "/" + w.name
				if delay > 0 {
					name += "/switch-delay"
				}
				t.Run(name, func(t *testing.T) { held += randomEvents(t, w, s, delay, uint64(i)) })
			}
		}
	}
}

// randomEvents runs TestRandomEvents with one strategy and SwitchDelay
// in one world, and returns how many of its paths were held.
func randomEvents(t *testing.T, w *world, s Strategy, delay time.Duration, seed uint64) int {
	rng := rand.New(rand.NewPCG(seed, 42))
	now := time.Unix(100, 0)
	l := newLoop(t, w, Config{Strategy: s, GoalTolerance: 0.3, SwitchDelay: delay,
		Now: func() time.Time { return now }})
	require.NoError(t, l.SetPose(w.start))
	require.NoError(t, l.SetGoal(w.goal))
	out := l.Tick(context.Background())
	counts := map[string]int{}
	shapes := map[voxel.ShapeID]bool{}
	for ev := range 300 {
		name := randomEvent(t, rng, l, out, shapes)
		counts[name]++
		now = now.Add(100 * time.Millisecond)
		out = l.Tick(context.Background())
		counts[out.Status.String()]++
		if out.Held {
			counts["held"]++
		}
		if out.Replanned {
			counts["replanned"]++
		}
		if out.Scenario != planners.NoScenario {
			counts[out.Scenario.String()]++
		}
		checkStatus(t, l, out, fmt.Sprintf("event %d (%s)", ev, name))
		if l.tunnel != nil {
			requireMeshInStep(t, l.tunnel, fmt.Sprintf("event %d (%s)", ev, name))
		}
		moveOn(t, rng, l, out)
	}
	t.Log(counts)
	require.Greater(t, counts["following"], 100)
	require.Greater(t, counts["replanned"], 30)
	require.Greater(t, counts["following"]-counts["replanned"], 30, "paths kept without a search")
	if s == DPAStar && delay == 0 { // held, the deletions' paths are not the search's
		for _, scen := range []planners.DPAScenario{planners.InsertionAffected, planners.DeletionUnaffected, planners.DeletionAffected} {
			require.Positive(t, counts[scen.String()], scen.String())
		}
	}
	return counts["held"]
}

// randomEvent applies one random event and names it.
func randomEvent(t *testing.T, rng *rand.Rand, l *Loop, out Output, shapes map[voxel.ShapeID]bool) string {
	jitter := func(s float64) r3.Vector {
		return vec((rng.Float64()*2-1)*s, (rng.Float64()*2-1)*s, (rng.Float64()*2-1)*s)
	}
	switch r := rng.IntN(10); {
	case r < 4:
		p := randomFree(t, rng, l)
		if len(out.Raw) > 0 {
			p = boxOn(l, out.Raw[rng.IntN(len(out.Raw))]).Add(jitter(0.4))
		}
		id := voxel.ShapeID(fmt.Sprint("box", rng.IntN(6)))
		putBox(t, l, string(id), p, vec(0.1+rng.Float64()*0.4, 0.1+rng.Float64()*0.4, 0.1+rng.Float64()*0.4))
		shapes[id] = true
		return "put"
	case r < 6:
		for id := range shapes {
			apply(t, l, voxel.DeleteShape{ID: id})
			delete(shapes, id)
			return "delete"
		}
		return "nothing"
	case r < 9:
		if len(out.Raw) > 1 {
			require.NoError(t, l.SetPose(centre(l, out.Raw[min(1+rng.IntN(6), len(out.Raw)-1)])))
			return "advance"
		}
		return "stay"
	}
	require.NoError(t, l.SetPose(l.pose.Add(jitter(0.25))))
	return "push"
}

// moveOn gives the loop work again after an end state: a new goal after
// Reached or Unreachable, a new pose after Blocked.
func moveOn(t *testing.T, rng *rand.Rand, l *Loop, out Output) {
	switch out.Status {
	case Reached, Unreachable:
		require.NoError(t, l.SetGoal(randomFree(t, rng, l)))
	case Blocked:
		require.NoError(t, l.SetPose(randomFree(t, rng, l)))
	}
}

// randomFree returns the centre of a random passable voxel of the
// Volume.
func randomFree(t *testing.T, rng *rand.Rand, l *Loop) r3.Vector {
	for range 10000 {
		n := planners.NodeID(rng.IntN(l.g.NumNodes()))
		if l.g.Passable(n) {
			return centre(l, l.g.key(n))
		}
	}
	t.Fatal("no passable voxel")
	return r3.Vector{}
}

// checkStatus checks out against the map from scratch: a Following path
// legal and optimal, an Unreachable goal really cut off, a Blocked robot
// really with no passable voxel near.
func checkStatus(t *testing.T, l *Loop, out Output, what string) {
	t.Helper()
	g := reference(t, l)
	res := l.frame.Resolution
	switch out.Status {
	case Following:
		checkPath(t, l, out)
	case Unreachable:
		gk, _ := l.frame.KeyOf(l.goal)
		goal := g.id(gk)
		if !g.Passable(goal) {
			var ok bool
			if goal, ok = g.nearest(gk, l.cfg.GoalTolerance, res); !ok {
				return // no passable voxel near the goal
			}
		}
		sk, _ := l.frame.KeyOf(l.pose)
		st := g.id(sk)
		if st == planners.None || !g.Passable(st) {
			st, _ = g.nearest(sk, l.cfg.StartTolerance, res)
		}
		_, err := planners.NewAStar(g.Lattice).Plan(context.Background(), st, goal, nil)
		require.True(t, errors.Is(err, planners.ErrNoPath), "%s: Unreachable, but A* says %v", what, err)
	case Blocked:
		sk, _ := l.frame.KeyOf(l.pose)
		_, ok := g.nearest(sk, l.cfg.StartTolerance, res)
		require.False(t, ok, "%s: Blocked with a passable voxel near", what)
	case Reached:
		require.LessOrEqual(t, dist(l.pose, out.Goal), l.cfg.ReachedTolerance)
	default:
		t.Fatalf("%s: status %v", what, out.Status)
	}
}
