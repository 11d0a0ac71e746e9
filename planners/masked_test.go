package planners

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// maskedDijkstra is the reference for Masked: Dijkstra over l's moves
// between cells with in set, written without Masked.
func maskedDijkstra(l *Lattice, in []bool, start, goal NodeID) float64 {
	dist := make([]float64, l.NumNodes())
	done := make([]bool, l.NumNodes())
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[start] = 0
	var edges []Edge
	for {
		u := None
		for v := range dist {
			if !done[v] && !math.IsInf(dist[v], 1) && (u == None || dist[v] < dist[u]) {
				u = NodeID(v)
			}
		}
		if u == None || u == goal {
			return dist[goal]
		}
		done[u] = true
		for _, e := range l.Successors(u, edges[:0]) {
			if in[e.To] {
				dist[e.To] = min(dist[e.To], dist[u]+e.Cost)
			}
		}
	}
}

// randomMask returns a mask of l's cells: random boxes, then random cells,
// as a bitset and as a []bool.
func randomMask(rng *rand.Rand, l *Lattice) ([]uint64, []bool) {
	n := l.NumNodes()
	bits, in := make([]uint64, (n+63)/64), make([]bool, n)
	set := func(v NodeID) { bits[v>>6] |= 1 << (v & 63); in[v] = true }
	for range rng.IntN(4) {
		x0, y0, z0 := rng.Int32N(l.W), rng.Int32N(l.H), rng.Int32N(l.D)
		x1, y1, z1 := x0+rng.Int32N(l.W), y0+rng.Int32N(l.H), z0+rng.Int32N(l.D)
		for z := z0; z <= min(z1, l.D-1); z++ {
			for y := y0; y <= min(y1, l.H-1); y++ {
				for x := x0; x <= min(x1, l.W-1); x++ {
					set(l.ID(x, y, z))
				}
			}
		}
	}
	density := rng.Float64()
	for v := range NodeID(n) {
		if rng.Float64() < density {
			set(v)
		}
	}
	return bits, in
}

// TestMaskedEqualsReference: on random lattices and masks, A* and AD* on
// Masked find the cost of Dijkstra restricted to the mask, on a path that
// stays in it. That cost lies between A* on the whole lattice and A* on
// the lattice with the cells outside the mask blocked: blocking also
// forbids diagonal moves past those cells (no corner cutting), which
// Masked, removing only nodes, allows.
func TestMaskedEqualsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	ctx := context.Background()
	paths := 0
	for i := range 1000 {
		planar := i%2 == 0
		d := 1 + rng.IntN(5)
		if planar {
			d = 1
		}
		l, err := NewLattice(2+rng.IntN(10), 2+rng.IntN(10), d, planar)
		require.NoError(t, err)
		density := rng.Float64() * 0.3
		for v := range NodeID(l.NumNodes()) {
			l.SetBlocked(v, rng.Float64() < density)
			if i%3 == 0 {
				l.SetWeight(v, 1+rng.Float32()*2)
			}
		}
		bits, in := randomMask(rng, l)
		start, goal := NodeID(rng.IntN(l.NumNodes())), NodeID(rng.IntN(l.NumNodes()))
		l.SetBlocked(start, false)
		l.SetBlocked(goal, false)
		m := NewMasked(l, bits)
		r, err := NewAStar(m).Plan(ctx, start, goal, nil)
		switch {
		case !in[start]:
			require.ErrorIs(t, err, ErrStartBlocked, "case %d", i)
			continue
		case !in[goal]:
			require.ErrorIs(t, err, ErrGoalBlocked, "case %d", i)
			continue
		}
		want := maskedDijkstra(l, in, start, goal)
		ad, adErr := NewADStar(m).Plan(ctx, start, goal, nil)
		if math.IsInf(want, 1) {
			require.ErrorIs(t, err, ErrNoPath, "case %d", i)
			require.ErrorIs(t, adErr, ErrNoPath, "case %d", i)
			continue
		}
		require.NoError(t, err, "case %d", i)
		require.NoError(t, adErr, "case %d", i)
		require.InDelta(t, want, r.Cost, 1e-9, "case %d", i)
		require.InDelta(t, want, ad.Cost, 1e-9, "case %d: AD*", i)
		for _, v := range r.Path {
			require.True(t, in[v], "case %d: node %d outside the mask", i, v)
		}
		paths++

		whole, err := NewAStar(l).Plan(ctx, start, goal, nil)
		require.NoError(t, err)
		require.LessOrEqual(t, whole.Cost, r.Cost+1e-9, "case %d", i)
		blocked, err := NewLattice(int(l.W), int(l.H), int(l.D), planar)
		require.NoError(t, err)
		for v := range NodeID(l.NumNodes()) {
			blocked.SetBlocked(v, l.Blocked(v) || !in[v])
			if l.weight != nil {
				blocked.SetWeight(v, l.weight[v])
			}
		}
		if b, err := NewAStar(blocked).Plan(ctx, start, goal, nil); err == nil {
			require.GreaterOrEqual(t, b.Cost, r.Cost-1e-9, "case %d", i)
		}
	}
	require.Greater(t, paths, 250)
}

