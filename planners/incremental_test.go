package planners

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// planner is what every planner in the package offers.
type planner interface {
	Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error)
}

// incremental is a planner that keeps its search between calls.
type incremental interface {
	planner
	Update(changed []NodeID) error
}

// incrementalPlanners are the planners the property tests hold to A*.
func incrementalPlanners(g Graph) map[string]incremental {
	ad := NewADStar(g)
	ad.Epsilon0 = 1
	cold := NewDStarLite(g)
	cold.p.coldFloor = 1 // a cold list whatever the open list's size
	return map[string]incremental{
		"DStarLite":      NewDStarLite(g),
		"DStarLite-cold": cold,
		"LPAStar":        NewLPAStar(g),
		"ADStar":         ad,
	}
}

// changingLattice returns a lattice with about density of its cells blocked
// and random weights on some of the rest.
func changingLattice(t *testing.T, rng *rand.Rand, w, h, d int, planar bool, density float64, weighted bool) *Lattice {
	l, err := NewLattice(w, h, d, planar)
	require.NoError(t, err)
	for n := range NodeID(l.NumNodes()) {
		if rng.Float64() < density {
			l.SetBlocked(n, true)
		} else if weighted && rng.IntN(4) == 0 {
			l.SetWeight(n, 1+3*rng.Float32())
		}
	}
	return l
}

// randomFree returns a random passable node.
func randomFree(rng *rand.Rand, l *Lattice) NodeID {
	for {
		if n := NodeID(rng.IntN(l.NumNodes())); l.Passable(n) {
			return n
		}
	}
}

// world is a lattice that changes, with the list of nodes each change
// touched, as an incremental planner must be told.
type world struct {
	l       *Lattice
	rng     *rand.Rand
	boxes   [][]NodeID // cells each inserted obstacle blocked
	changed []NodeID
}

// insert blocks a small box of free cells around c, sparing keep.
func (w *world) insert(c NodeID, keep ...NodeID) {
	x, y, z := w.l.Cell(c)
	r := int32(w.rng.IntN(2))
	var cells []NodeID
	for dz := -r; dz <= r; dz++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				n := w.l.ID(x+dx, y+dy, z+dz)
				if n == None || w.l.Blocked(n) || contains(keep, n) {
					continue
				}
				w.l.SetBlocked(n, true)
				cells = append(cells, n)
				w.changed = w.l.Around(n, w.changed)
			}
		}
	}
	if len(cells) > 0 {
		w.boxes = append(w.boxes, cells)
	}
}

// remove frees a random earlier obstacle.
func (w *world) remove() {
	if len(w.boxes) == 0 {
		return
	}
	i := w.rng.IntN(len(w.boxes))
	for _, n := range w.boxes[i] {
		w.l.SetBlocked(n, false)
		w.changed = w.l.Around(n, w.changed)
	}
	w.boxes = append(w.boxes[:i], w.boxes[i+1:]...)
}

// reweight changes the traversal weight of a few cells near c.
func (w *world) reweight(c NodeID) {
	x, y, z := w.l.Cell(c)
	for range 4 {
		n := w.l.ID(x+int32(w.rng.IntN(5))-2, y+int32(w.rng.IntN(5))-2, z+int32(w.rng.IntN(3))-1)
		if n != None {
			w.l.SetWeight(n, 1+4*w.rng.Float32())
			w.changed = w.l.Around(n, w.changed)
		}
	}
}

// step walks the robot a few nodes along path and changes the world ahead
// of it or elsewhere, or picks a new goal (reported). It returns the new
// start and goal; w.changed holds the changed nodes.
func (w *world) step(path []NodeID, start, goal, fixedStart NodeID) (NodeID, NodeID, bool) {
	rng, l := w.rng, w.l
	if len(path) > 1 {
		start = path[min(len(path)-1, 1+rng.IntN(3))]
	}
	w.changed = w.changed[:0]
	switch k := rng.IntN(10); {
	case k < 5 && len(path) > 2:
		w.insert(path[min(len(path)-1, 2+rng.IntN(6))], start, goal, fixedStart)
	case k < 7:
		w.remove()
	case k < 8:
		w.reweight(randomFree(rng, l))
	case k < 9:
		w.insert(randomFree(rng, l), start, goal, fixedStart)
	default:
		if g := randomFree(rng, l); g != start && g != fixedStart {
			return start, g, true
		}
	}
	return start, goal, false
}

func contains(s []NodeID, n NodeID) bool {
	for _, v := range s {
		if v == n {
			return true
		}
	}
	return false
}

