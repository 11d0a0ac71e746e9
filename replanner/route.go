package replanner

import (
	"fmt"

	"github.com/navnode/navnode/planners"
)

// route is the raw lattice path being followed: the nodes as planned,
// their cumulative cost, and how far the robot has come along them.
type route struct {
	nodes []planners.NodeID // start first, goal last; empty: no path
	cum   []float64         // cum[i]: cost from nodes[0] to nodes[i], lattice units [len = len(nodes)]
	head  int               // the robot's node: nodes[head:] remains
	at    []int32           // per lattice node: its index in nodes + 1, 0 off the path [len = NumNodes]
	edges []planners.Edge
}

// empty reports whether there is no path.
func (r *route) empty() bool { return len(r.nodes) == 0 }

// clear drops the path.
func (r *route) clear() {
	for _, n := range r.nodes {
		r.at[n] = 0
	}
	r.nodes, r.cum, r.head = r.nodes[:0], r.cum[:0], 0
}

// set makes path (copied) the route, robot at its first node. It fails,
// leaving no path, when a step is not a lattice move.
func (r *route) set(g *lattice, path []planners.NodeID) error {
	r.clear()
	if len(r.at) < g.NumNodes() {
		r.at = make([]int32, g.NumNodes())
	}
	r.nodes = append(r.nodes, path...)
	return r.refresh(g)
}

// refresh recomputes the cumulative costs from the lattice's current
// edges, checking that every remaining step is still a legal move; it
// drops the path when one is not.
func (r *route) refresh(g *lattice) error {
	for i, n := range r.nodes {
		r.at[n] = int32(i + 1)
	}
	r.cum = append(r.cum[:0], 0)
	for i := 1; i < len(r.nodes); i++ {
		c, ok := r.step(g, r.nodes[i-1], r.nodes[i])
		if !ok && i > r.head {
			err := fmt.Errorf("replanner: path step %d, node %d to %d, is not a lattice move", i, r.nodes[i-1], r.nodes[i])
			r.clear()
			return err
		}
		r.cum = append(r.cum, r.cum[i-1]+c)
	}
	return nil
}

// step returns the cost of the lattice move from a to b.
func (r *route) step(g *lattice, a, b planners.NodeID) (float64, bool) {
	r.edges = g.Successors(a, r.edges[:0])
	for _, e := range r.edges {
		if e.To == b {
			return e.Cost, true
		}
	}
	return 0, false
}

// index returns the position of node n on the remaining path, or -1.
func (r *route) index(n planners.NodeID) int {
	if n < 0 || int(n) >= len(r.at) {
		return -1
	}
	if i := int(r.at[n]) - 1; i >= r.head {
		return i
	}
	return -1
}

// remaining returns the path from the robot's node on.
func (r *route) remaining() []planners.NodeID { return r.nodes[r.head:] }

// cost returns the cost of the remaining path.
func (r *route) cost() float64 {
	if r.empty() {
		return 0
	}
	return r.cum[len(r.cum)-1] - r.cum[r.head]
}

// crosses reports whether a change to cell c can alter a remaining move
// of the path: c is a node of it, or inside the bounding box of one of
// its moves (a lattice move needs its whole box free, and costs by its
// two ends' weights). Only the 27 cells around c can hold such a move.
func (r *route) crosses(g *lattice, c planners.NodeID) bool {
	if r.empty() {
		return false
	}
	x, y, z := g.Cell(c)
	for dz := int32(-1); dz <= 1; dz++ {
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				i := r.index(g.ID(x+dx, y+dy, z+dz))
				switch {
				case i < 0:
				case dx == 0 && dy == 0 && dz == 0:
					return true
				case i > r.head && inMoveBox(g, r.nodes[i-1], r.nodes[i], x, y, z),
					i+1 < len(r.nodes) && inMoveBox(g, r.nodes[i], r.nodes[i+1], x, y, z):
					return true
				}
			}
		}
	}
	return false
}

// inMoveBox reports whether cell (x, y, z) is in the bounding box of the
// move from a to b.
func inMoveBox(g *lattice, a, b planners.NodeID, x, y, z int32) bool {
	ax, ay, az := g.Cell(a)
	bx, by, bz := g.Cell(b)
	return x >= min(ax, bx) && x <= max(ax, bx) && y >= min(ay, by) && y <= max(ay, by) &&
		z >= min(az, bz) && z <= max(az, bz)
}