// TestMaskedFullAndEmpty: a full mask is the graph itself, an empty one
// has no passable node; a short mask panics.
func TestMaskedFullAndEmpty(t *testing.T) {
	l, err := NewLattice(70, 3, 1, true)
	require.NoError(t, err)
	full := make([]uint64, 4)
	for i := range full {
		full[i] = ^uint64(0)
	}
	m := NewMasked(l, full)
	var a, b []Edge
	for v := range NodeID(l.NumNodes()) {
		a, b = l.Successors(v, a[:0]), m.Successors(v, b[:0])
		require.Equal(t, a, b)
		require.Equal(t, a, m.Predecessors(v, nil))
		require.True(t, m.Passable(v))
		require.Equal(t, l.Heuristic(v, 0), m.Heuristic(v, 0))
	}
	m = NewMasked(l, make([]uint64, 4))
	require.False(t, m.Passable(5))
	require.Empty(t, m.Successors(5, nil))
	require.Panics(t, func() { NewMasked(l, make([]uint64, 3)) })
}

// TestMaskedAllocs: neighbour calls into a buffer with room allocate
// nothing.
func TestMaskedAllocs(t *testing.T) {
	l, err := NewLattice(20, 20, 20, false)
	require.NoError(t, err)
	bits := make([]uint64, (l.NumNodes()+63)/64)
	for i := range bits {
		bits[i] = 0x5555555555555555
	}
	m := NewMasked(l, bits)
	dst := make([]Edge, 0, 32)
	v := l.ID(10, 10, 10)
	allocs := testing.AllocsPerRun(100, func() {
		dst = m.Successors(v, dst[:0])
		dst = m.Predecessors(v, dst[:0])
		_ = m.Passable(v)
		_ = m.Heuristic(v, 0)
	})
	require.Zero(t, allocs)
}

