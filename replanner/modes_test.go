package replanner

import (
	"context"
	"testing"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/stretchr/testify/require"
)

// Ground mode checks the robot's height through the costmap: a box above
// the robot does not touch the floor lattice; one at head height, clear
// of the floor voxel, does.
func TestGroundHeight(t *testing.T) {
	w := groundWorld(t)
	l := newLoop(t, w, Config{})
	out := start(t, l, w)
	mid := out.Raw[len(out.Raw)/2]
	c := l.frame.Center(mid)

	c.Z = 0.75 // 0.6 to 0.9 m: above the robot's 0.4 m
	putBox(t, l, "high", c, vec(0.3, 0.3, 0.3))
	require.False(t, l.dirty, "a box above the robot changes no floor cell")
	next := l.Tick(context.Background())
	require.False(t, next.Replanned)
	require.Equal(t, out.Raw, next.Raw)

	c.Z = 0.3 // 0.25 to 0.35 m: not in the floor voxel, but within the robot's height
	putBox(t, l, "head", c, vec(0.3, 0.3, 0.1))
	k := mid
	k.Z = 2
	require.False(t, l.m.Occupied(mid), "the floor voxel itself stays free")
	require.True(t, l.m.Occupied(k))
	next = l.Tick(context.Background())
	require.True(t, next.Replanned)
	require.NotContains(t, next.Raw, mid)
	checkPath(t, l, next)
	for _, k := range next.Raw {
		require.Equal(t, int32(0), k.Z, "ground paths stay on the floor layer")
	}
}

// Aerial mode keeps to the Volume's z range: with room above the wall the
// path flies over it within the limits; with a ceiling at the wall's top
// the goal is Unreachable.
func TestAltitudeLimits(t *testing.T) {
	w := aerialWorld(t)
	l := newLoop(t, w, Config{})
	out := start(t, l, w)
	top := int32(0)
	for _, k := range out.Raw {
		require.True(t, k.Z >= 1 && k.Z <= 8, "raw voxel %v outside the altitude limits", k)
		top = max(top, k.Z)
	}
	require.GreaterOrEqual(t, top, int32(7), "the path climbs over the wall")

	w.volume.Max.Z = 6 // z voxel 6 is inscribed above the wall: no way over
	low := newLoop(t, w, Config{})
	require.NoError(t, low.SetPose(w.start))
	require.NoError(t, low.SetGoal(w.goal))
	require.Equal(t, Unreachable, low.Tick(context.Background()).Status)
	require.ErrorIs(t, low.SetGoal(vec(1, 1, 0.75)), ErrOutside, "above the ceiling")
}

// AD* under a Budget too small for a search publishes ε-bounded paths
// over several Ticks, ε falling to 1.
func TestADStarBudget(t *testing.T) {
	for _, mk := range worlds {
		w := mk(t)
		t.Run(w.name, func(t *testing.T) {
			l := newLoop(t, w, Config{Budget: time.Nanosecond, Epsilon0: 3, EpsilonStep: 0.5})
			require.Equal(t, ADStar, l.Config().Strategy)
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			var eps []float64
			for range 50 {
				out := l.Tick(context.Background())
				if out.Status == Planning {
					continue
				}
				require.Equal(t, Following, out.Status)
				require.True(t, out.Replanned)
				checkPath(t, l, out) // cost ≤ ε·optimal, = optimal at ε = 1
				eps = append(eps, out.Epsilon)
				if out.Epsilon == 1 {
					break
				}
			}
			require.GreaterOrEqual(t, len(eps), 3, "ε fell over several Ticks: %v", eps)
			require.Equal(t, 1.0, eps[len(eps)-1])
			for i := 1; i < len(eps); i++ {
				require.Less(t, eps[i], eps[i-1], "ε falls: %v", eps)
			}
			out := l.Tick(context.Background())
			require.False(t, out.Replanned, "at ε = 1 nothing is left to improve")
		})
	}
}

// A bulk change (a new static map, reported as a Region) is read back
// from the map and repaired from.
func TestRegions(t *testing.T) {
	for _, s := range strategies {
		w := groundWorld(t)
		t.Run(s.name, func(t *testing.T) {
			l := newLoop(t, w, s.cfg)
			out := start(t, l, w)
			// A grid of another geometry (one column wider) comes as a
			// region; its wall grows to 3.4 m.
			g := &voxel.Grid{Width: 61, Height: 40, Resolution: 0.1, Cells: make([]int8, 61*40), ZMin: 0, ZMax: 1}
			for y := range 34 {
				g.Cells[30+y*61] = 100
			}
			cs := apply(t, l, g)
			require.NotEmpty(t, cs.Regions)
			next := settle(t, l)
			require.Greater(t, next.RawCost, out.RawCost)
		})
	}
}

// The String methods name every value and say when one is not.
func TestStrings(t *testing.T) {
	names := map[string]string{
		Idle.String(): "idle", Planning.String(): "planning", Following.String(): "following",
		Blocked.String(): "blocked", Unreachable.String(): "unreachable", Reached.String(): "reached",
		Aerial.String(): "aerial", Ground.String(): "ground",
		Auto.String(): "auto", DStarLite.String(): "D* Lite", ADStar.String(): "AD*", AStar.String(): "A*", DPAStar.String(): "DPA*",
	}
	for got, want := range names {
		require.Equal(t, want, got)
	}
	require.Equal(t, "Status(9)", Status(9).String())
	require.Equal(t, "Mode(-1)", Mode(-1).String())
	require.Equal(t, "Strategy(7)", Strategy(7).String())
}
