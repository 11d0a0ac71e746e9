package replanner

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
	"github.com/stretchr/testify/require"
)

func vec(x, y, z float64) r3.Vector { return r3.Vector{X: x, Y: y, Z: z} }

// world is a test map with where the robot starts and where it goes.
type world struct {
	name        string
	m           *voxel.Map
	mode        Mode
	volume      voxel.Box
	start, goal r3.Vector
	// seal lists boxes (centre, size) that together enclose goal.
	seal func(goal r3.Vector) []voxel.BoxShape
}

// gridWorld is a ground world: a w × h occupancy grid at 0.1 m, extruded
// over [0, 1) m, its cells (x + y·w) set by mark, and a robot that is a
// cylinder of the given radius, 0.4 m tall, inflated to inflation. The
// volume is the grid's columns, 1 m tall; start and goal are the caller's.
func gridWorld(t testing.TB, name string, w, h int, radius, inflation float64, mark func(cells []int8)) *world {
	m, err := voxel.New(voxel.Config{Resolution: 0.1, Robot: voxel.Robot{
		Shape: voxel.Cylinder, Radius: radius, Height: 0.4, InflationRadius: inflation}})
	require.NoError(t, err)
	g := &voxel.Grid{Width: w, Height: h, Resolution: 0.1, Cells: make([]int8, w*h), ZMin: 0, ZMax: 1}
	mark(g.Cells)
	_, err = m.Apply(g)
	require.NoError(t, err)
	return &world{name: name, m: m, mode: Ground, volume: voxel.Box{Max: voxel.Key{X: int32(w - 1), Y: int32(h - 1), Z: 9}}}
}

// groundWorld is a 6 m × 4 m gridWorld with a wall across x = 3 m from
// y = 0 to 2.6 m: the path from (0.5, 0.5) to (5.5, 0.5) goes around its
// end. The robot's radius is 0.1 m, inflated to 0.3 m.
func groundWorld(t testing.TB) *world {
	w := gridWorld(t, "ground", 60, 40, 0.1, 0.3, func(cells []int8) {
		for y := range 26 {
			cells[30+y*60] = 100
		}
	})
	w.start, w.goal = vec(0.55, 0.55, 0), vec(5.55, 0.55, 0)
	w.seal = func(c r3.Vector) []voxel.BoxShape {
		var out []voxel.BoxShape
		for _, d := range []r3.Vector{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
			size := vec(0.1, 1.1, 0.6)
			if d.Y != 0 {
				size = vec(1.1, 0.1, 0.6)
			}
			p := c.Add(d.Mul(0.5))
			p.Z = 0.3
			out = append(out, voxel.BoxShape{Pose: voxel.Pose{Position: p, Orientation: voxel.Identity}, Size: size})
		}
		return out
	}
	return w
}

// aerialWorld is 4 m × 3 m × 1.5 m at 0.1 m: a floor at z = 0 and a wall
// across x = 2 m, 0.6 m high, that the drone must fly over. The Volume
// (the altitude limits) is z voxels 1 to 8. The robot is a sphere of
// radius 0.1 m inflated to 0.3 m.
func aerialWorld(t testing.TB) *world {
	m, err := voxel.New(voxel.Config{Resolution: 0.1, Robot: voxel.Robot{Radius: 0.1, InflationRadius: 0.3}})
	require.NoError(t, err)
	s := &voxel.StaticVoxels{Box: voxel.Box{Max: voxel.Key{X: 39, Y: 29, Z: 14}}}
	for x := int32(0); x < 40; x++ {
		for y := int32(0); y < 30; y++ {
			s.Blocked = append(s.Blocked, voxel.Key{X: x, Y: y})
		}
	}
	for y := int32(0); y < 30; y++ {
		for z := int32(1); z < 6; z++ {
			s.Blocked = append(s.Blocked, voxel.Key{X: 20, Y: y, Z: z})
		}
	}
	_, err = m.Apply(s)
	require.NoError(t, err)
	return &world{name: "aerial", m: m, mode: Aerial,
		volume: voxel.Box{Min: voxel.Key{Z: 1}, Max: voxel.Key{X: 39, Y: 29, Z: 8}},
		start:  vec(0.55, 1.55, 0.45), goal: vec(3.55, 1.55, 0.45),
		seal: func(c r3.Vector) []voxel.BoxShape {
			var out []voxel.BoxShape
			for _, d := range []r3.Vector{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}} {
				size := vec(1.1, 1.1, 1.1)
				switch {
				case d.X != 0:
					size.X = 0.1
				case d.Y != 0:
					size.Y = 0.1
				default:
					size.Z = 0.1
				}
				out = append(out, voxel.BoxShape{Pose: voxel.Pose{Position: c.Add(d.Mul(0.5)), Orientation: voxel.Identity}, Size: size})
			}
			return out
		}}
}

