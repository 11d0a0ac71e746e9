package navmesh

import (
	"math"
	"slices"

	"github.com/navnode/navnode/planners"
)

// DPA* re-plans after an insertion on the premise that no path became
// cheaper, and after a deletion that none became dearer. Obstacles make
// free space only smaller, but the region graph is an approximation of
// it: a big region split around a new obstacle has new centres, and a
// route through them can come out cheaper than the old one through the
// big region's centre. So the mesh checks the premise rather than assume
// it.
//
// Every path in the new graph is made of unchanged edges and runs of new
// edges between persistent nodes P (live regions with a changed edge).
// If for all a, b in P the new graph restricted to P and the added
// regions connects a and b no more cheaply than the old graph restricted
// to P and the removed regions does, every run costs at least an old path
// between its ends, so no distance between persistent regions fell: an
// insertion for DPA*. The mirror test certifies a deletion.

// maxCertified bounds |P| for the check: beyond it an update is reported
// as mixed (re-plan from scratch), which is always safe.
const maxCertified = 256

// certifier holds the last rebuild's removed and added regions and the
// scratch of the check.
type certifier struct {
	removed, added []planners.NodeID
	local          map[planners.NodeID]int32
	persist        []planners.NodeID
	oldAdj, newAdj [][]localEdge
	dist           []float64
	heap           []heapItem
	dOld, dNew     []float64 // [len = |P|²]
	fell           []fallenPair
	fellNodes      []planners.NodeID // the regions of the fallen pairs, each once
	fellAt         []int32           // [len = |P|]: a persistent node's index in fellNodes, −1 if none
}

// fallenPair is two persistent regions the update brought closer: no
// path between them through the changed part of the graph is cheaper
// than dist, which is less than before. a and b index the regions in
// fellNodes.
type fallenPair struct {
	a, b int32
	dist float64
}

type localEdge struct {
	to   int32
	cost float64
}

type heapItem struct {
	d float64
	n int32
}

// certify returns the kind of the change described by the removed and
// added regions, given every node whose edges changed. rose says whether
// voxel costs rose, which decides when distances did not change at all.
func (c *certifier) certify(m *Mesh, changed []planners.NodeID, rose bool) planners.Change {
	kind := planners.ObstacleDeleted
	if rose {
		kind = planners.ObstacleInserted
	}
	c.persist, c.fell, c.fellNodes = c.persist[:0], c.fell[:0], c.fellNodes[:0]
	for _, n := range changed {
		if m.regions[n].live && !c.isAdded(n, m) {
			c.persist = append(c.persist, n)
		}
	}
	p := len(c.persist)
	switch {
	case p > maxCertified:
		return 0
	case p < 2:
		return kind
	}
	c.dOld = c.distances(m, c.removed, &c.oldAdj, c.dOld)
	c.dNew = c.distances(m, c.added, &c.newAdj, c.dNew)
	c.fellAt = slices.Grow(c.fellAt[:0], p)[:p]
	for i := range c.fellAt {
		c.fellAt[i] = -1
	}
	noneFell, noneRose := true, true
	for i, old := range c.dOld {
		nw := c.dNew[i]
		tol := 1e-9 * (1 + min(old, nw))
		if nw < old-tol {
			noneFell = false
			if a, b := i/p, i%p; a < b {
				c.fell = append(c.fell, fallenPair{c.fellIndex(a), c.fellIndex(b), nw})
			}
		}
		if nw > old+tol {
			noneRose = false
		}
	}
	switch {
	case noneFell && noneRose:
		return kind
	case noneFell:
		return planners.ObstacleInserted
	case noneRose:
		return planners.ObstacleDeleted
	}
	return 0
}

// fellIndex returns the index in fellNodes of the persistent node
// persist[i], listing it there first if it is not yet.
func (c *certifier) fellIndex(i int) int32 {
	if c.fellAt[i] < 0 {
		c.fellAt[i] = int32(len(c.fellNodes))
		c.fellNodes = append(c.fellNodes, c.persist[i])
	}
	return c.fellAt[i]
}

// isAdded reports whether n was added by the last rebuild; added ids are
// the newest.
func (c *certifier) isAdded(n planners.NodeID, m *Mesh) bool {
	return len(c.added) > 0 && n >= planners.NodeID(len(m.regions)-len(c.added))
}

// distances fills d (|P|×|P|) with the distances between persistent nodes
// in the graph of P and extra (the removed or the added regions), using
// extra's edges and the edges among P.
func (c *certifier) distances(m *Mesh, extra []planners.NodeID, adjp *[][]localEdge, d []float64) []float64 {
	if c.local == nil {
		c.local = map[planners.NodeID]int32{}
	}
	clear(c.local)
	for i, n := range c.persist {
		c.local[n] = int32(i)
	}
	for _, n := range extra {
		c.local[n] = int32(len(c.local))
	}
	adj := *adjp
	for len(adj) < len(c.local) {
		adj = append(adj, nil)
	}
	adj = adj[:len(c.local)]
	for i := range adj {
		adj[i] = adj[i][:0]
	}
	for _, n := range c.persist {
		a := c.local[n]
		for _, e := range m.regions[n].edges {
			if b, ok := c.local[e.To]; ok && int(b) < len(c.persist) {
				adj[a] = append(adj[a], localEdge{b, e.Cost})
			}
		}
	}
	for _, n := range extra {
		a := c.local[n]
		for _, e := range m.regions[n].edges {
			if b, ok := c.local[e.To]; ok {
				adj[a] = append(adj[a], localEdge{b, e.Cost})
				if int(b) < len(c.persist) { // P's side of the edge
					adj[b] = append(adj[b], localEdge{a, e.Cost})
				}
			}
		}
	}
	*adjp = adj
	p := len(c.persist)
	d = append(d[:0], make([]float64, p*p)...)
	for s := range p {
		c.dijkstra(adj, int32(s))
		copy(d[s*p:(s+1)*p], c.dist[:p])
	}
	return d
}

// dijkstra fills c.dist with the distances from s over adj.
func (c *certifier) dijkstra(adj [][]localEdge, s int32) {
	c.dist = append(c.dist[:0], make([]float64, len(adj))...)
	for i := range c.dist {
		c.dist[i] = math.Inf(1)
	}
	c.dist[s] = 0
	h := append(c.heap[:0], heapItem{0, s})
	for len(h) > 0 {
		it := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		siftDown(h, 0)
		if it.d > c.dist[it.n] {
			continue
		}
		for _, e := range adj[it.n] {
			if nd := it.d + e.cost; nd < c.dist[e.to] {
				c.dist[e.to] = nd
				h = append(h, heapItem{nd, e.to})
				siftUp(h, len(h)-1)
			}
		}
	}
	c.heap = h
}

func siftUp(h []heapItem, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p].d <= h[i].d {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []heapItem, i int) {
	for {
		l, s := 2*i+1, i
		if l < len(h) && h[l].d < h[s].d {
			s = l
		}
		if r := l + 1; r < len(h) && h[r].d < h[s].d {
			s = r
		}
		if s == i {
			return
		}
		h[s], h[i] = h[i], h[s]
		i = s
	}
}
