package planners

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// graphOnly hides a lattice's A* fast path: A* sees its Graph methods
// only and takes the generic search.
type graphOnly struct{ Graph }

// TestAStarMovingAILarge: A* reproduces the benchmark's optimal costs on
// the two largest maps, DA1 (389×313×511 = 62 M voxels) and BC1
// (853×245×321 = 67 M), every 20th scenario (500 a map, about 25 s;
// every 500th under -race, 10 times slower), with search state far below
// a full-map allocation.
func TestAStarMovingAILarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large maps: about 25 s")
	}
	stride := 20
	if raceDetector {
		stride = 500
	}
	for _, name := range []string{"DA1", "BC1"} {
		t.Run(name, func(t *testing.T) {
			var ms runtime.MemStats
			runtime.GC() // what earlier tests left
			runtime.ReadMemStats(&ms)
			base := ms.HeapInuse
			began := time.Now()
			l, scen := movingAILattice(t, name)
			loaded := time.Since(began)
			a := NewAStar(l)
			var path []NodeID
			var peak uint64
			expansions := 0
			for i := 0; i < len(scen); i += stride {
				s := scen[i]
				start, goal := l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2])
				r, err := a.Plan(context.Background(), start, goal, path)
				require.NoError(t, err, "scenario %d", i)
				require.InDelta(t, s.Optimal, r.Cost, 1e-4, "scenario %d: %+v", i, s)
				if i%(20*stride) == 0 {
					require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9*r.Cost)
					require.Equal(t, start, r.Path[0])
					require.Equal(t, goal, r.Path[len(r.Path)-1])
				}
				path = r.Path
				expansions += r.Stats.Expansions
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
			flat := 20 * l.NumNodes() // stamp, g, parent, pos: searchState's bytes per node
			state := stateBytes(a)
			t.Logf("%s: loaded in %v; %d scenarios, %d expansions in %v; search state %.1f MB (a flat one: %.0f MB); peak heap in use %.1f MB, %.1f MB over the test's start (map included)",
				name, loaded.Round(time.Millisecond), (len(scen)+stride-1)/stride, expansions, time.Since(began).Round(time.Millisecond),
				float64(state)/1e6, float64(flat)/1e6, float64(peak)/1e6, float64(peak-base)/1e6)
			require.Less(t, state, flat/10)
		})
	}
}

// TestAStarLatticeFastPath: on random lattices, 2D and 3D, planar or
// not, thin or not, weighted or not, with cells changing between
// queries, one AStar through the lattice fast path finds the same costs
// as one through the Graph interface, over many queries.
func TestAStarLatticeFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	for i := range 200 {
		planar := i%3 == 0
		w, h, d := 1+rng.IntN(40), 1+rng.IntN(40), 1+rng.IntN(20)
		if i%5 == 0 {
			d = 1
		}
		l, err := NewLattice(w, h, d, planar)
		require.NoError(t, err)
		for n := range NodeID(l.NumNodes()) {
			l.SetBlocked(n, rng.Float64() < 0.25)
			if i%4 == 1 {
				l.SetWeight(n, 1+rng.Float32()*3)
			}
		}
		fast, slow := NewAStar(l), NewAStar(graphOnly{l})
		if i%7 == 3 {
			fast.Weight, slow.Weight = 1.5, 1.5
		}
		for q := range 20 {
			start, goal := NodeID(rng.IntN(l.NumNodes())), NodeID(rng.IntN(l.NumNodes()))
			l.SetBlocked(start, false)
			l.SetBlocked(goal, false)
			want, werr := slow.Plan(ctx, start, goal, nil)
			got, err := fast.Plan(ctx, start, goal, nil)
			what := []any{"case %d query %d: %d×%d×%d planar %v weight %v", i, q, w, h, d, planar, fast.Weight}
			if werr != nil {
				require.ErrorIs(t, werr, ErrNoPath, what...)
				require.ErrorIs(t, err, ErrNoPath, what...)
				require.Equal(t, want.Stats.Expansions, got.Stats.Expansions, what...) // both expand every reachable node
				continue
			}
			optimal := want.Cost
			if fast.Weight != 0 {
				o, err := NewAStar(l).Plan(ctx, start, goal, nil)
				require.NoError(t, err)
				optimal = o.Cost
			}
			requirePlanned(t, l, start, goal, got, err, optimal, fast.Weight, what...)
			l.SetBlocked(NodeID(rng.IntN(l.NumNodes())), rng.IntN(2) == 0) // the next query sees a changed lattice
		}
	}
}

// TestLatticeSuccessors: the neighbourhood masks give exactly the moves
// the definition gives: every cell of the move's bounding box inside the
// lattice and free; none from a blocked cell. Predecessors are the same.
func TestLatticeSuccessors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var got, pred []Edge
	for i := range 100 {
		planar := i%3 == 0
		l, err := NewLattice(1+rng.IntN(9), 1+rng.IntN(9), 1+rng.IntN(5), planar)
		require.NoError(t, err)
		for n := range NodeID(l.NumNodes()) {
			l.SetBlocked(n, rng.Float64() < 0.3)
			if i%2 == 1 {
				l.SetWeight(n, 1+rng.Float32())
			}
		}
		for n := range NodeID(l.NumNodes()) {
			got = l.Successors(n, got[:0])
			pred = l.Predecessors(n, pred[:0])
			require.Equal(t, boxMoves(l, n), append([]Edge{}, got...), "case %d node %d", i, n)
			require.Equal(t, got, pred)
		}
	}
}

