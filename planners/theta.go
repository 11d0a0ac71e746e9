package planners

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// AnyAngleGraph is what an any-angle planner needs beyond Graph: which
// nodes see each other and how far apart they are. Paths are sequences of
// straight segments between nodes that see each other; a segment costs
// its Distance. The graph's edges only say which nodes are neighbours.
type AnyAngleGraph interface {
	Graph
	// LineOfSight reports whether the straight segment from a to b is
	// free. It is symmetric and holds for every edge of the graph.
	LineOfSight(a, b NodeID) bool
	// Distance is the length of the segment from a to b, the cost of
	// moving along it: a metric (symmetric, triangle inequality) equal to
	// the cost of every edge of the graph.
	Distance(a, b NodeID) float64
}

// ErrWeighted: an any-angle planner was given a graph whose edge costs
// are not segment lengths, such as a lattice with cell weights.
var ErrWeighted = errors.New("planners: any-angle search needs unweighted costs")

// anyAngleWeighter is implemented by graphs that can say their edge costs
// differ from their Distance; Lazy Theta* rejects them.
type anyAngleWeighter interface{ anyAngleWeighted() bool }

// LazyTheta is Lazy Theta* (Nash, Koenig and Tovey, "Lazy Theta*:
// Any-angle path planning and path length analysis in 3D", AAAI 2010),
// the lazy form of Basic Theta* (Nash, Daniel, Koenig and Felner 2007).
// Like A* it expands nodes by f = g + h, but a node's parent may be any
// node it sees, not only a neighbour: when s is expanded each neighbour
// s' is given parent(s) as its parent (Path 2, ComputeCost) without a
// line-of-sight check, and the check is made once, when s' is expanded
// (SetVertex); if it fails, s' takes its best expanded neighbour instead
// (Path 1). h is the straight-line Distance to the goal.
//
// One change to the paper: when SetVertex raises g(s') so that f(s') is
// above the smallest f in OPEN, s' goes back into OPEN instead of being
// expanded. With it, by the argument that makes A* optimal, every node
// is expanded with g no larger than its shortest path in the graph:
// paths are never longer than A*'s. Without it, a node whose good
// neighbours are not yet expanded keeps a worse Path 1: on 20,000 random
// small lattices the paper's version was longer than A* 172 times.
//
// Comments name the paper's procedures: Main, SetVertex, UpdateVertex,
// ComputeCost. One LazyTheta serves many queries on its graph and
// allocates its per-node state once.
type LazyTheta struct {
	g     AnyAngleGraph
	st    searchState // parent: the previous waypoint; the start is its own parent
	open  openList
	edges []Edge
}

// NewLazyTheta returns a Lazy Theta* planner over g.
func NewLazyTheta(g AnyAngleGraph) *LazyTheta { return &LazyTheta{g: g} }

// Plan searches from start to goal and writes the path's waypoints,
// start first, goal last, into dst's storage; Cost is the sum of the
// segments' lengths and Stats.Epsilon is 1: no path of the graph's edges
// is shorter. When ctx ends first it returns ErrTimeout with a partial
// path to the expanded node nearest the goal.
func (t *LazyTheta) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	if err := checkEnds(t.g, start, goal); err != nil {
		return Result{}, err
	}
	if w, ok := t.g.(anyAngleWeighter); ok && w.anyAngleWeighted() {
		return Result{}, fmt.Errorf("%w: lattice with cell weights", ErrWeighted)
	}
	g, st := t.g, &t.st
	st.reset(g.NumNodes()) // Main: OPEN = CLOSED = ∅, g(start) = 0, parent(start) = start
	t.open.items = t.open.items[:0]
	st.touch(start)
	st.g[start], st.parent[start] = 0, start
	h0 := g.Distance(start, goal)
	t.open.push(heapItem{key: h0, id: start}, st.pos)
	stats := Stats{Touched: 1, Epsilon: 1}
	best, bestH := start, h0
	for len(t.open.items) > 0 {
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			stats.Elapsed, stats.Partial = time.Since(began), true
			return Result{Path: t.pathTo(best, dst), Cost: st.g[best], Stats: stats}, ErrTimeout
		}
		s := t.open.pop(st.pos).id
		if t.settle(s, goal) {
			continue
		}
		if s == goal {
			stats.Elapsed = time.Since(began)
			return Result{Path: t.pathTo(goal, dst), Cost: st.g[goal], Stats: stats}, nil
		}
		st.pos[s] = closed
		stats.Expansions++
		if h := g.Distance(s, goal); h < bestH {
			best, bestH = s, h
		}
		stats.Touched += t.expand(s, goal)
	}
	stats.Elapsed = time.Since(began)
	return Result{Stats: stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, stats.Expansions)
}

