package navmesh

import (
	"math"

	"github.com/navnode/navnode/planners"
)

// PortalGraph is a coarse graph to plan a tunnel's route on (Tunnel): a
// node per portal of the mesh (ids 0..P−1) and two for the query's start
// and goal points (P and P+1). Two portals of one region
// are joined, and so are the start or goal and the portals of its
// region; an edge costs the octile distance between the two points
// (portal centres), the lattice cost of the straight move between them
// inside that convex region. A* on the mesh's own region graph, whose
// edges run through region centres, finds routes whose corridor may hold
// no near-optimal lattice path (on 100 Complex scenarios, tile 8, weight
// 1.5: 32 tunnel paths more than 5% over the optimum at width 3, still 2
// at width 12); through portal centres, routes follow the lattice
// metric. The heuristic, the octile distance between the points, is
// consistent. It is built from the mesh as it is and does not follow its
// updates: build it again after Mesh.Update.
type PortalGraph struct {
	ends   [][2]planners.NodeID // the two regions of each portal
	at     [][3]float64         // each node's point: portal centres, then start and goal
	of     [][]int32            // the portals of each region, by region id
	sr, gr planners.NodeID      // the regions of the query's start and goal
}

var _ planners.Graph = (*PortalGraph)(nil)

// NewPortalGraph returns the portal graph of m as it is now.
func NewPortalGraph(m *Mesh) *PortalGraph {
	g := &PortalGraph{of: make([][]int32, m.NumNodes())}
	var edges []planners.Edge
	m.ForEach(func(a planners.NodeID, _ Region) bool {
		edges = m.Successors(a, edges[:0])
		for _, e := range edges {
			lo, hi, ok := m.Portal(a, e.To)
			if e.To < a || !ok {
				continue
			}
			p := int32(len(g.ends))
			g.ends = append(g.ends, [2]planners.NodeID{a, e.To})
			g.at = append(g.at, [3]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2})
			g.of[a] = append(g.of[a], p)
			g.of[e.To] = append(g.of[e.To], p)
		}
		return true
	})
	g.at = append(g.at, [3]float64{}, [3]float64{})
	return g
}

// Start is the node of the query's start point.
func (g *PortalGraph) Start() planners.NodeID { return planners.NodeID(len(g.ends)) }

// Goal is the node of the query's goal point.
func (g *PortalGraph) Goal() planners.NodeID { return planners.NodeID(len(g.ends) + 1) }

// SetQuery sets the start and goal points (cell coordinates) and the
// regions that hold them.
func (g *PortalGraph) SetQuery(start, goal [3]float64, sr, gr planners.NodeID) {
	g.at[g.Start()], g.at[g.Goal()] = start, goal
	g.sr, g.gr = sr, gr
}

// NumNodes implements planners.Graph: the portals, then Start and Goal.
func (g *PortalGraph) NumNodes() int { return len(g.ends) + 2 }

// Successors implements planners.Graph.
func (g *PortalGraph) Successors(n planners.NodeID, dst []planners.Edge) []planners.Edge {
	return g.adjacent(n, g.Start(), g.Goal(), g.sr, g.gr, dst)
}

// Predecessors implements planners.Graph: edges are symmetric but for
// the start (none in) and the goal (none out).
func (g *PortalGraph) Predecessors(n planners.NodeID, dst []planners.Edge) []planners.Edge {
	return g.adjacent(n, g.Goal(), g.Start(), g.gr, g.sr, dst)
}

// adjacent appends n's edges in one direction: from the query end near
// (in region nearR, which no edge enters) toward the end far (in farR,
// which no edge leaves).
func (g *PortalGraph) adjacent(n, near, far, nearR, farR planners.NodeID, dst []planners.Edge) []planners.Edge {
	switch n {
	case far:
		return dst
	case near:
		if nearR == farR {
			dst = append(dst, g.edge(n, far))
		}
		return g.around(n, nearR, dst)
	}
	for _, r := range g.ends[n] {
		dst = g.around(n, r, dst)
		if r == farR {
			dst = append(dst, g.edge(n, far))
		}
	}
	return dst
}

// around appends the edges from n to the other portals of region r.
func (g *PortalGraph) around(n, r planners.NodeID, dst []planners.Edge) []planners.Edge {
	for _, p := range g.of[r] {
		if planners.NodeID(p) != n {
			dst = append(dst, g.edge(n, planners.NodeID(p)))
		}
	}
	return dst
}

// edge is the move from n to v. Two portals on different planes may share
// a centre; their edge gets a tiny positive cost (planners.Edge), which
// keeps the heuristic consistent.
func (g *PortalGraph) edge(n, v planners.NodeID) planners.Edge {
	return planners.Edge{To: v, Cost: max(OctileLength(g.at[n], g.at[v]), 1e-9)}
}

// Heuristic implements planners.Graph.
func (g *PortalGraph) Heuristic(a, b planners.NodeID) float64 { return OctileLength(g.at[a], g.at[b]) }

// Passable implements planners.Graph.
func (g *PortalGraph) Passable(planners.NodeID) bool { return true }

// Regions appends to dst[:0] the regions a path from Start to Goal
// crosses, in order: each move lies in the region its two
// ends share.
func (g *PortalGraph) Regions(path []planners.NodeID, dst []planners.NodeID) []planners.NodeID {
	dst = append(dst[:0], g.sr)
	for i := 1; i+1 < len(path); i++ {
		r := g.gr
		if i+2 < len(path) {
			p, q := g.ends[path[i]], g.ends[path[i+1]]
			if r = p[0]; r != q[0] && r != q[1] {
				r = p[1]
			}
		}
		if r != dst[len(dst)-1] {
			dst = append(dst, r)
		}
	}
	return dst
}

// OctileLength is the cost of the cheapest lattice move sequence covering
// b − a on an empty lattice (√3 per 3D diagonal step, √2 per 2D one, 1
// per straight one), for real offsets.
func OctileLength(a, b [3]float64) float64 {
	x, y, z := math.Abs(b[0]-a[0]), math.Abs(b[1]-a[1]), math.Abs(b[2]-a[2])
	lo, hi := min(x, y, z), max(x, y, z)
	mid := x + y + z - lo - hi
	return math.Sqrt(3)*lo + math.Sqrt(2)*(mid-lo) + (hi - mid)
}