// boxMoves lists n's moves by their definition, in move index order.
func boxMoves(l *Lattice, n NodeID) []Edge {
	out := []Edge{}
	if l.Blocked(n) {
		return out
	}
	x, y, z := l.Cell(n)
	for dz := int32(-1); dz <= 1; dz++ {
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				if dx == 0 && dy == 0 && dz == 0 || l.planar && dz != 0 {
					continue
				}
				free := true
				for bz := min(0, dz); bz <= max(0, dz); bz++ {
					for by := min(0, dy); by <= max(0, dy); by++ {
						for bx := min(0, dx); bx <= max(0, dx); bx++ {
							c := l.ID(x+bx, y+by, z+bz)
							free = free && c != None && !l.Blocked(c)
						}
					}
				}
				if !free {
					continue
				}
				to := l.ID(x+dx, y+dy, z+dz)
				c := latticeMoves[(dx+1)+3*(dy+1)+9*(dz+1)].length
				if l.weight != nil {
					c *= (float64(l.weight[n]) + float64(l.weight[to])) / 2
				}
				out = append(out, Edge{To: to, Cost: c})
			}
		}
	}
	return out
}

// TestAStarAllocs: a warmed-up AStar allocates nothing per query, on the
// lattice fast path and through the Graph interface.
func TestAStarAllocs(t *testing.T) {
	l := clutteredLattice(t, rand.New(rand.NewPCG(7, 8)), 60, 50, 20, false, 0.2, [3]int32{1, 1, 1}, [3]int32{58, 48, 18})
	start, goal := l.ID(1, 1, 1), l.ID(58, 48, 18)
	for _, g := range []Graph{l, graphOnly{l}} {
		a := NewAStar(g)
		r, err := a.Plan(context.Background(), start, goal, nil)
		require.NoError(t, err)
		path := r.Path
		allocs := testing.AllocsPerRun(10, func() {
			r, err = a.Plan(context.Background(), start, goal, path)
			path = r.Path
		})
		require.NoError(t, err)
		require.Zero(t, allocs, "%T", g)
	}
}

// TestBrickShape: bricks hold 4096 cells, cubes in 3D, flatter on thin
// lattices, never longer along an axis than the lattice needs.
func TestBrickShape(t *testing.T) {
	for _, c := range []struct {
		w, h, d    int
		sx, sy, sz uint8
	}{
		{853, 245, 321, 4, 4, 4},
		{1000, 1000, 1, 6, 6, 0},
		{500, 400, 3, 5, 5, 2},
		{5000, 2, 2, 10, 1, 1},
		{3, 3, 3, 2, 2, 2},
	} {
		l, err := NewLattice(c.w, c.h, c.d, false)
		require.NoError(t, err)
		var s brickState
		require.True(t, s.reset(l))
		require.Equal(t, [3]uint8{c.sx, c.sy, c.sz}, [3]uint8{s.sx, s.sy, s.sz}, "%d×%d×%d", c.w, c.h, c.d)
	}
	// 5×5×85,899,345 cells, in bricks of 8×8×64: 1.3 M bricks, too many
	// for handles. (A literal: reset reads the dimensions only.)
	var s brickState
	require.False(t, s.reset(&Lattice{W: 5, H: 5, D: 85_899_345}))
}

// stateBytes is the memory a's search state holds: pages, brick index
// and open list on a lattice; flat per-node slices otherwise.
func stateBytes(a *AStar) int {
	c := &a.cells
	return len(c.pages)*int(unsafe.Sizeof(brickPage{})) + cap(c.pages)*8 + cap(c.slots)*int(unsafe.Sizeof(brickSlot{})) +
		cap(c.index)*4 + cap(a.cellOpen.items)*int(unsafe.Sizeof(cellItem{})) +
		len(a.st.stamp)*20 + cap(a.open.items)*int(unsafe.Sizeof(heapItem{}))
}

// TestClosedAround: the closed bits A* reads for a cell's neighbourhood
// are those of the neighbours in its brick, at every place of a brick, in
// every brick shape (cubes, flat, planar, long and thin: the shapes that
// read furthest into the padding).
func TestClosedAround(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		w, h, d int
		planar  bool
	}{
		{853, 245, 321, false}, {1000, 1000, 1, true}, {1000, 1000, 1, false},
		{500, 400, 3, false}, {5000, 2, 2, false}, {5000, 1, 2, false}, {3, 3, 3, false},
	} {
		l, err := NewLattice(c.w, c.h, c.d, c.planar)
		require.NoError(t, err)
		var s brickState
		require.True(t, s.reset(l))
		p := new(brickPage)
		closed := make([]bool, brickCells)
		for k := range uint32(brickCells) {
			if closed[k] = rng.IntN(2) == 0; closed[k] {
				p.close(k)
			}
		}
		for k := range uint32(1) << (s.sx + s.sy + s.sz) { // the places of a brick (fewer than a page on a small lattice)
			in := s.movesInBrick(k)
			want := uint32(0)
			for m := range 27 {
				if in&(1<<m) != 0 && m != noMove && closed[int32(k)+s.step[m]] {
					want |= 1 << m
				}
			}
			require.Equal(t, want, s.closedAround(p, k)&in&^(1<<noMove), "%d×%d×%d place %d", c.w, c.h, c.d, k)
		}
	}
}
