package planners

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// dpaWorld is a lattice with a fixed background of blocked cells and box
// obstacles that come and go, counted per cell so overlapping boxes free a
// cell only when the last one goes.
type dpaWorld struct {
	l          *Lattice
	background []bool        // [len = NumNodes]
	cover      []int16       // [len = NumNodes]: boxes covering the cell
	boxes      [][2][3]int32 // present obstacles: inclusive cell boxes
}

func newDPAWorld(t *testing.T, rng *rand.Rand, w, h, d int, density float64, weights bool) *dpaWorld {
	l, err := NewLattice(w, h, d, d == 1)
	require.NoError(t, err)
	n := l.NumNodes()
	wd := &dpaWorld{l: l, background: make([]bool, n), cover: make([]int16, n)}
	for v := range NodeID(n) {
		if rng.Float64() < density {
			wd.background[v] = true
			l.SetBlocked(v, true)
		}
		if weights && rng.IntN(4) == 0 {
			l.SetWeight(v, 1+rng.Float32())
		}
	}
	return wd
}

// cells calls f for each node of box b.
func (wd *dpaWorld) cells(b [2][3]int32, f func(NodeID)) {
	for z := b[0][2]; z <= b[1][2]; z++ {
		for y := b[0][1]; y <= b[1][1]; y++ {
			for x := b[0][0]; x <= b[1][0]; x++ {
				f(wd.l.ID(x, y, z))
			}
		}
	}
}

func (wd *dpaWorld) insert(b [2][3]int32) {
	wd.cells(b, func(v NodeID) {
		wd.cover[v]++
		wd.l.SetBlocked(v, true)
	})
	wd.boxes = append(wd.boxes, b)
}

// remove takes out obstacle i.
func (wd *dpaWorld) remove(i int) [2][3]int32 {
	b := wd.boxes[i]
	wd.cells(b, func(v NodeID) {
		if wd.cover[v]--; wd.cover[v] == 0 && !wd.background[v] {
			wd.l.SetBlocked(v, false)
		}
	})
	wd.boxes[i] = wd.boxes[len(wd.boxes)-1]
	wd.boxes = wd.boxes[:len(wd.boxes)-1]
	return b
}

// boxAround returns a random box of 1 to 4 cells a side (1 deep in the
// plane) holding node c, inside the lattice.
func (wd *dpaWorld) boxAround(rng *rand.Rand, c NodeID) [2][3]int32 {
	l := wd.l
	x, y, z := l.Cell(c)
	at, size := [3]int32{x, y, z}, [3]int32{l.W, l.H, l.D}
	var b [2][3]int32
	for i := range 3 {
		s := min(1+rng.Int32N(4), size[i])
		lo := max(0, min(at[i]-rng.Int32N(s), size[i]-s))
		b[0][i], b[1][i] = lo, lo+s-1
	}
	return b
}

func (wd *dpaWorld) boxHolds(b [2][3]int32, v NodeID) bool {
	x, y, z := wd.l.Cell(v)
	p := [3]int32{x, y, z}
	for i := range 3 {
		if p[i] < b[0][i] || p[i] > b[1][i] {
			return false
		}
	}
	return true
}

// randomFree returns a free node.
func (wd *dpaWorld) randomFree(rng *rand.Rand) NodeID {
	for {
		if v := NodeID(rng.IntN(wd.l.NumNodes())); !wd.l.Blocked(v) {
			return v
		}
	}
}

// requireDPACost compares a re-planned cost with A*'s, relative 1e-9.
func requireDPACost(t *testing.T, want, got float64, msgAndArgs ...any) {
	t.Helper()
	require.InDelta(t, want, got, 1e-9*max(1, want), msgAndArgs...)
}