// requireSameAsAStar plans with p and with A* from scratch and requires
// the same outcome: the same cost (relative 1e-9) along a legal path from
// start to goal, or no path for both.
func requireSameAsAStar(t *testing.T, name string, p planner, a *AStar, l *Lattice, start, goal NodeID, what string) []NodeID {
	t.Helper()
	want, werr := a.Plan(context.Background(), start, goal, nil)
	got, err := p.Plan(context.Background(), start, goal, nil)
	if werr != nil {
		require.ErrorIs(t, werr, ErrNoPath)
		require.ErrorIs(t, err, ErrNoPath, "%s %s: A* found no path", name, what)
		return nil
	}
	require.NoError(t, err, "%s %s", name, what)
	require.InDelta(t, want.Cost, got.Cost, 1e-9*want.Cost, "%s %s: cost %v, A* %v", name, what, got.Cost, want.Cost)
	require.Equal(t, start, got.Path[0], "%s %s", name, what)
	require.Equal(t, goal, got.Path[len(got.Path)-1], "%s %s", name, what)
	require.InDelta(t, got.Cost, pathCost(t, l, got.Path), 1e-9*max(1, got.Cost), "%s %s", name, what)
	return got.Path
}

// requireAnytimeBound plans with an inflated AD* and requires every path
// it publishes to be legal and within its ε of A*'s cost, and the last to
// reach ε = 1 and A*'s cost.
func requireAnytimeBound(t *testing.T, ad *ADStar, a *AStar, l *Lattice, start, goal NodeID, what string) {
	t.Helper()
	want, werr := a.Plan(context.Background(), start, goal, nil)
	published := 0
	ad.OnImprove = func(r Result) {
		published++
		require.NoError(t, werr, "%s: AD* published a path A* did not find", what)
		require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*want.Cost*(1+1e-9), "%s: AD* at ε %v", what, r.Stats.Epsilon)
		require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9*max(1, r.Cost), what)
		require.Equal(t, goal, r.Path[len(r.Path)-1], what)
	}
	r, err := ad.Plan(context.Background(), start, goal, nil)
	if werr != nil {
		require.ErrorIs(t, err, ErrNoPath, what)
		return
	}
	require.NoError(t, err, what)
	require.Equal(t, 1.0, r.Stats.Epsilon, what)
	require.InDelta(t, want.Cost, r.Cost, 1e-9*want.Cost, "%s: AD* anytime", what)
	require.Positive(t, published, what)
}

// TestIncrementalEqualsScratch: a robot walks its path while obstacles
// appear ahead of it and vanish and costs change; after every change each
// incremental planner's path costs what A* from scratch finds, and every
// step is legal. LPA* keeps its start (it restarts when the start moves);
// D* Lite follows the robot.
func TestIncrementalEqualsScratch(t *testing.T) {
	cases := []struct {
		name     string
		w, h, d  int
		planar   bool
		weighted bool
		runs     int
	}{
		{"2D", 40, 30, 1, true, false, 30},
		{"2D-weighted", 30, 30, 1, true, true, 20},
		{"3D", 14, 12, 10, false, false, 20},
		{"3D-weighted", 12, 12, 8, false, true, 15},
		{"3D-planar-layers", 16, 16, 3, true, false, 10},
	}
	total, cold := 0, 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for run := range c.runs {
				rng := rand.New(rand.NewPCG(uint64(run), 7))
				l := changingLattice(t, rng, c.w, c.h, c.d, c.planar, 0.2, c.weighted)
				n, c := walkWithChanges(t, fmt.Sprintf("run %d", run), rng, l, 40)
				total, cold = total+n, cold+c
			}
		})
	}
	t.Logf("%d changes checked, %d searches left nodes cold", total, cold)
	require.GreaterOrEqual(t, total, 2000)
	require.Greater(t, cold, total/4, "D* Lite's cold list was hardly used")
}