// settle runs SetVertex on s, just popped from OPEN, and reports whether
// s went back into OPEN (our change, see LazyTheta) because its corrected
// f is above the least f left there.
func (t *LazyTheta) settle(s, goal NodeID) bool {
	st := &t.st
	if !t.setVertex(s) || len(t.open.items) == 0 {
		return false
	}
	f := st.g[s] + t.g.Distance(s, goal)
	if f <= t.open.top().key {
		return false
	}
	t.open.push(heapItem{key: f, tie: -st.g[s], id: s}, st.pos)
	return true
}

// expand is the loop of Main over the neighbours of s with UpdateVertex
// and ComputeCost: each unexpanded neighbour s' may take parent(s) as
// its parent, assuming parent(s) sees s' (Path 2; SetVertex checks when
// s' is expanded). It returns how many nodes it touched.
func (t *LazyTheta) expand(s, goal NodeID) int {
	g, st := t.g, &t.st
	p := st.parent[s]
	gp := st.g[p]
	touched := 0
	t.edges = g.Successors(s, t.edges[:0])
	for _, e := range t.edges {
		v := e.To
		if st.touch(v) { // not in OPEN before: g = ∞, no parent
			touched++
		}
		if st.pos[v] == closed {
			continue
		}
		ng := gp + g.Distance(p, v) // ComputeCost, Path 2
		if ng >= st.g[v] {
			continue
		}
		st.g[v], st.parent[v] = ng, p
		f := ng + g.Distance(v, goal) // UpdateVertex: g fell, (re)insert
		if i := st.pos[v]; i >= 0 {
			t.open.update(int(i), f, -ng, st.pos)
		} else {
			t.open.push(heapItem{key: f, tie: -ng, id: v}, st.pos)
		}
	}
	return touched
}

// setVertex is SetVertex: if s does not see its parent, it takes the
// expanded neighbour through which it is nearest to the start (Path 1).
// It reports whether g(s) changed.
func (t *LazyTheta) setVertex(s NodeID) bool {
	g, st := t.g, &t.st
	p := st.parent[s]
	if p == s || g.LineOfSight(p, s) {
		return false
	}
	bestG, bestP := math.Inf(1), None
	t.edges = g.Predecessors(s, t.edges[:0])
	for _, e := range t.edges {
		u := e.To
		if st.stamp[u] != st.cur || st.pos[u] != closed {
			continue
		}
		if c := st.g[u] + g.Distance(u, s); c < bestG {
			bestG, bestP = c, u
		}
	}
	if bestP == None {
		panic("planners: Lazy Theta*: a node in OPEN has no expanded neighbour")
	}
	st.g[s], st.parent[s] = bestG, bestP
	return true
}