// costPassable reports whether a path may cross a voxel of cost c, by
// l's configuration: cost ≤ MaxCost, or Unknown with UnknownIsFree.
func costPassable(l *Loop, c voxel.Cost) bool {
	return c <= l.cfg.MaxCost || c == voxel.Unknown && l.cfg.UnknownIsFree
}

// segmentClear reports whether every voxel the segment from a to b
// touches is one a path may cross, read from the map: in the Volume, and
// costPassable.
func segmentClear(l *Loop, a, b r3.Vector) bool {
	clear := true
	l.frame.Supercover(a, b, func(k voxel.Key) bool {
		clear = l.g.id(k) != planners.None && costPassable(l, l.m.Cost(k))
		return clear
	})
	return clear
}

func newLoop(t testing.TB, w *world, cfg Config) *Loop {
	t.Helper()
	cfg.Mode, cfg.Volume = w.mode, w.volume
	l, err := New(w.m, cfg)
	require.NoError(t, err)
	return l
}

// apply applies u to the map and hands the change set to the loop.
func apply(t testing.TB, l *Loop, u voxel.Update) *voxel.ChangeSet {
	t.Helper()
	cs, err := l.m.Apply(u)
	require.NoError(t, err)
	l.Changed(cs)
	return cs
}

func putBox(t testing.TB, l *Loop, id string, centre, size r3.Vector) {
	t.Helper()
	apply(t, l, voxel.PutShape{ID: voxel.ShapeID(id), Solid: &voxel.BoxShape{
		Pose: voxel.Pose{Position: centre, Orientation: voxel.Identity}, Size: size}})
}

// reference builds a lattice from scratch from the map as it is now, as
// New does, for A* to check against.
func reference(t testing.TB, l *Loop) *lattice {
	t.Helper()
	g, err := newLattice(l.m, l.g.box, &l.cfg)
	require.NoError(t, err)
	return g
}

// optimal returns A*'s cost from a to b on a fresh lattice, and false
// when there is no path.
func optimal(t testing.TB, l *Loop, a, b voxel.Key) (float64, bool) {
	t.Helper()
	g := reference(t, l)
	res, err := planners.NewAStar(g.Lattice).Plan(context.Background(), g.id(a), g.id(b), nil)
	if errors.Is(err, planners.ErrNoPath) {
		return 0, false
	}
	require.NoError(t, err)
	return res.Cost, true
}

