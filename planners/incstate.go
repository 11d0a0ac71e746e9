package planners

import "math"

// incState is the per-node data incremental planners keep between calls:
// g and rhs (Koenig and Likhachev's one-step lookahead), the back pointer
// rhs came through, and the node's slot in the open list. Like
// searchState it sits in flat slices indexed by NodeID with a generation
// stamp, so starting over is O(1); unlike it, it grows with the graph
// and keeps its data when it does.
type incState struct {
	stamp []uint32
	g     []float64
	rhs   []float64
	bp    []NodeID // rhs(n) = c(n, bp) + g(bp) (None: the root, or no edge)
	pos   []int32  // slot in the open list, or unqueued
	cur   uint32
}

// fit makes room for n nodes, keeping what is there.
func (s *incState) fit(n int) {
	if n <= len(s.stamp) {
		return
	}
	s.stamp = append(s.stamp, make([]uint32, n-len(s.stamp))...)
	s.g = append(s.g, make([]float64, n-len(s.g))...)
	s.rhs = append(s.rhs, make([]float64, n-len(s.rhs))...)
	s.bp = append(s.bp, make([]NodeID, n-len(s.bp))...)
	s.pos = append(s.pos, make([]int32, n-len(s.pos))...)
	if s.cur == 0 {
		s.cur = 1
	}
}

// clear forgets every node: g = rhs = ∞ everywhere.
func (s *incState) clear() {
	if s.cur++; s.cur == 0 {
		clear(s.stamp)
		s.cur = 1
	}
}

// touch makes n's fields valid and reports whether n was new.
func (s *incState) touch(n NodeID) bool {
	if s.stamp[n] == s.cur {
		return false
	}
	s.stamp[n] = s.cur
	s.g[n], s.rhs[n] = math.Inf(1), math.Inf(1)
	s.bp[n] = None
	s.pos[n] = unqueued
	return true
}

// gOf is g(n), ∞ for a node not yet touched.
func (s *incState) gOf(n NodeID) float64 {
	if s.stamp[n] != s.cur {
		return math.Inf(1)
	}
	return s.g[n]
}

// rhsOf is rhs(n), ∞ for a node not yet touched.
func (s *incState) rhsOf(n NodeID) float64 {
	if s.stamp[n] != s.cur {
		return math.Inf(1)
	}
	return s.rhs[n]
}