// walkWithChanges runs one randomized episode and returns how many
// changes it checked, and after how many of them the D* Lite whose cold
// list is always on ("DStarLite-cold") held nodes in it.
func walkWithChanges(t *testing.T, label string, rng *rand.Rand, l *Lattice, changes int) (int, int) {
	t.Helper()
	a := NewAStar(l)
	ps := incrementalPlanners(l)
	w := &world{l: l, rng: rng}
	start, goal := randomFree(rng, l), randomFree(rng, l)
	fixedStart := start // LPA*'s
	path := requireSameAsAStar(t, "DStarLite", ps["DStarLite"], a, l, start, goal, label+" first search")
	requireSameAsAStar(t, "DStarLite-cold", ps["DStarLite-cold"], a, l, start, goal, label+" first search")
	requireSameAsAStar(t, "LPAStar", ps["LPAStar"], a, l, fixedStart, goal, label+" first search")
	requireSameAsAStar(t, "ADStar", ps["ADStar"], a, l, start, goal, label+" first search")
	cold := 0
	anytime := NewADStar(l)
	anytime.Epsilon0, anytime.EpsilonStep, anytime.LargeChange = 3, 0.5, 1
	requireAnytimeBound(t, anytime, a, l, start, goal, label+" first search")
	for i := range changes {
		what := fmt.Sprintf("%s change %d", label, i)
		var newGoal bool
		start, goal, newGoal = w.step(path, start, goal, fixedStart)
		if newGoal {
			what += " (new goal)"
		}
		for name, p := range ps {
			require.NoError(t, p.Update(w.changed), "%s %s", name, what)
		}
		require.NoError(t, anytime.Update(w.changed))
		path = requireSameAsAStar(t, "DStarLite", ps["DStarLite"], a, l, start, goal, what)
		requireSameAsAStar(t, "DStarLite-cold", ps["DStarLite-cold"], a, l, start, goal, what)
		if len(ps["DStarLite-cold"].(*DStarLite).p.cold) > 0 {
			cold++
		}
		requireSameAsAStar(t, "LPAStar", ps["LPAStar"], a, l, fixedStart, goal, what)
		requireSameAsAStar(t, "ADStar", ps["ADStar"], a, l, start, goal, what)
		requireAnytimeBound(t, anytime, a, l, start, goal, what)
		if path == nil {
			path = []NodeID{start}
		}
	}
	return changes, cold
}

// movingAIStride is how many scenarios the Moving AI tests step over:
// every tenth (1,000 per map), or every hundredth under the race detector
// or -short (`make test` runs the package both with the race detector and
// without it).
func movingAIStride() int {
	if raceDetector || testing.Short() {
		return 100
	}
	return 10
}

// TestIncrementalMovingAI: the first searches of D* Lite and LPA*
// reproduce the benchmark's optimal costs, and AD* run from ε = 2.5 to 1
// does too, every path it publishes on the way within its ε.
func TestIncrementalMovingAI(t *testing.T) {
	for _, name := range []string{"Simple", "Complex"} {
		t.Run(name, func(t *testing.T) {
			l, scen := movingAILattice(t, name)
			ad := NewADStar(l)
			var optimal float64
			published := 0
			ad.OnImprove = func(r Result) {
				published++
				require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*optimal+1e-4, "AD* at ε %v", r.Stats.Epsilon)
			}
			ps := map[string]interface {
				planner
				Reset()
			}{"DStarLite": NewDStarLite(l), "LPAStar": NewLPAStar(l), "ADStar": ad}
			for pname, p := range ps {
				var path []NodeID
				for i := 0; i < len(scen); i += movingAIStride() {
					s := scen[i]
					optimal = s.Optimal
					p.Reset()
					r, err := p.Plan(context.Background(), l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2]), path)
					require.NoError(t, err, "%s scenario %d", pname, i)
					require.InDelta(t, s.Optimal, r.Cost, 1e-4, "%s scenario %d: %+v", pname, i, s)
					require.Equal(t, 1.0, r.Stats.Epsilon, "%s scenario %d", pname, i)
					path = r.Path
				}
			}
			require.Greater(t, published, len(scen)/movingAIStride(), "AD* published only final paths")
		})
	}
}