// runDPAWalk walks a robot along its path while boxes are inserted on and
// off the path and deleted again; after every change DPA* must cost what
// A* from scratch costs from the robot's node, with legal moves, and
// report the scenario the path and region imply. It returns how often
// each scenario occurred.
func runDPAWalk(t *testing.T, wd *dpaWorld, rng *rand.Rand, changes, maxBoxes int) map[DPAScenario]int {
	ctx := context.Background()
	l := wd.l
	d, a := NewDPAStar(l), NewAStar(l)
	seen := map[DPAScenario]int{}

	// newRoute picks a goal reachable from start and plans to it.
	newRoute := func(start NodeID) (NodeID, []NodeID) {
		for {
			goal := wd.randomFree(rng)
			want, err := a.Plan(ctx, start, goal, nil)
			if errors.Is(err, ErrNoPath) {
				continue
			}
			require.NoError(t, err)
			got, err := d.Plan(ctx, start, goal, nil)
			require.NoError(t, err)
			requireDPACost(t, want.Cost, got.Cost)
			return goal, got.Path
		}
	}
	robot := wd.randomFree(rng)
	goal, path := newRoute(robot)
	at := 0
	var spare []NodeID
	for k := 0; k < changes; k++ {
		at = min(at+rng.IntN(4), len(path)-1)
		if at == len(path)-1 {
			goal, path = newRoute(path[at])
			at = 0
		}
		robot = path[at]
		// What DPA* knows of the old path: what its last Replan
		// returned, nothing (Forget), or what the robot kept (Recall).
		memory := rng.IntN(3)
		var cum []float64
		if memory == 2 {
			cum = prefixCosts(t, l, path) // before the change
		}

		var b [2][3]int32
		change := ObstacleInserted
		if len(wd.boxes) > 0 && (len(wd.boxes) >= maxBoxes || rng.IntN(2) == 0) {
			change = ObstacleDeleted
			b = wd.remove(rng.IntN(len(wd.boxes)))
		} else {
			c := wd.randomFree(rng)
			if rng.IntN(2) == 0 && at+1 < len(path) {
				c = path[at+1+rng.IntN(len(path)-at-1)] // on the path ahead
			}
			b = wd.boxAround(rng, c)
			if wd.boxHolds(b, robot) || wd.boxHolds(b, goal) {
				k--
				continue
			}
			wd.insert(b)
		}
		r := l.ChangedRegion(b[0], b[1])
		affected := false
		for _, v := range path[at:] {
			affected = affected || r.Contains(l.Position(v))
		}

		switch memory {
		case 1:
			d.Forget() // measure the old path on the graph instead
		case 2:
			d.Recall(path, cum)
		}
		want, werr := a.Plan(ctx, robot, goal, nil)
		got, scen, err := d.Replan(ctx, path, at, goal, r, change, spare)
		if errors.Is(werr, ErrNoPath) {
			require.ErrorIs(t, err, ErrNoPath, "change %d", k)
			require.Equal(t, ObstacleInserted, change)
			wd.remove(len(wd.boxes) - 1) // back to the graph the path is optimal on
			continue
		}
		require.NoError(t, werr)
		require.NoError(t, err, "change %d: %v", k, scen)
		wantScen := map[[2]bool]DPAScenario{
			{true, false}: InsertionUnaffected, {true, true}: InsertionAffected,
			{false, false}: DeletionUnaffected, {false, true}: DeletionAffected,
		}[[2]bool{change == ObstacleInserted, affected}]
		require.Equal(t, wantScen, scen, "change %d", k)
		requireDPACost(t, want.Cost, got.Cost, "change %d: %v", k, scen)
		requireDPACost(t, want.Cost, pathCost(t, l, got.Path), "change %d: %v", k, scen)
		require.Equal(t, robot, got.Path[0])
		require.Equal(t, goal, got.Path[len(got.Path)-1])
		require.Equal(t, 1.0, got.Stats.Epsilon)
		require.False(t, got.Stats.Partial)
		seen[scen]++
		path, spare, at = got.Path, path[:0], 0
	}
	return seen
}

// TestDPAStarWalk2D: a ground robot on a weighted 8-connected grid, 3,000
// changes; every scenario occurs.
func TestDPAStarWalk2D(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	wd := newDPAWorld(t, rng, 64, 48, 1, 0.08, true)
	seen := runDPAWalk(t, wd, rng, 3000, 6)
	t.Logf("scenarios: %v", seen)
	for s := InsertionUnaffected; s <= DeletionAffected; s++ {
		require.Positive(t, seen[s], "%v", s)
	}
}

