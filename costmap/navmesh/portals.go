package navmesh

import (
	"math"
	"slices"

	"github.com/navnode/navnode/planners"
)

// PortalGraph is a coarse graph to plan a tunnel's route on (Tunnel): a
// node per portal of the mesh (ids 0..P−1) and two for the query's start
// and goal points (P and P+1). Two portals of one region
// are joined, and so are the start or goal and the portals of its
// region; an edge costs the octile distance between the two points
// (portal centres), the lattice cost of the straight move between them
// inside that convex region, times the region's Weight. A* on the mesh's own region graph, whose
// edges run through region centres, finds routes whose corridor may hold
// no near-optimal lattice path (on 100 Complex scenarios, tile 8, weight
// 1.5: 32 tunnel paths more than 5% over the optimum at width 3, still 2
// at width 12); through portal centres, routes follow the lattice
// metric. The heuristic, the octile distance between the points, is
// consistent. Update keeps it in step with the mesh.
type PortalGraph struct {
	ends   [][2]planners.NodeID // the two regions of each portal; {None, None} for a free slot
	at     [][3]float64         // each portal's centre
	free   []int32              // slots of portals dropped, for new ones
	of     [][]int32            // the portals of each region, by region id
	weight []float64            // each region's Weight, by region id
	query  [2][3]float64        // the start and goal points
	sr, gr planners.NodeID      // the regions of the query's start and goal
}

var _ planners.Graph = (*PortalGraph)(nil)

// NewPortalGraph returns the portal graph of m as it is now.
func NewPortalGraph(m *Mesh) *PortalGraph {
	g := &PortalGraph{}
	g.fit(m)
	var edges []planners.Edge
	m.ForEach(func(a planners.NodeID, r Region) bool {
		g.weight[a] = r.Weight
		edges = m.Successors(a, edges[:0])
		for _, e := range edges {
			if e.To > a {
				g.add(m, a, e.To)
			}
		}
		return true
	})
	return g
}

// Update brings g in step with m after m.Update or m.Refresh filled d:
// the portals of the regions d removed go, those of the regions it added
// come.
func (g *PortalGraph) Update(m *Mesh, d *Delta) {
	for _, r := range d.Removed {
		g.drop(r)
	}
	g.fit(m)
	var edges []planners.Edge
	for _, a := range d.Added {
		r, _ := m.Region(a)
		g.weight[a] = r.Weight
		edges = m.Successors(a, edges[:0])
		for _, e := range edges {
			if e.To < a { // an older region, or one added before a: once per pair
				g.add(m, a, e.To)
			}
		}
	}
}

// fit sizes the per-region slices to m's ids.
func (g *PortalGraph) fit(m *Mesh) {
	if n := m.NumNodes(); n > len(g.of) {
		g.of = append(g.of, make([][]int32, n-len(g.of))...)
		g.weight = append(g.weight, make([]float64, n-len(g.weight))...)
	}
}

// add adds the portal between neighbouring live regions a and b.
func (g *PortalGraph) add(m *Mesh, a, b planners.NodeID) {
	lo, hi, ok := m.Portal(a, b)
	if !ok {
		return
	}
	c := [3]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
	var p int32
	if k := len(g.free); k > 0 {
		p, g.free = g.free[k-1], g.free[:k-1]
		g.ends[p], g.at[p] = [2]planners.NodeID{a, b}, c
	} else {
		p = int32(len(g.ends))
		g.ends, g.at = append(g.ends, [2]planners.NodeID{a, b}), append(g.at, c)
	}
	g.of[a] = append(g.of[a], p)
	g.of[b] = append(g.of[b], p)
}

// drop removes the portals of region r.
func (g *PortalGraph) drop(r planners.NodeID) {
	for _, p := range g.of[r] {
		o := g.ends[p][0]
		if o == r {
			o = g.ends[p][1]
		}
		g.of[o] = slices.DeleteFunc(g.of[o], func(q int32) bool { return q == p })
		g.ends[p] = [2]planners.NodeID{planners.None, planners.None}
		g.free = append(g.free, p)
	}
	g.of[r] = nil
}

// point returns node n's point: a portal's centre, the start or the goal.
func (g *PortalGraph) point(n planners.NodeID) [3]float64 {
	if i := int(n) - len(g.ends); i >= 0 {
		return g.query[i]
	}
	return g.at[n]
}

// Start is the node of the query's start point.
func (g *PortalGraph) Start() planners.NodeID { return planners.NodeID(len(g.ends)) }

// Goal is the node of the query's goal point.
func (g *PortalGraph) Goal() planners.NodeID { return planners.NodeID(len(g.ends) + 1) }

// SetQuery sets the start and goal points (cell coordinates) and the
// regions that hold them.
func (g *PortalGraph) SetQuery(start, goal [3]float64, sr, gr planners.NodeID) {
	g.query = [2][3]float64{start, goal}
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
			dst = append(dst, g.edge(n, far, nearR))
		}
		return g.around(n, nearR, dst)
	}
	for _, r := range g.ends[n] {
		dst = g.around(n, r, dst)
		if r == farR {
			dst = append(dst, g.edge(n, far, r))
		}
	}
	return dst
}

// around appends the edges from n to the other portals of region r.
func (g *PortalGraph) around(n, r planners.NodeID, dst []planners.Edge) []planners.Edge {
	for _, p := range g.of[r] {
		if planners.NodeID(p) != n {
			dst = append(dst, g.edge(n, planners.NodeID(p), r))
		}
	}
	return dst
}

// edge is the move from n to v inside region r. Two portals on different
// planes may share a centre; their edge gets a tiny positive cost
// (planners.Edge), which keeps the heuristic consistent.
func (g *PortalGraph) edge(n, v, r planners.NodeID) planners.Edge {
	return planners.Edge{To: v, Cost: max(g.weight[r]*OctileLength(g.point(n), g.point(v)), 1e-9)}
}

// Heuristic implements planners.Graph: the octile distance, which no
// edge undercuts (weights are at least 1).
func (g *PortalGraph) Heuristic(a, b planners.NodeID) float64 {
	return OctileLength(g.point(a), g.point(b))
}

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
