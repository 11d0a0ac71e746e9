package planners

import "math"

// incState is the per-node data incremental planners keep between calls:
// g and rhs (Koenig and Likhachev's one-step lookahead), the back pointer
// rhs came through, and the node's slot in the open list. Like
// searchState it sits in flat slices indexed by NodeID with a generation
// stamp, so starting over is O(1); unlike it, it grows with the graph
// and keeps its data when it does. A node's g, rhs, back pointer and
// stamp share one 24-byte record, which computing rhs over a node's
// neighbours reads together: one or two cache lines per row of three
// lattice neighbours instead of one per field.
type incState struct {
	nodes []incNode // [len = NumNodes, the most the graph has had]
	pos   []int32   // slot in the open list, or unqueued [len = len(nodes)]
	cur   uint32
}

// incNode is one node's record in incState, valid when stamp is the
// state's cur.
type incNode struct {
	g, rhs float64
	bp     NodeID // rhs(n) = c(n, bp) + g(bp) (None: the root, or no edge; stale: see below)
	stamp  uint32
}

// stale, as a node's back pointer, marks its rhs as out of date: the
// node's rhs came through a node whose g rose to ∞ (a raise), and its
// one-step lookahead was not recomputed. Its rhs is then a lower bound of
// the lookahead, the node is in the open list whatever its g, and its
// rhs is recomputed when it reaches the top, when a lower finds it a
// better one, or when Update lists it. See lpa.raise.
const stale NodeID = -2

// fit makes room for n nodes, keeping what is there.
func (s *incState) fit(n int) {
	if n <= len(s.nodes) {
		return
	}
	s.nodes = grow(s.nodes, n)
	s.pos = grow(s.pos, n)
	if s.cur == 0 {
		s.cur = 1
	}
}

// clear forgets every node: g = rhs = ∞ everywhere.
func (s *incState) clear() {
	if s.cur++; s.cur == 0 {
		for i := range s.nodes {
			s.nodes[i].stamp = 0
		}
		s.cur = 1
	}
}

// touch makes n's fields valid and reports whether n was new.
func (s *incState) touch(n NodeID) bool {
	nd := &s.nodes[n]
	if nd.stamp == s.cur {
		return false
	}
	*nd = incNode{g: math.Inf(1), rhs: math.Inf(1), bp: None, stamp: s.cur}
	s.pos[n] = unqueued
	return true
}

// gOf is g(n), ∞ for a node not yet touched.
func (s *incState) gOf(n NodeID) float64 {
	if nd := &s.nodes[n]; nd.stamp == s.cur {
		return nd.g
	}
	return math.Inf(1)
}

// rhsOf is rhs(n), ∞ for a node not yet touched.
func (s *incState) rhsOf(n NodeID) float64 {
	if nd := &s.nodes[n]; nd.stamp == s.cur {
		return nd.rhs
	}
	return math.Inf(1)
}
