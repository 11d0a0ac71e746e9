package planners

import (
	"math"
	"math/bits"
)

// The incremental planners (LPA*, D* Lite, AD*) take a fast path when
// their graph is a *Lattice itself, tested once when a search starts (the
// same test as A*'s: see astar_lattice.go). Their expansions then read
// the lattice directly: the legal moves of a cell come from its bitmap
// (legalMoves), an edge's cost from the move's length and the two cells'
// weights, and a node's cell from two multiplications instead of three
// divisions (divisor). Lattice moves are symmetric, so a node's
// successors and predecessors are the same cells at the same costs, and
// rhs is a tight loop over one move mask. The moves come in move index
// order, the order of Lattice.Successors, so ties resolve as in the
// generic search: the fast path finds the same g, rhs, back pointers and
// open list, expansion by expansion (TestIncrementalLatticeFastPath).
//
// One shortcut keeps that: when a raise recomputes the rhs of a node
// whose rhs came through the raised node (AD*), or a stale rhs is
// recomputed (LPA* and D* Lite: see lpa.lazy), the old rhs is a floor
// (only g values rose), so the scan stops at the first move that still
// reaches it, the move the full scan would have kept.

// divisor divides node ids by a fixed d without a division instruction:
// n / d = ⌊n·m / 2⁶⁴⌋ with m = ⌈2⁶⁴ / d⌉, exact for every n and d below
// 2³² (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
// 2019, section 4). d = 1 has no 64-bit m and is kept as m = 0.
type divisor struct {
	d uint64
	m uint64
}

func newDivisor(d uint32) divisor {
	if d <= 1 {
		return divisor{d: 1}
	}
	return divisor{d: uint64(d), m: math.MaxUint64/uint64(d) + 1}
}

// divmod returns n / d and n % d.
func (v divisor) divmod(n uint64) (q, r uint64) {
	if v.m == 0 {
		return n, 0
	}
	q, _ = bits.Mul64(n, v.m)
	return q, n - q*v.d
}

// latGeom is the shape of the lattice an incremental search runs on.
type latGeom struct {
	l       *Lattice
	byW     divisor // W
	byPlane divisor // W·H
}

func newLatGeom(l *Lattice) latGeom {
	return latGeom{l: l, byW: newDivisor(uint32(l.W)), byPlane: newDivisor(uint32(l.W * l.H))}
}

// cell is Lattice.Cell without divisions.
func (q *latGeom) cell(n NodeID) (x, y, z int32) {
	zz, r := q.byPlane.divmod(uint64(uint32(n)))
	yy, xx := q.byW.divmod(r)
	return int32(xx), int32(yy), int32(zz)
}

// cost is the cost of move m between nodes a and b, as Lattice.Successors
// computes it (in either direction: the weights' sum is symmetric).
func (q *latGeom) cost(m int, a, b NodeID) float64 {
	c := latticeMoves[m].length
	if w := q.l.weight; w != nil {
		c *= (float64(w[a]) + float64(w[b])) / 2
	}
	return c
}

// latRecompute is recompute on a lattice for node n at (x, y, z): rhs(n)
// is the least c + g over n's moves, untouched neighbours (g = ∞)
// skipped. floor is a bound no move's c + g can be below (-∞ if none is
// known): the scan stops at the first move that reaches it, the one a
// full scan would keep, since it keeps the first of equal minima.
func (p *lpa) latRecompute(n NodeID, x, y, z int32, floor float64) {
	if n == p.root {
		return
	}
	st, q := &p.st, &p.geo
	best, bp := math.Inf(1), None
	if l := q.l; !l.Blocked(n) {
		nodes, cur := st.nodes, st.cur
		for legal := l.legalMoves(int32(n), x, y, z); legal != 0; legal &= legal - 1 {
			m := bits.TrailingZeros32(legal)
			v := n + NodeID(l.step[m])
			nv := &nodes[v]
			if nv.stamp != cur {
				continue
			}
			if c := q.cost(m, n, v) + nv.g; c < best {
				best, bp = c, v
				if c <= floor {
					break
				}
			}
		}
	}
	st.nodes[n].rhs, st.nodes[n].bp = best, bp
}

// latLower is lower on a lattice (lines 15′–17′).
func (p *lpa) latLower(u NodeID) {
	st, q := &p.st, &p.geo
	st.nodes[u].g = st.nodes[u].rhs
	if p.anytime {
		p.closed[u] = p.pass
	}
	p.open.remove(int(st.pos[u]), st.pos)
	l := q.l
	if l.Blocked(u) {
		return // no edges (only the root can be blocked and over-consistent)
	}
	gu := st.nodes[u].g
	x, y, z := q.cell(u)
	for legal := l.legalMoves(int32(u), x, y, z); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros32(legal)
		s := u + NodeID(l.step[m])
		p.touch(s)
		if c := q.cost(m, u, s) + gu; c < st.nodes[s].rhs && s != p.root {
			st.nodes[s].rhs, st.nodes[s].bp = c, u
			p.queue(s)
		}
	}
}

// latRaise is raise on a lattice (lines 18′–20′).
func (p *lpa) latRaise(u NodeID) {
	st, q := &p.st, &p.geo
	st.nodes[u].g = math.Inf(1)
	p.queue(u)
	l := q.l
	if l.Blocked(u) {
		return
	}
	x, y, z := q.cell(u)
	for legal := l.legalMoves(int32(u), x, y, z); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros32(legal)
		s := u + NodeID(l.step[m])
		p.touch(s)
		if st.nodes[s].bp == u {
			if p.lazy(s) {
				st.nodes[s].bp = stale
			} else {
				// Only g(u) rose since rhs(s) was the least c + g over
				// s's moves (lower and raise keep it so; Update
				// recomputes nodes whose edges changed): it is still a
				// floor (and finite, as bp(s) is a node).
				mv := &latticeMoves[m]
				p.latRecompute(s, x+mv.dx, y+mv.dy, z+mv.dz, min(st.nodes[s].rhs, math.MaxFloat64))
			}
			p.queue(s)
		}
	}
}
