package planners

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requireAnyAngle checks that r is a chain of visible segments from
// start to goal whose lengths sum to r.Cost, and returns the cost.
func requireAnyAngle(t *testing.T, g AnyAngleGraph, r Result, start, goal NodeID) float64 {
	t.Helper()
	require.Equal(t, start, r.Path[0])
	require.Equal(t, goal, r.Path[len(r.Path)-1])
	sum := 0.0
	for i := 1; i < len(r.Path); i++ {
		require.True(t, g.LineOfSight(r.Path[i-1], r.Path[i]), "segment %d, %d → %d, is not visible", i, r.Path[i-1], r.Path[i])
		sum += g.Distance(r.Path[i-1], r.Path[i])
	}
	require.InDelta(t, r.Cost, sum, 1e-9)
	require.GreaterOrEqual(t, r.Cost, g.Distance(start, goal)-1e-9)
	return sum
}

// TestLazyThetaMovingAI: on every tenth scenario of Simple and Complex,
// Lazy Theta*'s paths are chains of visible segments no longer than A*'s
// lattice paths and no shorter than the straight line.
func TestLazyThetaMovingAI(t *testing.T) {
	for _, name := range []string{"Simple", "Complex"} {
		t.Run(name, func(t *testing.T) {
			l, scen := movingAILattice(t, name)
			th := NewLazyTheta(l)
			a := NewAStar(l)
			var path []NodeID
			ratio, runs := 0.0, 0
			for i := 0; i < len(scen); i += movingAIStride() {
				s := scen[i]
				start, goal := l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2])
				r, err := th.Plan(context.Background(), start, goal, path)
				require.NoError(t, err, "scenario %d", i)
				requireAnyAngle(t, l, r, start, goal)
				lattice := s.Optimal // rounded by the file: run A* when it is too close to call
				if r.Cost > s.Optimal-1e-4 {
					ra, err := a.Plan(context.Background(), start, goal, nil)
					require.NoError(t, err)
					lattice = ra.Cost
				}
				require.LessOrEqual(t, r.Cost, lattice+1e-9, "scenario %d: %+v", i, s)
				ratio += r.Cost / lattice
				runs++
				path = r.Path
			}
			t.Logf("%s: Lazy Theta* paths are %.2f%% shorter than A*'s on average over %d scenarios", name, 100*(1-ratio/float64(runs)), runs)
		})
	}
}

// TestLazyThetaRandom compares Lazy Theta* with Dijkstra on random small
// unweighted lattices, 2D and 3D: never longer, never shorter than the
// straight line, no path exactly when Dijkstra finds none.
func TestLazyThetaRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		l, start, goal := anytimeRandomLattice(rng, i%2 == 0, false)
		want := dijkstra(l, start, goal)
		r, err := NewLazyTheta(l).Plan(context.Background(), start, goal, nil)
		if math.IsInf(want, 1) {
			require.ErrorIs(t, err, ErrNoPath, "case %d", i)
			continue
		}
		require.NoError(t, err, "case %d", i)
		requireAnyAngle(t, l, r, start, goal)
		require.LessOrEqual(t, r.Cost, want+1e-9, "case %d", i)
	}
}

// TestLazyThetaPlanar: on an 8-connected grid the path is one segment
// when the goal is visible, and bends at the corner of a wall.
func TestLazyThetaPlanar(t *testing.T) {
	l, err := NewLattice(10, 10, 1, true)
	require.NoError(t, err)
	th := NewLazyTheta(l)
	start, goal := l.ID(0, 0, 0), l.ID(9, 4, 0)
	r, err := th.Plan(context.Background(), start, goal, nil)
	require.NoError(t, err)
	require.Equal(t, []NodeID{start, goal}, r.Path)
	require.InDelta(t, math.Sqrt(81+16), r.Cost, 1e-12)

	// A wall at x = 4 from y = 0 to 7: the path bends around its end
	// through (3, 8) and (5, 8); a segment through (4, 8) from either
	// side would touch the wall's top cell (4, 7).
	for y := range int32(8) {
		l.SetBlocked(l.ID(4, y, 0), true)
	}
	goal = l.ID(9, 0, 0)
	r, err = th.Plan(context.Background(), start, goal, nil)
	require.NoError(t, err)
	requireAnyAngle(t, l, r, start, goal)
	require.Len(t, r.Path, 4)
	require.Equal(t, []NodeID{start, l.ID(3, 8, 0), l.ID(5, 8, 0), goal}, r.Path)
	require.InDelta(t, math.Sqrt(9+64)+2+math.Sqrt(16+64), r.Cost, 1e-12)
	a, err := NewAStar(l).Plan(context.Background(), start, goal, nil)
	require.NoError(t, err)
	require.Less(t, r.Cost, a.Cost)
}

