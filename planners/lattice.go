package planners

import (
	"fmt"
	"math"
)

// Lattice is a box of W×H×D cells, each free or blocked, as a Graph: node
// id = x + W·(y + H·z). Moves go to the 26 neighbours (8 in the plane when
// D is 1, or with Planar) and cost 1, √2 or √3 times the average of the
// two cells' weights (1 without weights). A move is legal only when every
// cell of its bounding box is free: no corner cutting, as the Moving AI
// voxel benchmarks define it.
type Lattice struct {
	W, H, D int32
	blocked []uint64  // bit per node
	weight  []float32 // per node, ≥ 1; nil: all 1
	moves   []move
}

// move is one of the lattice's neighbour offsets, with the cells of its
// bounding box other than the start.
type move struct {
	dx, dy, dz int32
	step       int32   // id offset
	length     float64 // 1, √2 or √3
	box        []int32 // id offsets of the cells that must be free, the target included
}

// maxLatticeNodes bounds a lattice: node ids are int32.
const maxLatticeNodes = math.MaxInt32

// NewLattice returns a lattice of free cells; planar restricts moves to
// the x-y plane (a ground robot's 8-connected grid).
func NewLattice(w, h, d int, planar bool) (*Lattice, error) {
	if w <= 0 || h <= 0 || d <= 0 || int64(w)*int64(h)*int64(d) > maxLatticeNodes {
		return nil, fmt.Errorf("planners: lattice of %d×%d×%d cells", w, h, d)
	}
	l := &Lattice{W: int32(w), H: int32(h), D: int32(d)}
	n := int64(w) * int64(h) * int64(d)
	l.blocked = make([]uint64, (n+63)/64)
	for dz := int32(-1); dz <= 1; dz++ {
		if planar && dz != 0 {
			continue
		}
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				if dx == 0 && dy == 0 && dz == 0 {
					continue
				}
				m := move{dx: dx, dy: dy, dz: dz, step: l.offset(dx, dy, dz)}
				m.length = math.Sqrt(float64(dx*dx + dy*dy + dz*dz))
				for bz := min(0, dz); bz <= max(0, dz); bz++ {
					for by := min(0, dy); by <= max(0, dy); by++ {
						for bx := min(0, dx); bx <= max(0, dx); bx++ {
							if bx != 0 || by != 0 || bz != 0 {
								m.box = append(m.box, l.offset(bx, by, bz))
							}
						}
					}
				}
				l.moves = append(l.moves, m)
			}
		}
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

// Successors implements Graph.
func (l *Lattice) Successors(n NodeID, dst []Edge) []Edge {
	x, y, z := l.Cell(n)
	i := int32(n)
	for mi := range l.moves {
		m := &l.moves[mi]
		if x+m.dx < 0 || x+m.dx >= l.W || y+m.dy < 0 || y+m.dy >= l.H || z+m.dz < 0 || z+m.dz >= l.D {
			continue
		}
		ok := true
		for _, o := range m.box {
			if j := i + o; l.blocked[j>>6]&(1<<(j&63)) != 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		to := NodeID(i + m.step)
		c := m.length
		if l.weight != nil {
			c *= float64(l.weight[n]+l.weight[to]) / 2
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
	d := [3]int32{abs(ax - bx), abs(ay - by), abs(az - bz)}
	lo, mid, hi := min(d[0], d[1], d[2]), d[0]+d[1]+d[2]-min(d[0], d[1], d[2])-max(d[0], d[1], d[2]), max(d[0], d[1], d[2])
	return math.Sqrt(3)*float64(lo) + math.Sqrt(2)*float64(mid-lo) + float64(hi-mid)
}

func abs(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

var _ Graph = (*Lattice)(nil)