// pathTo writes the waypoints from the start to n into dst.
func (t *LazyTheta) pathTo(n NodeID, dst []NodeID) []NodeID {
	dst = append(dst[:0], n)
	for v := n; t.st.parent[v] != v; {
		v = t.st.parent[v]
		dst = append(dst, v)
	}
	for i, j := 0, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// Distance implements AnyAngleGraph: the Euclidean distance between the
// centres of a's and b's cells, in cells.
func (l *Lattice) Distance(a, b NodeID) float64 {
	ax, ay, az := l.Cell(a)
	bx, by, bz := l.Cell(b)
	dx, dy, dz := float64(ax-bx), float64(ay-by), float64(az-bz)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// anyAngleWeighted implements anyAngleWeighter: a lattice with cell weights
// has move costs that are not lengths. Lazy Theta* refuses it rather
// than guess what a long segment over cells of several weights costs.
func (l *Lattice) anyAngleWeighted() bool { return l.weight != nil }

// LineOfSight implements AnyAngleGraph: the segment between the centres
// of a's and b's cells is free when every cell it passes through or
// touches is free, a cell being the closed unit cube around its centre.
// A segment that runs exactly through an edge or a corner between cells
// thus needs all the cells meeting there free. It is the lattice's
// no-corner-cutting rule for long segments: for a single move the cells
// touched are exactly its bounding box, so every legal move is visible.
func (l *Lattice) LineOfSight(a, b NodeID) bool {
	ax, ay, az := l.Cell(a)
	bx, by, bz := l.Cell(b)
	return l.segmentFree([3]int32{ax, ay, az}, [3]int32{bx, by, bz})
}

// segmentFree walks the cells touched by the segment from cell p's
// centre to cell q's (a supercover). Along axis i the segment crosses a
// cell boundary n_i = |q_i − p_i| times, the k-th (from 0) at t = (2k+1)
// / (2n_i) of the way; there it touches the cells on both sides of the
// boundary, and on every axis crossing at the same t at once (an edge or
// a corner). Crossing times are kept as exact integers, t·2D with D the
// product of the nonzero n_i, so ties are found exactly.
func (l *Lattice) segmentFree(p, q [3]int32) bool {
	var ax [3]segmentAxis
	d := int64(1)
	for i := range ax {
		ax[i] = newSegmentAxis(int64(q[i]) - int64(p[i]))
		d *= max(ax[i].left, 1)
	}
	stride := [3]int64{1, int64(l.W), int64(l.W) * int64(l.H)}
	for i := range ax {
		ax[i].start(d, stride[i])
	}
	id := int64(p[0]) + stride[1]*int64(p[1]) + stride[2]*int64(p[2])
	if l.Blocked(NodeID(id)) {
		return false
	}
	for {
		t := min(ax[0].next, ax[1].next, ax[2].next)
		if t == math.MaxInt64 {
			return true
		}
		var cross [3]int64 // id step of each axis crossing at t, else 0
		axes := 0
		for i := range ax {
			if ax[i].next == t {
				cross[i] = ax[i].step
				ax[i].advance()
				axes++
			}
		}
		if axes == 1 {
			id += cross[0] + cross[1] + cross[2]
			if l.Blocked(NodeID(id)) {
				return false
			}
			continue
		}
		if !l.segmentCornerFree(id, cross) {
			return false
		}
		id += cross[0] + cross[1] + cross[2]
	}
}

// segmentAxis is segmentFree's walk along one axis.
type segmentAxis struct {
	left  int64 // boundary crossings to go
	sign  int64 // direction along the axis: -1 or 1
	next  int64 // time of the next crossing, in units of 1/(2D); MaxInt64 when none is left
	every int64 // time between crossings, 2D/n
	step  int64 // id offset of a crossing
}

func newSegmentAxis(delta int64) segmentAxis {
	if delta < 0 {
		return segmentAxis{left: -delta, sign: -1}
	}
	return segmentAxis{left: delta, sign: 1}
}

// start sets the crossing times for the product d of all axes' counts.
func (a *segmentAxis) start(d, stride int64) {
	a.step = a.sign * stride
	if a.left == 0 {
		a.next = math.MaxInt64
		return
	}
	a.every = 2 * d / a.left
	a.next = d / a.left
}

// advance moves past a crossing.
func (a *segmentAxis) advance() {
	if a.left--; a.left == 0 {
		a.next = math.MaxInt64
	} else {
		a.next += a.every
	}
}

// segmentCornerFree reports whether the cells of the box from node id to the
// node one step along each axis with a nonzero step in cross are free,
// id itself excepted: the cells meeting at an edge (two steps) or a
// corner (three) of id's cell.
func (l *Lattice) segmentCornerFree(id int64, cross [3]int64) bool {
	for m := 1; m < 8; m++ {
		o, inBox := int64(0), true
		for i := range 3 {
			if m>>i&1 != 0 {
				o += cross[i]
				inBox = inBox && cross[i] != 0
			}
		}
		if inBox && l.Blocked(NodeID(id+o)) {
			return false
		}
	}
	return true
}

var (
	_ AnyAngleGraph    = (*Lattice)(nil)
	_ anyAngleWeighter = (*Lattice)(nil)
)
