package planners

import "fmt"

// Masked is a Graph restricted to a set of allowed nodes: a node outside
// the set is not Passable and has no edges, and no edge leads to it (A*
// searches a Masked Lattice on its lattice fast path). It is how a fine
// search is kept inside a tunnel around a coarse route
// (Kapadia et al., section 6.3: succ and pred consider only the states in
// the tunnel). Only nodes are removed: the edges left between allowed
// nodes are the wrapped graph's, so on a Lattice a diagonal move between
// two allowed cells may pass a free cell outside the set.
//
// The caller owns Allowed and may change it between searches; it then
// tells each incremental planner which nodes' edges changed (on a
// Lattice, Lattice.Around of every node that entered or left the set).
// Calls do not allocate.
type Masked struct {
	G Graph
	// Allowed holds bit n%64 of word n/64 for each allowed node n; nodes
	// beyond it are outside [len = ⌈G.NumNodes()/64⌉].
	Allowed []uint64
}

// NewMasked returns g restricted to the nodes set in allowed. It panics
// when allowed is too short for g's nodes.
func NewMasked(g Graph, allowed []uint64) *Masked {
	if n := g.NumNodes(); len(allowed) < (n+63)/64 {
		panic(fmt.Sprintf("planners: NewMasked: %d words of mask for %d nodes", len(allowed), n))
	}
	return &Masked{G: g, Allowed: allowed}
}

// In reports whether n is in the allowed set.
func (m *Masked) In(n NodeID) bool { return inSet(m.Allowed, n) }

// inSet reports whether bit n of the set is set; bits past its end are
// not.
func inSet(set []uint64, n NodeID) bool {
	w := uint(n) >> 6
	return w < uint(len(set)) && set[w]&(1<<(uint(n)&63)) != 0
}

// NumNodes implements Graph.
func (m *Masked) NumNodes() int { return m.G.NumNodes() }

// Passable implements Graph: allowed and passable in G.
func (m *Masked) Passable(n NodeID) bool { return m.In(n) && m.G.Passable(n) }

// Successors implements Graph: G's edges between allowed nodes.
func (m *Masked) Successors(n NodeID, dst []Edge) []Edge {
	if !m.In(n) {
		return dst
	}
	return m.keep(m.G.Successors(n, dst), len(dst))
}

// Predecessors implements Graph: G's edges between allowed nodes.
func (m *Masked) Predecessors(n NodeID, dst []Edge) []Edge {
	if !m.In(n) {
		return dst
	}
	return m.keep(m.G.Predecessors(n, dst), len(dst))
}

// keep drops, in place, the edges of es[from:] that lead outside.
func (m *Masked) keep(es []Edge, from int) []Edge {
	k := from
	for _, e := range es[from:] {
		if m.In(e.To) {
			es[k] = e
			k++
		}
	}
	return es[:k]
}

// Heuristic implements Graph: G's, which stays admissible and consistent
// on a subgraph.
func (m *Masked) Heuristic(a, b NodeID) float64 { return m.G.Heuristic(a, b) }

var _ Graph = (*Masked)(nil)