func relEqual(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkPath checks a Following output: every raw step a legal move on a
// lattice built afresh from the map, RawCost the sum of their costs, every
// smoothed segment in line of sight on the map, the ends where they
// belong; and RawCost at most Epsilon times A*'s optimum (equal when
// Epsilon is 1). It returns the optimum.
func checkPath(t testing.TB, l *Loop, out Output) float64 {
	t.Helper()
	require.Equal(t, Following, out.Status)
	require.NotEmpty(t, out.Raw)
	require.GreaterOrEqual(t, len(out.Path), 2, "a path has the start and the goal")
	g := reference(t, l)
	cost := 0.0
	for i, k := range out.Raw {
		n := g.id(k)
		require.NotEqual(t, planners.None, n, "raw voxel %v outside the volume", k)
		require.True(t, g.Passable(n), "raw voxel %v (cost %d) is not passable", k, l.m.Cost(k))
		if i == 0 {
			continue
		}
		var r route
		c, ok := r.step(g, g.id(out.Raw[i-1]), n)
		require.True(t, ok, "raw step %v → %v is not a legal move", out.Raw[i-1], k)
		cost += c
	}
	require.True(t, relEqual(cost, out.RawCost), "RawCost %v, steps sum to %v", out.RawCost, cost)
	for i := 1; i < len(out.Path); i++ {
		require.True(t, segmentClear(l, out.Path[i-1], out.Path[i]),
			"segment %d, %v → %v, has no line of sight", i, out.Path[i-1], out.Path[i])
	}
	require.Equal(t, out.Goal, out.Path[len(out.Path)-1])
	gk, _ := l.frame.KeyOf(out.Goal)
	require.Equal(t, gk, out.Raw[len(out.Raw)-1], "the raw path ends in the goal's voxel")
	sk, _ := l.frame.KeyOf(out.Path[0])
	require.Equal(t, sk, out.Raw[0], "the path starts in the raw path's first voxel")
	opt, ok := optimal(t, l, out.Raw[0], out.Raw[len(out.Raw)-1])
	require.True(t, ok)
	if out.Epsilon == 1 {
		require.True(t, relEqual(out.RawCost, opt), "RawCost %v, A* from scratch %v", out.RawCost, opt)
	} else {
		require.LessOrEqual(t, out.RawCost, out.Epsilon*opt*(1+1e-9), "ε %v", out.Epsilon)
	}
	return opt
}

// settle ticks until the loop is done improving (AD* under a Budget takes
// several Ticks), checking every path published on the way, and returns
// the last output.
func settle(t testing.TB, l *Loop) Output {
	t.Helper()
	for range 200 {
		out := l.Tick(context.Background())
		if out.Status == Following {
			checkPath(t, l, out)
		}
		if out.Status != Planning && !out.Pending {
			return out
		}
	}
	t.Fatal("the loop never settled")
	return Output{}
}

// strategies are the configurations every scripted sequence runs with.
var strategies = []struct {
	name string
	cfg  Config
}{
	{"dstarlite", Config{Strategy: DStarLite}},
	{"adstar", Config{Strategy: ADStar}},
	{"adstar-budget", Config{Budget: 1}}, // Auto picks AD*; 1 ns: one slice per Tick
	{"astar", Config{Strategy: AStar}},
	{"dpastar", Config{Strategy: DPAStar}},
	{"tunnel", Config{Strategy: Tunnel}},
	{"dstarlite-repair-budget", Config{Strategy: DStarLite, RepairBudget: 1}}, // 1 ns: detours, then one slice per Tick
}

// worlds builds every test world.
var worlds = []func(testing.TB) *world{groundWorld, aerialWorld}

// forEach runs fn for every world and strategy.
func forEach(t *testing.T, fn func(t *testing.T, w *world, cfg Config)) {
	for _, mk := range worlds {
		for _, s := range strategies {
			w := mk(t)
			t.Run(w.name+"/"+s.name, func(t *testing.T) { fn(t, w, s.cfg) })
		}
	}
}

// centre returns the centre of voxel k as the loop sees it.
func centre(l *Loop, k voxel.Key) r3.Vector { return l.project(l.frame.Center(k)) }

// farFrom returns the distance, metres, from p to the nearest voxel of raw.
func farFrom(l *Loop, raw []voxel.Key, p r3.Vector) float64 {
	d := math.Inf(1)
	for _, k := range raw {
		d = math.Min(d, dist(centre(l, k), l.project(p)))
	}
	return d
}
