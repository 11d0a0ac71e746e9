package replanner

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/stretchr/testify/require"
)

// Bad poses and goals are refused with an error and change nothing.
func TestBadInput(t *testing.T) {
	for _, mk := range worlds {
		w := mk(t)
		t.Run(w.name, func(t *testing.T) {
			l := newLoop(t, w, Config{})
			before := start(t, l, w)
			nan, inf := math.NaN(), math.Inf(1)
			for _, p := range []r3.Vector{vec(nan, 1, 1), vec(1, nan, 1), vec(1, 1, nan), vec(inf, 1, 1), vec(1, -inf, 1)} {
				require.ErrorIs(t, l.SetPose(p), ErrInput)
				require.ErrorIs(t, l.SetGoal(p), ErrInput)
			}
			for _, p := range []r3.Vector{vec(-1, 1, 0.5), vec(1, 100, 0.5), vec(1e300, 1, 0.5), vec(-2e9, -2e9, -2e9)} {
				require.ErrorIs(t, l.SetGoal(p), ErrOutside)
			}
			after := l.Tick(context.Background())
			require.False(t, after.Replanned)
			require.Equal(t, before.Raw, after.Raw)
			require.Equal(t, before.Path, after.Path)
			require.Equal(t, before.Goal, after.Goal)
		})
	}
}

// Change sets that change nothing inside the Volume are no reason to
// search: nil, empty, voxels far outside (even at the edge of the key
// space), voxels above the floor layer in ground mode, and a real box
// put outside the Volume.
func TestIgnoredChanges(t *testing.T) {
	for _, mk := range worlds {
		w := mk(t)
		t.Run(w.name, func(t *testing.T) {
			l := newLoop(t, w, Config{})
			before := start(t, l, w)
			far := []voxel.Change{
				{Voxel: voxel.Key{X: math.MaxInt32, Y: math.MaxInt32, Z: math.MaxInt32}, Old: 0, New: voxel.Lethal},
				{Voxel: voxel.Key{X: math.MinInt32, Y: 0, Z: 0}, Old: 0, New: voxel.Lethal},
				{Voxel: voxel.Key{X: -5, Y: -5, Z: -5}, Old: voxel.Lethal, New: 0},
				{Voxel: voxel.Key{X: 5, Y: 5, Z: 12}, Old: 0, New: voxel.Lethal}, // above both volumes
			}
			l.Changed(nil)
			l.Changed(&voxel.ChangeSet{})
			l.Changed(&voxel.ChangeSet{Rose: far[:2], Fell: far[2:3]})
			l.Changed(&voxel.ChangeSet{Rose: far[3:], Regions: []voxel.Box{{Min: voxel.Key{X: 100, Y: 100, Z: 100}, Max: voxel.Key{X: 90, Y: 90, Z: 90}},
				{Min: voxel.Key{X: -40, Y: -40, Z: -40}, Max: voxel.Key{X: -30, Y: -30, Z: -30}}}})
			// A real box outside the volume: above the robot (ground), above the ceiling (aerial).
			putBox(t, l, "outside", vec(1.5, 1.5, 1.35), vec(0.5, 0.5, 0.1))
			require.False(t, l.dirty)
			after := l.Tick(context.Background())
			require.False(t, after.Replanned)
			require.Zero(t, after.Stats.Expansions)
			require.Equal(t, before.Raw, after.Raw)
		})
	}
}

// A change set listing costs that disagree with the map is read from the
// map: the lattice follows the map, not the list.
func TestChangesReadFromMap(t *testing.T) {
	w := groundWorld(t)
	l := newLoop(t, w, Config{})
	out := start(t, l, w)
	k := out.Raw[len(out.Raw)/2]
	l.Changed(&voxel.ChangeSet{Rose: []voxel.Change{{Voxel: k, Old: 0, New: voxel.Lethal}}})
	next := l.Tick(context.Background())
	require.Equal(t, out.Raw, next.Raw, "the map did not change, so the lattice does not")
	checkPath(t, l, next)
}