func TestLazyThetaEdgeCases(t *testing.T) {
	l, err := NewLattice(5, 5, 2, false)
	require.NoError(t, err)
	th := NewLazyTheta(l)
	ctx := context.Background()

	r, err := th.Plan(ctx, 7, 7, nil)
	require.NoError(t, err)
	require.Equal(t, []NodeID{7}, r.Path)
	require.Zero(t, r.Cost)

	l.SetBlocked(3, true)
	_, err = th.Plan(ctx, 3, 7, nil)
	require.ErrorIs(t, err, ErrStartBlocked)
	_, err = th.Plan(ctx, 7, 3, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	_, err = th.Plan(ctx, -1, 3, nil)
	require.ErrorIs(t, err, ErrNodeRange)
	_, err = th.Plan(ctx, 0, 50, nil)
	require.ErrorIs(t, err, ErrNodeRange)

	for z := range int32(2) { // a wall across x = 2 on both layers
		for y := range int32(5) {
			l.SetBlocked(l.ID(2, y, z), true)
		}
	}
	r, err = th.Plan(ctx, l.ID(0, 0, 0), l.ID(4, 4, 1), nil)
	require.ErrorIs(t, err, ErrNoPath)
	require.Equal(t, 20, r.Stats.Expansions) // the cells of x < 2
	require.Nil(t, r.Path)

	l.SetWeight(0, 2)
	_, err = th.Plan(ctx, 0, 1, nil)
	require.ErrorIs(t, err, ErrWeighted)
}

// TestLazyThetaDeadline: a context that ends at its second check stops
// the search after one check interval, quickly, with a partial path of
// visible segments.
func TestLazyThetaDeadline(t *testing.T) {
	l, err := NewLattice(200, 200, 1, true)
	require.NoError(t, err)
	for y := range int32(199) {
		l.SetBlocked(l.ID(100, y, 0), true)
	}
	start, goal := l.ID(0, 0, 0), l.ID(199, 0, 0)
	began := time.Now()
	r, err := NewLazyTheta(l).Plan(&stopAfter{Context: context.Background(), n: 2}, start, goal, nil)
	require.Less(t, time.Since(began), time.Second)
	require.ErrorIs(t, err, ErrTimeout)
	require.True(t, r.Stats.Partial)
	require.Equal(t, checkEvery, r.Stats.Expansions)
	require.Equal(t, start, r.Path[0])
	end := r.Path[len(r.Path)-1]
	require.Less(t, l.Distance(end, goal), l.Distance(start, goal))
	requireAnyAngle(t, l, r, start, end)
}

// TestLazyThetaAllocs: after a first query, a query allocates nothing.
func TestLazyThetaAllocs(t *testing.T) {
	l := clutteredLattice(t, rand.New(rand.NewPCG(9, 10)), 40, 40, 10, false, 0.2, [3]int32{0, 0, 0}, [3]int32{39, 39, 9})
	start, goal := l.ID(0, 0, 0), l.ID(39, 39, 9)
	th := NewLazyTheta(l)
	path := make([]NodeID, 0, 256)
	_, err := th.Plan(context.Background(), start, goal, path)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := th.Plan(context.Background(), start, goal, path); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
}

// TestThetaLineOfSightMoves: every legal lattice move is visible, and
// visibility is symmetric.
func TestThetaLineOfSightMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var edges []Edge
	for i := range 30 {
		l, _, _ := anytimeRandomLattice(rng, i%3 == 0, false)
		for n := range NodeID(l.NumNodes()) {
			if l.Blocked(n) {
				continue
			}
			edges = l.Successors(n, edges[:0])
			for _, e := range edges {
				require.True(t, l.LineOfSight(n, e.To), "case %d: move %d → %d", i, n, e.To)
				require.Equal(t, e.Cost, l.Distance(n, e.To))
			}
		}
	}
}

// TestThetaLineOfSightBruteForce checks LineOfSight on random segments of
// random 3D lattices against two independent exact references: the
// cells whose closed cube meets the segment found cell by cell (slab
// intersection in rationals), and found along the segment (dense
// sampling plus every point where the segment meets a cell face, edge
// or corner).
func TestThetaLineOfSightBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	blockedHits := 0
	for i := range 2000 {
		l, err := NewLattice(2+rng.IntN(7), 2+rng.IntN(7), 1+rng.IntN(7), false)
		require.NoError(t, err)
		density := rng.Float64() * 0.3
		for n := range NodeID(l.NumNodes()) {
			l.SetBlocked(n, rng.Float64() < density)
		}
		a, b := NodeID(rng.IntN(l.NumNodes())), NodeID(rng.IntN(l.NumNodes()))
		ac, bc := losCellOf(l, a), losCellOf(l, b)
		slab := touchedBySlabs(l, ac, bc)
		walk := touchedAlong(l, ac, bc)
		require.Equal(t, slab, walk, "case %d: %v → %v", i, ac, bc)
		free := true
		for c := range slab {
			free = free && !l.Blocked(l.ID(c[0], c[1], c[2]))
		}
		require.Equal(t, free, l.LineOfSight(a, b), "case %d: %v → %v", i, ac, bc)
		require.Equal(t, free, l.LineOfSight(b, a), "case %d: %v → %v", i, bc, ac)
		if !free {
			blockedHits++
		}
	}
	require.Greater(t, blockedHits, 200)
	require.Less(t, blockedHits, 1800)

	// Exact touches: through a corner in 2D, along an edge in 3D.
	l, err := NewLattice(3, 3, 3, false)
	require.NoError(t, err)
	l.SetBlocked(l.ID(1, 0, 0), true)
	require.False(t, l.LineOfSight(l.ID(0, 0, 0), l.ID(2, 2, 0)), "the corner at (0.5, 0.5) touches (1, 0)")
	require.True(t, l.LineOfSight(l.ID(0, 0, 1), l.ID(2, 2, 1)))
	require.False(t, l.LineOfSight(l.ID(0, 0, 0), l.ID(2, 1, 0)), "the edge point (1, 0.5) touches (1, 0)")
	require.False(t, l.LineOfSight(l.ID(0, 0, 0), l.ID(2, 2, 2)), "the corner (0.5, 0.5, 0.5) touches (1, 0, 0)")
	require.True(t, l.LineOfSight(l.ID(0, 1, 0), l.ID(2, 2, 0)))
}