// TestDPAStarWalk3D: a drone in a 26-connected voxel lattice, 2,000 changes.
func TestDPAStarWalk3D(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	wd := newDPAWorld(t, rng, 18, 16, 10, 0.1, false)
	seen := runDPAWalk(t, wd, rng, 2000, 8)
	t.Logf("scenarios: %v", seen)
	for s := InsertionUnaffected; s <= DeletionAffected; s++ {
		require.Positive(t, seen[s], "%v", s)
	}
}

// TestDPAStarCrowd: robots sharing one planner re-plan in turn after each
// change, all with the same R, as in navbench meshdpa, so that from the
// second on the planner serves h(V, R) from what earlier searches stored.
// Each re-plan must equal, path and expansions, a fresh planner's that
// computes every distance and writes the path to other storage, and cost
// what A* does.
func TestDPAStarCrowd(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	wd := newDPAWorld(t, rng, 20, 18, 8, 0.2, false)
	l := wd.l
	shared, a := NewDPAStar(l), NewAStar(l)
	type robot struct {
		path []NodeID
		at   int
		cum  []float64 // the path's running cost before the change
	}
	route := func() robot { // an errand of at least 8 nodes
		for {
			res, err := shared.Plan(ctx, wd.randomFree(rng), wd.randomFree(rng), nil)
			if errors.Is(err, ErrNoPath) || err == nil && len(res.Path) < 8 {
				continue
			}
			require.NoError(t, err)
			return robot{path: res.Path}
		}
	}
	crowd := make([]robot, 30)
	for i := range crowd {
		crowd[i] = route()
	}
	seen, served := map[DPAScenario]int{}, 0
	for k := range 100 {
		for i := range crowd {
			rb := &crowd[i]
			if len(rb.path) < 8 { // near its goal: a new errand
				*rb = route()
			}
			rb.at = rng.IntN(4) // moved on since the last change
			rb.cum = prefixCosts(t, l, rb.path)
		}
		var b [2][3]int32
		change := ObstacleInserted
		if len(wd.boxes) > 0 && (len(wd.boxes) >= 6 || rng.IntN(2) == 0) {
			change = ObstacleDeleted
			b = wd.remove(rng.IntN(len(wd.boxes)))
		} else {
			b = wd.boxAround(rng, wd.randomFree(rng))
			wd.insert(b)
		}
		r := l.ChangedRegion(b[0], b[1])
		replans := 0
		for i := range crowd {
			rb := &crowd[i]
			start, goal := rb.path[rb.at], rb.path[len(rb.path)-1]
			if wd.boxHolds(b, start) || wd.boxHolds(b, goal) {
				*rb = route()
				continue
			}
			want, werr := a.Plan(ctx, start, goal, nil)
			fresh := NewDPAStar(l)
			fresh.Recall(rb.path, rb.cum)
			ref, refScen, referr := fresh.Replan(ctx, rb.path, rb.at, goal, r, change, nil)
			shared.Recall(rb.path, rb.cum)
			// The robot's path storage takes the new path, as a robot's
			// would (the fresh planner's goes elsewhere).
			got, scen, err := shared.Replan(ctx, rb.path, rb.at, goal, r, change, rb.path)
			replans++
			if errors.Is(werr, ErrNoPath) {
				require.ErrorIs(t, err, ErrNoPath, "change %d, robot %d", k, i)
				require.ErrorIs(t, referr, ErrNoPath)
				*rb = route()
				continue
			}
			require.NoError(t, err, "change %d, robot %d", k, i)
			require.NoError(t, referr)
			require.Equal(t, refScen, scen, "change %d, robot %d", k, i)
			require.Equal(t, ref.Path, got.Path, "change %d, robot %d: %v", k, i, scen)
			require.Equal(t, ref.Stats.Expansions, got.Stats.Expansions, "change %d, robot %d: %v", k, i, scen)
			requireDPACost(t, want.Cost, got.Cost, "change %d, robot %d: %v", k, i, scen)
			rb.path, rb.at = got.Path, 0
			seen[scen]++
		}
		if replans >= 2 {
			require.True(t, shared.near.on, "change %d: %d re-plans with one R", k, replans)
			served++
		}
	}
	t.Logf("scenarios: %v", seen)
	require.Greater(t, served, 90)
	require.Greater(t, seen[DeletionUnaffected], 500)
}