// New refuses what it cannot plan with.
func TestNewErrors(t *testing.T) {
	w := aerialWorld(t)
	ground := groundWorld(t)
	sphere, err := voxel.New(voxel.Config{Resolution: 0.1})
	require.NoError(t, err)
	good := Config{Volume: w.volume}
	for name, c := range map[string]struct {
		m   *voxel.Map
		cfg func(*Config)
	}{
		"nil map":                   {nil, func(*Config) {}},
		"empty volume":              {w.m, func(c *Config) { c.Volume = voxel.Box{Min: voxel.Key{X: 5}, Max: voxel.Key{X: 4}} }},
		"huge volume":               {w.m, func(c *Config) { c.Volume = voxel.Box{Max: voxel.Key{X: 1 << 12, Y: 1 << 12, Z: 1 << 12}} }},
		"volume off map":            {w.m, func(c *Config) { c.Volume = voxel.Box{Max: voxel.Key{X: math.MaxInt32, Y: 1, Z: 1}} }},
		"mode":                      {w.m, func(c *Config) { c.Mode = 7 }},
		"strategy":                  {w.m, func(c *Config) { c.Strategy = -1 }},
		"budget":                    {w.m, func(c *Config) { c.Budget = -time.Second }},
		"epsilon":                   {w.m, func(c *Config) { c.Epsilon0 = 0.5 }},
		"epsilon NaN":               {w.m, func(c *Config) { c.Epsilon0 = math.NaN() }},
		"epsilon step":              {w.m, func(c *Config) { c.EpsilonStep = -1 }},
		"max cost":                  {w.m, func(c *Config) { c.MaxCost = voxel.Unknown }},
		"cost weight":               {w.m, func(c *Config) { c.CostWeight = math.Inf(1) }},
		"unknown cost":              {w.m, func(c *Config) { c.UnknownCost = 253 }},
		"unknown cost NaN":          {w.m, func(c *Config) { c.UnknownCost = math.NaN() }},
		"goal tolerance":            {w.m, func(c *Config) { c.GoalTolerance = math.NaN() }},
		"start tolerance":           {w.m, func(c *Config) { c.StartTolerance = -1 }},
		"goal tolerance in voxels":  {w.m, func(c *Config) { c.GoalTolerance = 25.1 }}, // 251 voxels of 0.1 m
		"start tolerance in voxels": {w.m, func(c *Config) { c.StartTolerance = 25.1 }},
		"reached":                   {w.m, func(c *Config) { c.ReachedTolerance = math.Inf(1) }},
		"ground sphere":             {sphere, func(c *Config) { c.Mode = Ground }},
	} {
		cfg := good
		c.cfg(&cfg)
		_, err := New(c.m, cfg)
		require.ErrorIs(t, err, ErrConfig, name)
	}
	l, err := New(ground.m, Config{Mode: Ground, Volume: ground.volume})
	require.NoError(t, err)
	require.Equal(t, DStarLite, l.Config().Strategy)
	require.Equal(t, voxel.Cost(252), l.Config().MaxCost)
	require.Equal(t, 0.1, l.Config().ReachedTolerance)
	require.Equal(t, 1.0, l.Config().StartTolerance)
	require.Equal(t, 60*40, l.g.NumNodes(), "ground: one layer")
}

// A Tick with no pose, or with a context already ended, neither blocks
// nor publishes a stale or partial path.
func TestTickEdges(t *testing.T) {
	w := aerialWorld(t)
	l := newLoop(t, w, Config{})
	require.Equal(t, Idle, l.Tick(context.Background()).Status)
	require.NoError(t, l.SetGoal(w.goal))
	require.Equal(t, Planning, l.Tick(context.Background()).Status, "no pose yet")
	require.NoError(t, l.SetPose(w.start))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := l.Tick(ctx)
	require.Equal(t, Planning, out.Status)
	require.Empty(t, out.Path)
	require.Equal(t, Following, settle(t, l).Status, "the next Tick resumes")

	//lint:ignore SA1012 a nil context is hostile input the loop must survive
	out = l.Tick(nil) //nolint:staticcheck
	require.Equal(t, Following, out.Status)
}
