package planners

import "math"

// Slot states of a node in the open list, kept in searchState.pos.
const (
	unqueued int32 = -1 // reached or not, not in the open list and not closed
	closed   int32 = -2 // expanded
)

// searchState is per-node search data in flat slices indexed by NodeID,
// allocated once for the graph and reused by every query: a generation
// stamp makes a reset O(1), and a node's fields are valid only when its
// stamp is the current one.
type searchState struct {
	stamp  []uint32
	g      []float64
	parent []NodeID
	pos    []int32 // slot in the open list, or unqueued, or closed
	cur    uint32
}

// reset starts a new search over n nodes.
func (s *searchState) reset(n int) {
	if len(s.stamp) != n {
		s.stamp = make([]uint32, n)
		s.g = make([]float64, n)
		s.parent = make([]NodeID, n)
		s.pos = make([]int32, n)
		s.cur = 0
	}
	if s.cur++; s.cur == 0 {
		clear(s.stamp)
		s.cur = 1
	}
}

// touch makes n's fields valid for this search and reports whether it
// was new.
func (s *searchState) touch(n NodeID) bool {
	if s.stamp[n] == s.cur {
		return false
	}
	s.stamp[n] = s.cur
	s.g[n] = math.Inf(1)
	s.parent[n] = None
	s.pos[n] = unqueued
	return true
}

// pathTo writes the path from the search's root to n into dst.
func (s *searchState) pathTo(n NodeID, dst []NodeID) []NodeID {
	dst = dst[:0]
	for v := n; v != None; v = s.parent[v] {
		dst = append(dst, v)
	}
	for i, j := 0, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// grow returns s lengthened to n, keeping its elements; the new ones are
// zero. Starting from nothing it takes make's memory, which the runtime
// leaves untouched when it comes fresh from the OS, where append (and
// make followed by copy) would clear every element: a planner's first
// search on a large map then touches only the pages of the nodes it
// reaches, not the whole map's worth of state (217 MB on Complex).
func grow[T any](s []T, n int) []T {
	switch {
	case n <= len(s):
		return s
	case len(s) == 0:
		return make([]T, n)
	}
	return append(s, make([]T, n-len(s))...) // the graph grew: rare
}