// TestAStarMaskedFastPath: A* on a Masked Lattice takes the lattice fast
// path; on random lattices and masks (a tunnel-like band, or random
// cells), with the mask changing between queries, it finds the costs, and
// reports the failures, of A* on the same Masked through the Graph
// interface, and its paths keep to the mask.
func TestAStarMaskedFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	for i := range 120 {
		w, h, d := 2+rng.IntN(30), 2+rng.IntN(30), 1+rng.IntN(12)
		l, err := NewLattice(w, h, d, d == 1)
		require.NoError(t, err)
		for n := range NodeID(l.NumNodes()) {
			l.SetBlocked(n, rng.Float64() < 0.15)
			if i%3 == 1 {
				l.SetWeight(n, 1+rng.Float32()*2)
			}
		}
		m := NewMasked(l, make([]uint64, (l.NumNodes()+63)/64))
		fast, slow := NewAStar(m), NewAStar(graphOnly{m})
		_, _, ok := latticeOf(m)
		require.True(t, ok)
		for q := range 15 {
			clear(m.Allowed)
			band := rng.IntN(2) == 0
			cy := rng.IntN(h)
			for n := range NodeID(l.NumNodes()) {
				_, y, _ := l.Cell(n)
				if band && abs(int32(cy)-y) <= 2 || !band && rng.Float64() < 0.7 {
					m.Allowed[n>>6] |= 1 << (n & 63)
				}
			}
			start, goal := NodeID(rng.IntN(l.NumNodes())), NodeID(rng.IntN(l.NumNodes()))
			want, werr := slow.Plan(ctx, start, goal, nil)
			got, err := fast.Plan(ctx, start, goal, nil)
			what := []any{"case %d query %d: %d×%d×%d band %v", i, q, w, h, d, band}
			if werr != nil {
				require.Error(t, err, what...)
				require.Equal(t, werr.Error()[:20], err.Error()[:20], what...) // the same kind of failure
				continue
			}
			require.NoError(t, err, what...)
			require.InDelta(t, want.Cost, got.Cost, 1e-9*max(1, want.Cost), what...)
			require.InDelta(t, got.Cost, pathCost(t, l, got.Path), 1e-9*max(1, got.Cost), what...)
			for _, n := range got.Path {
				require.True(t, m.In(n), what...)
			}
		}
	}
}

// fullMask is a mask that holds every node of l.
func fullMask(l *Lattice) []uint64 {
	bits := make([]uint64, (l.NumNodes()+63)/64)
	for k := range bits {
		bits[k] = ^uint64(0)
	}
	return bits
}

// TestADStarReachedMayLeave: after a pass at ε = 2.5, AD* on a Masked
// lattice loses every node of the mask it has not reached (Reached), with
// no Update, and its passes down to ε = 1 still find the cost of A* from
// scratch on the smaller mask, on a path inside it. Reached is exactly a
// finite g or rhs.
func TestADStarReachedMayLeave(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	ctx := context.Background()
	removed, paths := 0, 0
	for i := range 600 {
		planar := i%2 == 0
		d := 1 + rng.IntN(6)
		if planar {
			d = 1
		}
		l := changingLattice(t, rng, 3+rng.IntN(14), 3+rng.IntN(14), d, planar, rng.Float64()*0.3, i%3 == 0)
		start, goal := randomFree(rng, l), randomFree(rng, l)
		bits := fullMask(l)
		ad := NewADStar(NewMasked(l, bits))
		ad.EpsilonMin = 2.5
		if _, err := ad.Plan(ctx, start, goal, nil); err != nil {
			require.ErrorIs(t, err, ErrNoPath, "case %d", i)
			continue
		}
		for v := range NodeID(l.NumNodes()) {
			st := &ad.p.st
			finite := st.nodes[v].stamp == st.cur && (!math.IsInf(st.nodes[v].g, 1) || !math.IsInf(st.nodes[v].rhs, 1))
			require.Equal(t, finite, ad.Reached(v), "case %d: node %d", i, v)
			if !ad.Reached(v) && rng.IntN(2) == 0 {
				bits[v>>6] &^= 1 << (v & 63)
				removed++
			}
		}
		ad.EpsilonMin = 1
		r, err := ad.Plan(ctx, start, goal, nil)
		require.NoError(t, err, "case %d", i)
		want, err := NewAStar(NewMasked(l, bits)).Plan(ctx, start, goal, nil)
		require.NoError(t, err, "case %d", i)
		require.InDelta(t, want.Cost, r.Cost, 1e-9, "case %d", i)
		for _, v := range r.Path {
			require.True(t, inSet(bits, v), "case %d: node %d left the mask", i, v)
		}
		paths++
	}
	require.Greater(t, paths, 300)
	require.Greater(t, removed, 10000)
	require.False(t, NewADStar(nil).Reached(0), "before any search")
}