// TestDPAStarScenarios: one hand-made change per scenario on an open
// 30×30 grid, with the pruning visible in the expansion counts.
func TestDPAStarScenarios(t *testing.T) {
	ctx := context.Background()
	l, err := NewLattice(30, 30, 1, true)
	require.NoError(t, err)
	d, a := NewDPAStar(l), NewAStar(l)
	start, goal := l.ID(0, 5, 0), l.ID(29, 5, 0)
	first, err := d.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	require.InDelta(t, 29.0, first.Cost, 1e-12)
	old := append([]NodeID(nil), first.Path...)
	far := [2][3]int32{{10, 20, 0}, {13, 23, 0}}
	on := [2][3]int32{{14, 2, 0}, {14, 8, 0}}
	block := func(b [2][3]int32, blocked bool) Region {
		for y := b[0][1]; y <= b[1][1]; y++ {
			for x := b[0][0]; x <= b[1][0]; x++ {
				l.SetBlocked(l.ID(x, y, 0), blocked)
			}
		}
		return l.ChangedRegion(b[0], b[1])
	}

	// Scenario 1: a box far from the path; the old path comes back
	// without a search.
	r, scen, err := d.Replan(ctx, old, 3, goal, block(far, true), ObstacleInserted, nil)
	require.NoError(t, err)
	require.Equal(t, InsertionUnaffected, scen)
	require.Equal(t, "insertion, old path unaffected", scen.String())
	require.Equal(t, old[3:], r.Path)
	require.InDelta(t, 26.0, r.Cost, 1e-12)
	require.Zero(t, r.Stats.Expansions)

	// Scenario 3: deleting it again; R is too far to help from the
	// start on, so the search expands the start alone and keeps the old
	// path from there (a search that walked it would expand its 26
	// nodes before G).
	r, scen, err = d.Replan(ctx, old, 3, goal, block(far, false), ObstacleDeleted, nil)
	require.NoError(t, err)
	require.Equal(t, DeletionUnaffected, scen)
	require.Equal(t, old[3:], r.Path)
	require.InDelta(t, 26.0, r.Cost, 1e-12)
	require.Equal(t, 1, r.Stats.Expansions)

	// Scenario 2: a wall across the path.
	rOn := block(on, true)
	r, scen, err = d.Replan(ctx, old, 3, goal, rOn, ObstacleInserted, nil)
	require.NoError(t, err)
	require.Equal(t, InsertionAffected, scen)
	want, err := a.Plan(ctx, old[3], goal, nil)
	require.NoError(t, err)
	require.InDelta(t, want.Cost, r.Cost, 1e-9)
	require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9)
	detour := append([]NodeID(nil), r.Path...)

	// Scenario 4: the wall goes; the detour hugs it, so it is affected,
	// and the straight line comes back.
	r, scen, err = d.Replan(ctx, detour, 0, goal, block(on, false), ObstacleDeleted, nil)
	require.NoError(t, err)
	require.Equal(t, DeletionAffected, scen)
	require.InDelta(t, 26.0, r.Cost, 1e-9)
	require.Equal(t, old[3:], r.Path)

	require.Equal(t, "no re-planning scenario", NoScenario.String())
	require.Equal(t, "deletion, old path affected", DeletionAffected.String())
	require.Equal(t, "DPAScenario(9)", DPAScenario(9).String())
	require.Equal(t, "insertion", ObstacleInserted.String())
	require.Equal(t, "Change(0)", Change(0).String())
}