// TestIncrementalEdgeCases: start = goal, blocked ends, unreachable goals,
// bad change lists, an empty lattice and an expired deadline.
func TestIncrementalEdgeCases(t *testing.T) {
	l, err := NewLattice(10, 10, 1, true)
	require.NoError(t, err)
	for name, p := range incrementalPlanners(l) {
		r, err := p.Plan(context.Background(), l.ID(3, 3, 0), l.ID(3, 3, 0), nil)
		require.NoError(t, err, name)
		require.Equal(t, []NodeID{l.ID(3, 3, 0)}, r.Path, name)
		require.Zero(t, r.Cost, name)

		l.SetBlocked(l.ID(5, 5, 0), true)
		require.NoError(t, p.Update(l.Around(l.ID(5, 5, 0), nil)))
		_, err = p.Plan(context.Background(), l.ID(5, 5, 0), l.ID(1, 1, 0), nil)
		require.ErrorIs(t, err, ErrStartBlocked, name)
		_, err = p.Plan(context.Background(), l.ID(1, 1, 0), l.ID(5, 5, 0), nil)
		require.ErrorIs(t, err, ErrGoalBlocked, name)
		_, err = p.Plan(context.Background(), l.ID(1, 1, 0), l.ID(10, 10, 0), nil)
		require.ErrorIs(t, err, ErrNodeRange, name)
		require.ErrorIs(t, p.Update([]NodeID{100}), ErrNodeRange, name)

		// Wall off the goal: no path, after exploring only the reachable part.
		var changed []NodeID
		for y := int32(0); y < 10; y++ {
			l.SetBlocked(l.ID(7, y, 0), true)
			changed = l.Around(l.ID(7, y, 0), changed)
		}
		require.NoError(t, p.Update(changed))
		r, err = p.Plan(context.Background(), l.ID(1, 1, 0), l.ID(9, 9, 0), nil)
		require.ErrorIs(t, err, ErrNoPath, name)
		require.LessOrEqual(t, r.Stats.Expansions, 3*100, name)
		// Open it again: the repaired search finds the way.
		changed = changed[:0]
		for y := int32(0); y < 10; y++ {
			l.SetBlocked(l.ID(7, y, 0), false)
			changed = l.Around(l.ID(7, y, 0), changed)
		}
		l.SetBlocked(l.ID(5, 5, 0), false)
		changed = l.Around(l.ID(5, 5, 0), changed)
		require.NoError(t, p.Update(changed))
		r, err = p.Plan(context.Background(), l.ID(1, 1, 0), l.ID(9, 9, 0), nil)
		require.NoError(t, err, name)
		require.InDelta(t, 8*math.Sqrt2, r.Cost, 1e-12, name)
	}

	// An expired deadline returns at once with ErrTimeout; the next call
	// with time resumes and finishes.
	big, err := NewLattice(300, 300, 1, true)
	require.NoError(t, err)
	for name, p := range incrementalPlanners(big) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r, err := p.Plan(ctx, big.ID(0, 0, 0), big.ID(299, 299, 0), nil)
		require.True(t, errors.Is(err, ErrTimeout), "%s: %v", name, err)
		require.True(t, r.Stats.Partial, name)
		require.LessOrEqual(t, r.Stats.Expansions, checkEvery, name)
		r, err = p.Plan(context.Background(), big.ID(0, 0, 0), big.ID(299, 299, 0), nil)
		require.NoError(t, err, name)
		require.InDelta(t, 299*math.Sqrt2, r.Cost, 1e-9, name)
	}
}

// TestLatticeBlockedHasNoEdges: a blocked cell has no moves out either,
// so the lattice's edges stay symmetric (incremental planners rely on it).
func TestLatticeBlockedHasNoEdges(t *testing.T) {
	for _, planar := range []bool{false, true} {
		l, err := NewLattice(5, 5, 5, planar)
		require.NoError(t, err)
		c := l.ID(2, 2, 2)
		l.SetBlocked(c, true)
		require.Empty(t, l.Successors(c, nil))
		require.Empty(t, l.Predecessors(c, nil))
		for _, e := range l.Successors(l.ID(1, 1, 2), nil) {
			require.NotEqual(t, c, e.To)
		}
	}
}

// TestADStarPitfall covers the pitfall of Krafft's thesis (§4.3.3.1):
// D* Lite with an inflated heuristic in the standard key stops before the
// start's value is right once a cost rises, and its path breaks or misses
// the bound. AD*'s key, uninflated for under-consistent nodes, does not.
// Both run at a fixed ε = 2 while obstacles land on the robot's path; the
// standard key must fail somewhere (the test can see the pitfall) and
// AD*'s key nowhere.
func TestADStarPitfall(t *testing.T) {
	failures := func(standard bool) (fails, events int) {
		for run := range 40 {
			rng := rand.New(rand.NewPCG(uint64(run), 11))
			l := changingLattice(t, rng, 30, 30, 1, true, 0.15, false)
			a := NewAStar(l)
			ad := NewADStar(l)
			ad.Epsilon0, ad.EpsilonMin, ad.p.standardKey = 2, 2, standard
			w := &world{l: l, rng: rng}
			start, goal := randomFree(rng, l), randomFree(rng, l)
			r, err := ad.Plan(context.Background(), start, goal, nil)
			if err != nil {
				continue
			}
			path := r.Path
			for range 20 {
				if len(path) < 4 {
					break
				}
				start = path[1]
				w.changed = w.changed[:0]
				w.insert(path[2+rng.IntN(len(path)-3)], start, goal)
				require.NoError(t, ad.Update(w.changed))
				events++
				want, werr := a.Plan(context.Background(), start, goal, nil)
				got, err := ad.Plan(context.Background(), start, goal, nil)
				if werr != nil {
					if !errors.Is(err, ErrNoPath) {
						fails++
					}
					break
				}
				if err != nil || got.Path[0] != start || got.Path[len(got.Path)-1] != goal ||
					!legalPath(l, got.Path) || got.Cost > 2*want.Cost*(1+1e-9) {
					fails++
					break
				}
				path = got.Path
			}
		}
		return fails, events
	}
	fails, events := failures(true)
	t.Logf("standard key: %d of the runs failed (%d events)", fails, events)
	require.Positive(t, fails, "the standard key never failed: the test cannot see the pitfall")
	fails, events = failures(false)
	require.Zero(t, fails, "AD*'s key failed")
	require.Greater(t, events, 300)
}