// losCell is a cell's coordinates, x, y, z.
type losCell = [3]int32

// losCellOf returns node n's cell.
func losCellOf(l *Lattice, n NodeID) losCell {
	x, y, z := l.Cell(n)
	return losCell{x, y, z}
}

// losFrac is an exact rational num/den, den > 0, for the references below
// (small numbers: no overflow).
type losFrac struct{ num, den int64 }

func (a losFrac) less(b losFrac) bool { return a.num*b.den < b.num*a.den }

// touchedBySlabs tests each cell around the segment's bounding box: its
// closed cube [c − ½, c + ½]³ meets the segment p + t·(q − p), t ∈ [0,
// 1], when the t ranges of the three slabs and [0, 1] overlap.
func touchedBySlabs(l *Lattice, p, q losCell) map[losCell]bool {
	out := map[losCell]bool{}
	for z := min(p[2], q[2]) - 1; z <= max(p[2], q[2])+1; z++ {
		for y := min(p[1], q[1]) - 1; y <= max(p[1], q[1])+1; y++ {
			for x := min(p[0], q[0]) - 1; x <= max(p[0], q[0])+1; x++ {
				c := losCell{x, y, z}
				if l.ID(x, y, z) != None && slabsMeet(p, q, c) {
					out[c] = true
				}
			}
		}
	}
	return out
}

// slabsMeet reports whether cell c's closed cube meets the segment p–q.
func slabsMeet(p, q, c losCell) bool {
	lo, hi := losFrac{0, 1}, losFrac{1, 1}
	for i := range 3 {
		d, off := int64(q[i]-p[i]), int64(c[i]-p[i])
		if d == 0 {
			if off != 0 {
				return false // the slab misses the segment's line
			}
			continue
		}
		// |off − t·d| ≤ ½: t between (2·off − 1) / 2d and (2·off + 1) / 2d
		t0, t1 := losFrac{2*off - 1, 2 * d}, losFrac{2*off + 1, 2 * d}
		if d < 0 {
			t0, t1 = losFrac{-(2*off + 1), -2 * d}, losFrac{-(2*off - 1), -2 * d}
		}
		if lo.less(t0) {
			lo = t0
		}
		if t1.less(hi) {
			hi = t1
		}
	}
	return !hi.less(lo)
}

// touchedAlong collects the cells whose closed cube holds a point of the
// segment, over 16 points per cell of length and every point where a
// coordinate of the segment is a half integer (a face, edge or corner
// between cells), in exact rationals.
func touchedAlong(l *Lattice, p, q losCell) map[losCell]bool {
	out := map[losCell]bool{}
	var ts []losFrac
	steps := int64(16 * (1 + abs(q[0]-p[0]) + abs(q[1]-p[1]) + abs(q[2]-p[2])))
	for j := range steps + 1 {
		ts = append(ts, losFrac{j, steps})
	}
	for i := range 3 {
		n := int64(abs(q[i] - p[i]))
		for k := range n {
			ts = append(ts, losFrac{2*k + 1, 2 * n}) // the coordinate is p ± (k + ½)
		}
	}
	for _, t := range ts {
		var choices [3][]int32
		for i := range 3 {
			// twice the coordinate, 2p + 2t·d = v / t.den, v ≥ 0
			v := 2*int64(p[i])*t.den + 2*t.num*int64(q[i]-p[i])
			if v%t.den == 0 && v/t.den%2 != 0 { // on a face: both sides
				h := v / t.den
				choices[i] = []int32{int32((h - 1) / 2), int32((h + 1) / 2)}
				continue
			}
			choices[i] = []int32{int32((v + t.den) / (2 * t.den))} // the nearest integer
		}
		for _, x := range choices[0] {
			for _, y := range choices[1] {
				for _, z := range choices[2] {
					if l.ID(x, y, z) != None {
						out[losCell{x, y, z}] = true
					}
				}
			}
		}
	}
	return out
}
