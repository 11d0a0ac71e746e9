package planners

import (
	"fmt"
	"math"
	"math/bits"
)

// Lattice is a box of W×H×D cells, each free or blocked, as a Graph: node
// id = x + W·(y + H·z). Moves go to the 26 neighbours (8 in the plane when
// D is 1, or with Planar) and cost 1, √2 or √3 times the average of the
// two cells' weights (1 without weights). A move is legal only when every
// cell of its bounding box is free: no corner cutting, as the Moving AI
// voxel benchmarks define it.
type Lattice struct {
	W, H, D int32
	blocked []uint64  // bit per node, and one spare word so three bits can be read from any node [len = ⌈W·H·D/64⌉ + 1]
	weight  []float32 // per node, ≥ 1; nil: all 1 [len = W·H·D]
	planar  bool      // moves stay in the x-y plane
	step    [27]int32 // id offset of each move, by move index (see latticeMoves)
}

// maxLatticeNodes bounds a lattice: node ids are int32.
const maxLatticeNodes = math.MaxInt32

// NewLattice returns a lattice of free cells; planar restricts moves to
// the x-y plane (a ground robot's 8-connected grid).
func NewLattice(w, h, d int, planar bool) (*Lattice, error) {
	if w <= 0 || h <= 0 || d <= 0 || int64(w)*int64(h)*int64(d) > maxLatticeNodes {
		return nil, fmt.Errorf("planners: lattice of %d×%d×%d cells", w, h, d)
	}
	l := &Lattice{W: int32(w), H: int32(h), D: int32(d), planar: planar}
	n := int64(w) * int64(h) * int64(d)
	l.blocked = make([]uint64, (n+63)/64+1)
	for m, mv := range latticeMoves {
		l.step[m] = l.offset(mv.dx, mv.dy, mv.dz)
	}
	return l, nil
}

func (l *Lattice) offset(dx, dy, dz int32) int32 { return dx + l.W*(dy+l.H*dz) }

// ID returns the node of cell (x, y, z), or None outside the box.
func (l *Lattice) ID(x, y, z int32) NodeID {
	if x < 0 || y < 0 || z < 0 || x >= l.W || y >= l.H || z >= l.D {
		return None
	}
	return NodeID(x + l.W*(y+l.H*z))
}

// Cell returns the coordinates of node n.
func (l *Lattice) Cell(n NodeID) (x, y, z int32) {
	i := int32(n)
	return i % l.W, i / l.W % l.H, i / (l.W * l.H)
}

// SetBlocked blocks or frees node n.
func (l *Lattice) SetBlocked(n NodeID, blocked bool) {
	if blocked {
		l.blocked[n>>6] |= 1 << (n & 63)
	} else {
		l.blocked[n>>6] &^= 1 << (n & 63)
	}
}

// Blocked reports whether node n is blocked.
func (l *Lattice) Blocked(n NodeID) bool { return l.blocked[n>>6]&(1<<(n&63)) != 0 }

// SetWeight sets the traversal weight of node n (≥ 1; moves cost their
// length times the average weight of their two ends).
func (l *Lattice) SetWeight(n NodeID, w float32) {
	if w != w || w > math.MaxFloat32 {
		panic(fmt.Sprintf("planners: Lattice.SetWeight(%d, %v): want a finite weight", n, w))
	}
	if l.weight == nil {
		l.weight = make([]float32, int(l.W)*int(l.H)*int(l.D))
		for i := range l.weight {
			l.weight[i] = 1
		}
	}
	l.weight[n] = max(w, 1)
}

// Around appends to dst node n and every neighbour whose moves may cross
// n's cell: the nodes whose edges change when n is blocked, freed or
// reweighted.
func (l *Lattice) Around(n NodeID, dst []NodeID) []NodeID {
	x, y, z := l.Cell(n)
	for dz := int32(-1); dz <= 1; dz++ {
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				if v := l.ID(x+dx, y+dy, z+dz); v != None {
					dst = append(dst, v)
				}
			}
		}
	}
	return dst
}

// NumNodes implements Graph.
func (l *Lattice) NumNodes() int { return int(l.W) * int(l.H) * int(l.D) }

// Passable implements Graph.
func (l *Lattice) Passable(n NodeID) bool { return !l.Blocked(n) }

// Successors implements Graph. Edges come in move index order: z, then
// y, then x offset, from -1 to 1.
func (l *Lattice) Successors(n NodeID, dst []Edge) []Edge {
	if l.Blocked(n) {
		return dst // a blocked cell has no moves, in or out (see Graph.Passable)
	}
	x, y, z := l.Cell(n)
	for legal := l.legalMoves(int32(n), x, y, z); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros32(legal)
		to := n + NodeID(l.step[m])
		c := latticeMoves[m].length
		if l.weight != nil {
			c *= (float64(l.weight[n]) + float64(l.weight[to])) / 2
		}
		dst = append(dst, Edge{To: to, Cost: c})
	}
	return dst
}

// Predecessors implements Graph: lattice moves are symmetric.
func (l *Lattice) Predecessors(n NodeID, dst []Edge) []Edge { return l.Successors(n, dst) }

// Heuristic implements Graph: the octile distance in 3D, the cost of the
// cheapest move sequence on an empty lattice.
func (l *Lattice) Heuristic(a, b NodeID) float64 {
	ax, ay, az := l.Cell(a)
	bx, by, bz := l.Cell(b)
	return octile(ax-bx, ay-by, az-bz)
}

// octile is the cost of the cheapest move sequence covering the offset
// (dx, dy, dz) on an empty lattice: √3 per diagonal step in 3D, √2 per
// diagonal step in 2D, 1 per straight step.
func octile(dx, dy, dz int32) float64 {
	dx, dy, dz = abs(dx), abs(dy), abs(dz)
	lo, hi := min(dx, dy, dz), max(dx, dy, dz)
	mid := dx + dy + dz - lo - hi
	return math.Sqrt(3)*float64(lo) + math.Sqrt(2)*float64(mid-lo) + float64(hi-mid)
}

func abs(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

var _ Graph = (*Lattice)(nil)
