package planners

// NodeID is a node of a Graph: a dense index in [0, Graph.NumNodes()).
type NodeID int32

// None is no node.
const None NodeID = -1

// Edge is a move to a neighbour and what it costs (> 0).
type Edge struct {
	To   NodeID
	Cost float64
}

// Graph is what a search needs to know of the space it plans in: the
// voxel lattice and the navigation mesh's dual graph both implement it.
// Neighbours come in batches, one call per expanded node, into the
// caller's buffer.
type Graph interface {
	// NumNodes bounds the ids: every node is in [0, NumNodes()).
	NumNodes() int
	// Successors appends the edges leaving n to dst and returns it.
	Successors(n NodeID, dst []Edge) []Edge
	// Predecessors appends the edges entering n to dst (Edge.To is the
	// predecessor, Edge.Cost the cost of moving from it to n).
	Predecessors(n NodeID, dst []Edge) []Edge
	// Heuristic is an admissible and consistent estimate of the cost
	// from a to b.
	Heuristic(a, b NodeID) float64
	// Passable reports whether n is a node a path may use. A node that is
	// not passable has no edges, in or out.
	Passable(n NodeID) bool
}

// Graphs change. After changing a graph (a cell blocked or freed, a cost
// raised, nodes added or removed), tell each incremental planner which
// nodes have an in- or out-edge whose cost changed, appeared or vanished,
// through its Update method; it re-reads their edges. For a lattice,
// Lattice.Around lists a changed cell with the neighbours whose moves
// pass over it. NumNodes may grow between calls; a removed node stays a
// valid id that is not Passable and has no edges.