// TestDPAStarErrors: blocked ends, no path, and inputs that do not fit.
func TestDPAStarErrors(t *testing.T) {
	ctx := context.Background()
	l, err := NewLattice(10, 10, 1, true)
	require.NoError(t, err)
	d := NewDPAStar(l)
	start, goal := l.ID(0, 0, 0), l.ID(9, 9, 0)
	first, err := d.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	old := first.Path
	cell := func(v NodeID) [2][3]int32 {
		x, y, z := l.Cell(v)
		return [2][3]int32{{x, y, z}, {x, y, z}}
	}
	region := func(v NodeID) Region { c := cell(v); return l.ChangedRegion(c[0], c[1]) }

	// Goal blocked.
	l.SetBlocked(goal, true)
	_, _, err = d.Replan(ctx, old, 2, goal, region(goal), ObstacleInserted, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	_, err = d.Plan(ctx, start, goal, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	l.SetBlocked(goal, false)

	// Start blocked: an obstacle lands on the robot.
	l.SetBlocked(old[2], true)
	_, _, err = d.Replan(ctx, old, 2, goal, region(old[2]), ObstacleInserted, nil)
	require.ErrorIs(t, err, ErrStartBlocked)
	_, err = d.Plan(ctx, old[2], goal, nil)
	require.ErrorIs(t, err, ErrStartBlocked)
	l.SetBlocked(old[2], false)

	// No path: a wall across x = 5, inserted in one change.
	for y := range int32(10) {
		l.SetBlocked(l.ID(5, y, 0), true)
	}
	r, scen, err := d.Replan(ctx, old, 1, goal, l.ChangedRegion([3]int32{5, 0, 0}, [3]int32{5, 9, 0}), ObstacleInserted, nil)
	require.ErrorIs(t, err, ErrNoPath)
	require.Equal(t, InsertionAffected, scen)
	require.Nil(t, r.Path)
	_, err = d.Plan(ctx, start, goal, nil)
	require.ErrorIs(t, err, ErrNoPath)
	for y := range int32(10) {
		l.SetBlocked(l.ID(5, y, 0), false)
	}

	// Inputs that do not fit.
	r0 := region(goal)
	for _, c := range []struct {
		old    []NodeID
		at     int
		goal   NodeID
		r      Region
		change Change
		want   error
	}{
		{old, -1, goal, r0, ObstacleInserted, ErrOldPath},
		{old, len(old), goal, r0, ObstacleInserted, ErrOldPath},
		{nil, 0, goal, r0, ObstacleInserted, ErrOldPath},
		{old[:3], 0, goal, r0, ObstacleInserted, ErrOldPath},                                 // does not end at the goal
		{[]NodeID{start, goal}, 0, goal, region(l.ID(5, 0, 0)), ObstacleDeleted, ErrOldPath}, // a step outside R that is no edge
		{[]NodeID{start, l.ID(1, 1, 0), start, l.ID(1, 1, 0), goal}, 0, goal, r0, ObstacleDeleted, ErrOldPath},
		{[]NodeID{start, 100, goal}, 0, goal, r0, ObstacleDeleted, ErrNodeRange},
		{old, 0, goal, r0, Change(7), nil},
		{old, 0, goal, Region{Min: [3]float64{1, 0, 0}}, ObstacleDeleted, nil},
		{old, 0, goal, Region{Max: [3]float64{math.NaN(), 0, 0}}, ObstacleDeleted, nil},
		{old, 0, goal, Region{Toll: -1}, ObstacleDeleted, nil},
		{old, 0, goal, Region{Toll: math.NaN()}, ObstacleDeleted, nil},
	} {
		_, _, err := d.Replan(ctx, c.old, c.at, c.goal, c.r, c.change, nil)
		require.Error(t, err, "%+v", c)
		if c.want != nil {
			require.ErrorIs(t, err, c.want, "%+v", c)
		}
	}
	// A step outside R that is no edge, found without a search (Scenario 1).
	_, _, err = d.Replan(ctx, []NodeID{start, goal}, 0, goal, region(l.ID(5, 0, 0)), ObstacleInserted, nil)
	require.ErrorIs(t, err, ErrOldPath)
	// A loop whose steps are all edges, away from R (Scenario 1 returns
	// the old path without a search: it must still check it).
	loop := []NodeID{start, l.ID(1, 1, 0), start}
	for i := range int32(9) {
		loop = append(loop, l.ID(i+1, i+1, 0))
	}
	_, _, err = d.Replan(ctx, loop, 0, goal, region(l.ID(0, 9, 0)), ObstacleInserted, nil)
	require.ErrorIs(t, err, ErrOldPath)
	// A step of [TA]⁻ that is no edge (Scenario 2): Algorithm 1 would
	// reach its far end only through it, and find no path.
	jump := []NodeID{start, l.ID(5, 0, 0), l.ID(6, 1, 0), l.ID(7, 2, 0), l.ID(8, 3, 0), l.ID(9, 4, 0)}
	for y := range int32(5) {
		jump = append(jump, l.ID(9, y+5, 0))
	}
	_, scen, err = d.Replan(ctx, jump, 0, goal, region(l.ID(7, 2, 0)), ObstacleInserted, nil)
	require.ErrorIs(t, err, ErrOldPath)
	require.Equal(t, InsertionAffected, scen)

	// A deletion where a step of the old path inside R is gone (regions
	// of a mesh merged): no bound on the R-worse test, still optimal.
	mid := l.ID(5, 5, 0)
	gone := []NodeID{l.ID(4, 4, 0), mid, l.ID(7, 7, 0), l.ID(8, 8, 0), goal}
	r, scen, err = d.Replan(ctx, gone, 0, goal, region(mid), ObstacleDeleted, nil)
	require.NoError(t, err)
	require.Equal(t, DeletionAffected, scen)
	require.InDelta(t, 5*math.Sqrt2, r.Cost, 1e-9)

	// At the goal already.
	r, _, err = d.Replan(ctx, old, len(old)-1, goal, r0, ObstacleDeleted, nil)
	require.NoError(t, err)
	require.Equal(t, []NodeID{goal}, r.Path)
	require.Zero(t, r.Cost)
}

// TestDPAStarDeadline: a context that ends at its second check stops a
// re-plan after one check interval, with no path and the old one
// untouched; an ended one stops a plan before it expands anything.
func TestDPAStarDeadline(t *testing.T) {
	l, err := NewLattice(200, 200, 1, true)
	require.NoError(t, err)
	d := NewDPAStar(l)
	start, goal := l.ID(0, 0, 0), l.ID(199, 0, 0)
	first, err := d.Plan(context.Background(), start, goal, nil)
	require.NoError(t, err)
	for y := range int32(199) { // a wall the search must flood around
		l.SetBlocked(l.ID(100, y, 0), true)
	}
	kept := slices.Clone(first.Path)
	r, scen, err := d.Replan(&stopAfter{Context: context.Background(), n: 2}, first.Path, 0, goal, l.ChangedRegion([3]int32{100, 0, 0}, [3]int32{100, 198, 0}), ObstacleInserted, first.Path)
	require.ErrorIs(t, err, ErrTimeout)
	require.Equal(t, InsertionAffected, scen)
	require.True(t, r.Stats.Partial)
	require.Equal(t, checkEvery, r.Stats.Expansions)
	require.Nil(t, r.Path)
	require.Equal(t, kept, first.Path, "the old path, sharing dst's storage, is untouched")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = d.Plan(ctx, start, goal, nil)
	require.ErrorIs(t, err, ErrTimeout)
	require.Zero(t, r.Stats.Expansions)
}

// TestDPAStarRecall: costs handed over with a path are kept only when
// they fit it; a Recall that does not fit leaves DPA* measuring the path
// on the graph, as after Forget.
func TestDPAStarRecall(t *testing.T) {
	l, err := NewLattice(20, 20, 1, true)
	require.NoError(t, err)
	d := NewDPAStar(l)
	path := []NodeID{l.ID(1, 1, 0), l.ID(2, 2, 0), l.ID(3, 2, 0)}
	cum := prefixCosts(t, l, path)
	d.Recall(path, cum)
	require.True(t, d.remembers(path, 0))
	require.Equal(t, cum, d.memoG)
	for _, bad := range [][]float64{cum[:2], {0, math.Inf(1), math.Inf(1)}, {0, math.NaN(), 3}} {
		d.Recall(path, cum)
		d.Recall(path, bad)
		require.False(t, d.remembers(path, 0), "costs %v", bad)
	}
}

// TestDPAStarAllocs: a warmed-up planner re-plans into the caller's
// buffer without allocating.
func TestDPAStarAllocs(t *testing.T) {
	ctx := context.Background()
	l, err := NewLattice(60, 60, 1, true)
	require.NoError(t, err)
	d := NewDPAStar(l)
	start, goal := l.ID(0, 30, 0), l.ID(59, 30, 0)
	first, err := d.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	for y := int32(20); y < 40; y++ {
		l.SetBlocked(l.ID(30, y, 0), true)
	}
	r := l.ChangedRegion([3]int32{30, 20, 0}, [3]int32{30, 39, 0})
	dst := make([]NodeID, 0, 200)
	replan := func() {
		res, _, err := d.Replan(ctx, first.Path, 0, goal, r, ObstacleInserted, dst)
		if err != nil || res.Stats.Expansions == 0 {
			t.Fatal(err)
		}
	}
	replan()
	require.Zero(t, testing.AllocsPerRun(20, replan))
}

// BenchmarkDPAStarReplan re-plans after a wall appears across the path of
// a 200×200 grid and reports expansions per second.
func BenchmarkDPAStarReplan(b *testing.B) {
	ctx := context.Background()
	l, err := NewLattice(200, 200, 1, true)
	require.NoError(b, err)
	d := NewDPAStar(l)
	start, goal := l.ID(0, 100, 0), l.ID(199, 100, 0)
	first, err := d.Plan(ctx, start, goal, nil)
	require.NoError(b, err)
	for y := int32(50); y < 150; y++ {
		l.SetBlocked(l.ID(120, y, 0), true)
	}
	r := l.ChangedRegion([3]int32{120, 50, 0}, [3]int32{120, 149, 0})
	var dst []NodeID
	expansions := 0
	b.ReportAllocs()
	for b.Loop() {
		res, _, err := d.Replan(ctx, first.Path, 0, goal, r, ObstacleInserted, dst)
		if err != nil {
			b.Fatal(err)
		}
		dst = res.Path
		expansions += res.Stats.Expansions
	}
	b.ReportMetric(float64(expansions)/b.Elapsed().Seconds(), "expansions/s")
}

// grownGraph is a lattice followed by extra nodes that are not passable,
// as a mesh that allocated ids for regions and removed them again.
type grownGraph struct {
	*Lattice
	extra int
}

func (g *grownGraph) NumNodes() int { return g.Lattice.NumNodes() + g.extra }

func (g *grownGraph) Passable(n NodeID) bool {
	return int(n) < g.Lattice.NumNodes() && g.Lattice.Passable(n)
}

func (g *grownGraph) Position(n NodeID) [3]float64 {
	if int(n) >= g.Lattice.NumNodes() {
		return [3]float64{-10, -10, 0}
	}
	return g.Lattice.Position(n)
}

// TestDPAStarGrowingGraph: ids appear between calls; the state follows.
func TestDPAStarGrowingGraph(t *testing.T) {
	ctx := context.Background()
	l, err := NewLattice(12, 12, 1, true)
	require.NoError(t, err)
	g := &grownGraph{Lattice: l}
	d := NewDPAStar(g)
	first, err := d.Plan(ctx, l.ID(0, 0, 0), l.ID(11, 11, 0), nil)
	require.NoError(t, err)
	g.extra = 5
	l.SetBlocked(l.ID(6, 6, 0), true)
	r, scen, err := d.Replan(ctx, first.Path, 1, l.ID(11, 11, 0), l.ChangedRegion([3]int32{6, 6, 0}, [3]int32{6, 6, 0}), ObstacleInserted, nil)
	require.NoError(t, err)
	require.Equal(t, InsertionAffected, scen)
	want, err := NewAStar(l).Plan(ctx, first.Path[1], l.ID(11, 11, 0), nil)
	require.NoError(t, err)
	requireDPACost(t, want.Cost, r.Cost)
	_, _, err = d.Replan(ctx, []NodeID{NodeID(l.NumNodes() + 2), l.ID(11, 11, 0)}, 0, l.ID(11, 11, 0), Region{}, ObstacleDeleted, nil)
	require.ErrorIs(t, err, ErrStartBlocked)
}

// TestDPAStarToll: R's toll prunes Scenario 3's search, never a better
// path when it is right (a wrong one keeps the old path), and Scenario 4
// ignores it.
func TestDPAStarToll(t *testing.T) {
	ctx := context.Background()
	l, err := NewLattice(30, 30, 1, true)
	require.NoError(t, err)
	// block blocks or frees a box of cells and returns its R.
	block := func(x0, x1, y0, y1 int32, blocked bool) Region {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				l.SetBlocked(l.ID(x, y, 0), blocked)
			}
		}
		return l.ChangedRegion([3]int32{x0, y0, 0}, [3]int32{x1, y1, 0})
	}
	start, goal := l.ID(0, 5, 0), l.ID(29, 5, 0)
	a := NewAStar(l)
	// replan re-plans old after a deletion in r with the toll, and checks
	// the cost against A*'s when the toll is one a better path pays.
	replan := func(old []NodeID, r Region, toll float64) (Result, DPAScenario) {
		r.Toll = toll
		res, scen, err := NewDPAStar(l).Replan(ctx, old, 0, goal, r, ObstacleDeleted, nil)
		require.NoError(t, err)
		want, err := a.Plan(ctx, old[0], goal, nil)
		require.NoError(t, err)
		if toll <= 6 {
			require.InDelta(t, want.Cost, res.Cost, 1e-9)
		}
		return res, scen
	}

	// Nothing better: a wall across the straight line makes the path
	// climb over it, and a wall far above it loses its lower end. The
	// heuristic cannot tell that no path through R helps; with a toll the
	// search gives up on more nodes sooner.
	block(22, 23, 0, 12, true)
	block(4, 9, 15, 29, true)
	over, err := a.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	end := block(4, 9, 15, 16, false)
	free, scen := replan(over.Path, end, 0)
	require.Equal(t, DeletionUnaffected, scen)
	paid, _ := replan(over.Path, end, 6)
	require.InDelta(t, over.Cost, paid.Cost, 1e-9)
	require.Greater(t, free.Stats.Expansions, paid.Stats.Expansions)
	block(22, 23, 0, 12, false)
	block(4, 9, 15, 29, false)

	// Better: a wall 5 thick (x 13 to 17) from the bottom up, which the
	// path goes round, and then a gap in it. A path through the gap
	// enters R (x 12 to 18) on one side and leaves it on the other: it
	// pays at least 6 there.
	block(13, 17, 0, 25, true)
	around, err := a.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	gap := block(13, 17, 10, 12, false)
	free, scen = replan(around.Path, gap, 0)
	require.Equal(t, DeletionUnaffected, scen)
	require.Less(t, free.Cost, around.Cost-1)
	replan(around.Path, gap, 6)
	kept, _ := replan(around.Path, gap, 100) // wrong: the better path is pruned
	require.Equal(t, around.Path, kept.Path)

	// Scenario 4: the path through the gap runs through R. The gap widens;
	// a toll it cannot pay must not hide the old path.
	got, scen := replan(free.Path, block(13, 17, 8, 9, false), 100)
	require.Equal(t, DeletionAffected, scen)
	want, err := a.Plan(ctx, start, goal, nil)
	require.NoError(t, err)
	require.InDelta(t, want.Cost, got.Cost, 1e-9)
}