// legalPath reports whether every step of path is a lattice move.
func legalPath(l *Lattice, path []NodeID) bool {
	var edges []Edge
	for i := 1; i < len(path); i++ {
		edges = l.Successors(path[i-1], edges[:0])
		if !slices.ContainsFunc(edges, func(e Edge) bool { return e.To == path[i] }) {
			return false
		}
	}
	return true
}

// TestIncrementalAllocs: once warm, a repair (Update, then Plan from a new
// start into the caller's buffer) allocates nothing.
func TestIncrementalAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	l := changingLattice(t, rng, 40, 40, 1, true, 0.1, false)
	start, goal := randomFree(rng, l), randomFree(rng, l)
	cell := randomFree(rng, l)
	changed := l.Around(cell, nil)
	for name, p := range incrementalPlanners(l) {
		path := make([]NodeID, 0, l.NumNodes())
		r, err := p.Plan(context.Background(), start, goal, path)
		if errors.Is(err, ErrNoPath) {
			continue
		}
		require.NoError(t, err, name)
		// The robot moves along the first half of the path, one node a
		// run, while a cell is blocked and freed.
		walk := r.Path[:len(r.Path)/2+1]
		step, blocked := 0, false
		allocs := testing.AllocsPerRun(20, func() {
			step = (step + 1) % len(walk)
			if !slices.Contains(walk, cell) && cell != goal {
				blocked = !blocked
				l.SetBlocked(cell, blocked)
			}
			require.NoError(t, p.Update(changed))
			_, err := p.Plan(context.Background(), walk[step], goal, path)
			if err != nil && !errors.Is(err, ErrNoPath) {
				t.Fatal(err)
			}
		})
		require.Zero(t, allocs, name)
		l.SetBlocked(cell, false)
		require.NoError(t, p.Update(changed))
	}
}

// TestADStarEpsilonReset: a change on the current path sends ε back to ε₀
// (Kapadia et al., Algorithm 2 lines 14–16); a small change elsewhere does
// not. Bad schedules are errors, and a step too small to move ε still ends.
func TestADStarEpsilonReset(t *testing.T) {
	l, err := NewLattice(30, 30, 1, true)
	require.NoError(t, err)
	ad := NewADStar(l)
	ad.Epsilon0 = 2.5
	r, err := ad.Plan(context.Background(), l.ID(0, 0, 0), l.ID(29, 29, 0), nil)
	require.NoError(t, err)
	require.Equal(t, 1.0, ad.Epsilon())
	far := l.ID(0, 29, 0)
	l.SetBlocked(far, true)
	require.NoError(t, ad.Update(l.Around(far, nil)))
	require.Equal(t, 1.0, ad.Epsilon(), "a change off the path")
	on := r.Path[len(r.Path)/2]
	l.SetBlocked(on, true)
	require.NoError(t, ad.Update(l.Around(on, nil)))
	require.Equal(t, 2.5, ad.Epsilon(), "a change on the path")
	r, err = ad.Plan(context.Background(), l.ID(0, 0, 0), l.ID(29, 29, 0), nil)
	require.NoError(t, err)
	require.Equal(t, 1.0, r.Stats.Epsilon)

	for _, set := range []func(*ADStar){
		func(a *ADStar) { a.Epsilon0 = 0.5 },
		func(a *ADStar) { a.EpsilonStep = -1 },
		func(a *ADStar) { a.EpsilonMin = math.NaN() },
		func(a *ADStar) { a.EpsilonMin = math.Inf(1) },
	} {
		bad := NewADStar(l)
		set(bad)
		_, err := bad.Plan(context.Background(), l.ID(0, 0, 0), l.ID(29, 29, 0), nil)
		require.Error(t, err)
	}
	tiny := NewADStar(l)
	tiny.EpsilonStep = 1e-17
	r, err = tiny.Plan(context.Background(), l.ID(0, 0, 0), l.ID(29, 29, 0), nil)
	require.NoError(t, err)
	require.Equal(t, 1.0, r.Stats.Epsilon)
}
