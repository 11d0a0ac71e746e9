package navmesh

import (
	"math"
	"slices"
	"sort"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// Delta is what one Update changed in the region graph: what DPA* needs
// (the affected region R and the kind of change) and what LPA*, D* Lite
// and AD* need (the nodes whose edges changed).
type Delta struct {
	Removed []planners.NodeID // regions that vanished (ids stay, not Passable)
	Added   []planners.NodeID // regions that appeared
	// Changed lists every node with an edge that appeared, vanished or
	// changed cost: the removed and added regions and their live
	// neighbours. Give it to an incremental planner's Update.
	Changed []planners.NodeID
	// R bounds the positions of Changed: DPA*'s affected region, in cell
	// coordinates. Meaningless when Changed is empty. Its Toll is the
	// least distance, after the update, between two regions it brought
	// closer: a path that became cheaper crosses R between two such
	// regions. 0 when none came closer or the update was not checked.
	R planners.Region
	// Change is ObstacleInserted when no distance between regions that
	// outlived the update fell, ObstacleDeleted when none rose (both hold
	// when distances stayed as they were: then it follows the voxel
	// change set, insertion if anything rose), and 0 when some rose and
	// some fell, or the update was too large to check (more than
	// maxCertified neighbours): re-plan from scratch then.
	Change planners.Change
	Tiles  int // tiles rebuilt

	fell    []fallenPair      // when Change is 0 and the check ran: the pairs brought closer
	fellOf  []planners.NodeID // their regions, each once, as fell's indices name them
	fellBox planners.Region   // bounds of their positions
	fellMin float64           // their least distance
	big     bool              // the update was too large to check
}

// Empty reports whether the graph did not change.
func (d *Delta) Empty() bool { return len(d.Changed) == 0 }

func (d *Delta) reset() {
	d.Removed, d.Added, d.Changed = d.Removed[:0], d.Added[:0], d.Changed[:0]
	d.R, d.Change, d.Tiles = planners.Region{}, 0, 0
	d.fell, d.fellOf, d.big, d.fellBox, d.fellMin = d.fell[:0], d.fellOf[:0], false, planners.Region{}, 0
}

// deltaScratch is reused by every update.
type deltaScratch struct {
	tileMark []uint32 // [len = tiles]: stamp of the update that dirtied it
	nodeMark []uint32 // [len = NumNodes]: stamp when the node is in Changed
	stamp    uint32
	dirty    []int32
	keep     map[Region]planners.NodeID
	cert     certifier
	near     []float64 // noShortcut's distances to the fallen pairs' regions
}

// Update brings the mesh in step with the costmap after the change set cs
// (already applied to the Source): it rebuilds the tiles cs touches and
// writes what changed into d, reusing d's storage. Regions whose cells
// and band a rebuild reproduces keep their ids.
func (m *Mesh) Update(cs *voxel.ChangeSet, d *Delta) {
	d.reset()
	dirty := m.dirtyTiles(cs)
	m.rebuild(dirty)
	m.fillDelta(d, len(dirty), len(cs.Rose) > 0 || len(cs.Regions) > 0, true)
}

// Refresh is Update for planners that search afresh after a change: it
// fills d's Removed, Added, Changed and Tiles, but leaves Change 0 (plan
// from scratch) and R unset, skipping the comparison of distances that
// certifies the kind of change for DPA*, which is most of an update's
// time.
func (m *Mesh) Refresh(cs *voxel.ChangeSet, d *Delta) {
	d.reset()
	dirty := m.dirtyTiles(cs)
	m.rebuild(dirty)
	m.fillDelta(d, len(dirty), false, false)
}

// dirtyTiles returns the tiles whose cells cs may have changed. A Ground
// cell depends on its column only (its voxel, the one below, the headroom
// above), so a voxel dirties its column's tile.
func (m *Mesh) dirtyTiles(cs *voxel.ChangeSet) []int32 {
	s := &m.delta
	s.stamp++
	if len(s.tileMark) != len(m.tiles) {
		s.tileMark = make([]uint32, len(m.tiles))
	}
	s.dirty = s.dirty[:0]
	b := m.cfg.Bounds
	if m.cfg.Mode == Ground { // voxels whose change reaches a cell
		b.Min.Z, b.Max.Z = b.Min.Z-1, b.Max.Z+m.cfg.Headroom-1
	}
	for _, list := range [][]voxel.Change{cs.Rose, cs.Fell} {
		for _, c := range list {
			if b.Contains(c.Voxel) {
				m.markTile(c.Voxel)
			}
		}
	}
	for _, r := range cs.Regions {
		r = r.Intersect(b)
		if r.Empty() {
			continue
		}
		t := m.cfg.Tile
		for z := r.Min.Z; z <= r.Max.Z+t-1; z += t {
			for y := r.Min.Y; y <= r.Max.Y+t-1; y += t {
				for x := r.Min.X; x <= r.Max.X+t-1; x += t {
					m.markTile(voxel.Key{X: min(x, r.Max.X), Y: min(y, r.Max.Y), Z: min(z, r.Max.Z)})
				}
			}
		}
	}
	return s.dirty
}

func (m *Mesh) markTile(k voxel.Key) {
	s := &m.delta
	if m.cfg.Mode == Ground {
		k.Z = m.cfg.Bounds.Min.Z
	}
	if t, ok := m.tileOf(k); ok && s.tileMark[t] != s.stamp {
		s.tileMark[t] = s.stamp
		s.dirty = append(s.dirty, t)
	}
}

// rebuild decomposes the tiles again, replaces the regions that changed
// and links the new ones to their neighbours. Removed regions keep their
// old edges until fillDelta has compared distances.
func (m *Mesh) rebuild(tiles []int32) {
	s := &m.delta
	if s.keep == nil {
		s.keep = map[Region]planners.NodeID{}
	}
	s.cert.removed, s.cert.added = s.cert.removed[:0], s.cert.added[:0]
	for _, t := range tiles {
		clear(s.keep)
		for _, n := range m.tiles[t].regions {
			s.keep[m.regions[n].Region] = n
		}
		kept := m.tiles[t].regions[:0]
		for _, r := range m.decompose(m.tileBox(t)) {
			if n, ok := s.keep[r]; ok {
				delete(s.keep, r)
				kept = append(kept, n)
				continue
			}
			n := planners.NodeID(len(m.regions))
			m.regions = append(m.regions, region{Region: r, centre: r.Centre(), tile: t, live: true})
			m.live++
			kept = append(kept, n)
			s.cert.added = append(s.cert.added, n)
		}
		m.tiles[t].regions = kept
		for _, n := range s.keep {
			s.cert.removed = append(s.cert.removed, n)
		}
	}
	slices.Sort(s.cert.removed)
	for _, n := range s.cert.removed {
		m.regions[n].live = false
		m.live--
	}
	for _, n := range s.cert.removed {
		m.unlink(n)
	}
	first := planners.NodeID(len(m.regions) - len(s.cert.added))
	for _, n := range s.cert.added {
		m.link(n, first)
	}
}

// unlink takes the removed region n out of its live neighbours' edges.
// Its own edges, and those of the regions removed with it, stay as they
// were for the certifier, which needs the old graph among them.
func (m *Mesh) unlink(n planners.NodeID) {
	for _, e := range m.regions[n].edges {
		if nb := &m.regions[e.To]; nb.live {
			nb.edges = slices.DeleteFunc(nb.edges, func(f planners.Edge) bool { return f.To == n })
		}
	}
}

// link connects the new region n with every live neighbour in its tile
// and the tiles beside it. Regions added in the same rebuild (ids from
// first) link once, from the lower id.
func (m *Mesh) link(n, first planners.NodeID) {
	r := &m.regions[n]
	for _, t := range m.besideTiles(r.tile) {
		for _, o := range m.tiles[t].regions {
			if o == n || (o >= first && o < n) {
				continue
			}
			or := &m.regions[o]
			lo, hi, ok := m.portal(&r.Region, &or.Region)
			if !ok {
				continue
			}
			c := edgeCost(r, or, lo, hi)
			r.edges = append(r.edges, planners.Edge{To: o, Cost: c})
			or.edges = append(or.edges, planners.Edge{To: n, Cost: c})
		}
	}
}

// besideTiles returns t and the tiles sharing a face with it.
func (m *Mesh) besideTiles(t int32) []int32 {
	x, y, z := t%m.tn[0], t/m.tn[0]%m.tn[1], t/(m.tn[0]*m.tn[1])
	out := make([]int32, 0, 7)
	out = append(out, t)
	for _, d := range [6][3]int32{{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}} {
		nx, ny, nz := x+d[0], y+d[1], z+d[2]
		if nx >= 0 && nx < m.tn[0] && ny >= 0 && ny < m.tn[1] && nz >= 0 && nz < m.tn[2] {
			out = append(out, nx+m.tn[0]*(ny+m.tn[1]*nz))
		}
	}
	return out
}

// fillDelta lists what the last rebuild changed, certifies the kind of
// change and then drops the removed regions' edges.
func (m *Mesh) fillDelta(d *Delta, tiles int, rose, certify bool) {
	s := &m.delta
	d.Tiles = tiles
	d.Removed = append(d.Removed, s.cert.removed...)
	d.Added = append(d.Added, s.cert.added...)
	if len(s.nodeMark) < len(m.regions) {
		s.nodeMark = append(s.nodeMark, make([]uint32, len(m.regions)-len(s.nodeMark))...)
	}
	note := func(n planners.NodeID) {
		if s.nodeMark[n] != s.stamp {
			s.nodeMark[n] = s.stamp
			d.Changed = append(d.Changed, n)
		}
	}
	for _, list := range [][]planners.NodeID{d.Removed, d.Added} {
		for _, n := range list {
			note(n)
			for _, e := range m.regions[n].edges {
				note(e.To)
			}
		}
	}
	if len(d.Changed) > 0 && certify {
		d.R = m.bounds(d.Changed)
		d.Change = s.cert.certify(m, d.Changed, rose)
		d.fell = append(d.fell, s.cert.fell...)
		d.fellOf = append(d.fellOf, s.cert.fellNodes...)
		d.big = len(s.cert.persist) > maxCertified
		d.summariseFell(m)
		if len(d.fell) > 0 {
			d.R.Toll = d.fellMin
		}
	}
	for _, n := range d.Removed {
		m.regions[n].edges = nil
	}
}

// bounds returns the box around the positions of nodes.
func (m *Mesh) bounds(nodes []planners.NodeID) planners.Region {
	r := planners.Region{Min: m.regions[nodes[0]].centre, Max: m.regions[nodes[0]].centre}
	for _, n := range nodes[1:] {
		p := m.regions[n].centre
		for i := range 3 {
			r.Min[i], r.Max[i] = min(r.Min[i], p[i]), max(r.Max[i], p[i])
		}
	}
	return r
}

// ReplanChange returns the change DPA* should re-plan the robot's old
// path old[at:] with after the update d, the affected region to give it,
// and false when only a plan from scratch is safe. cum[i] is the cost of
// old[:i+1] on the graph before the update (PathCosts, called then). A
// certified update gives its own kind and d.R. A mixed one gives:
//   - When old[at:] avoids R (every node live, none positioned in R):
//     ObstacleInserted (Scenario 1: the path stands) when no pair of
//     regions the update brought closer can make a path between its ends
//     cheaper than it (judged with the heuristic), for then each of its
//     parts is still a shortest path too. Otherwise ObstacleDeleted:
//     Algorithm 2 follows the old path, which is intact, and searches
//     only for improvements through R; paths that avoid R are unchanged,
//     so no better than the old one, whichever way costs inside R moved.
//   - When it runs through R: ObstacleInserted, with R grown over the
//     parts of the old path next to R that such a pair could shorten.
//     Algorithm 1 keeps the old path before its first node in R and after
//     its last, and relies only on those parts being shortest paths still.
//     When a pair could shorten every part, false.
func (m *Mesh) ReplanChange(d *Delta, old []planners.NodeID, at int, cum []float64) (planners.Change, planners.Region, bool) {
	if d.Change != 0 {
		return d.Change, d.R, true
	}
	if d.Empty() || d.big || at < 0 || at >= len(old) || len(cum) != len(old) {
		return 0, d.R, false
	}
	for i := at; i < len(cum); i++ {
		// A step that was no edge (PathCosts' +Inf) or a cost that is no
		// running sum would make every comparison of noShortcut false.
		bad := math.IsInf(cum[i], 0) || math.IsNaN(cum[i]) || i > at && !(cum[i] >= cum[i-1])
		if bad || old[i] < 0 || int(old[i]) >= len(m.regions) {
			return 0, d.R, false
		}
	}
	path, cum := old[at:], cum[at:]
	n := len(path)
	a, b := m.span(d, path)
	switch {
	case a == n && m.noShortcut(d, path[0], path[n-1], cum[n-1]-cum[0]):
		return planners.ObstacleInserted, d.R, true
	case a == n:
		return planners.ObstacleDeleted, d.R, true
	}
	return m.trustRegion(d, path, cum, a, b)
}

// span returns the indices of the first and the last node of path that
// DPA* counts as in R (positioned in it, or removed); n and −1 when the
// path avoids R.
func (m *Mesh) span(d *Delta, path []planners.NodeID) (a, b int) {
	a, b = len(path), -1
	for i, n := range path {
		if r := &m.regions[n]; !r.live || d.R.Contains(r.centre) {
			a, b = min(a, i), i
		}
	}
	return a, b
}

// trustRegion returns R grown so that Algorithm 1 keeps only parts of
// path that no fallen pair can shorten (trusted): its first node in the
// grown R comes after path[:head+1], its last before path[tail:]. path[a]
// and path[b] are its first and last nodes in R (span). It is false when
// neither the path's first step nor its last can be kept.
func (m *Mesh) trustRegion(d *Delta, path []planners.NodeID, cum []float64, a, b int) (planners.Change, planners.Region, bool) {
	n := len(path)
	head, tail := m.trusted(d, path, cum, a, b)
	if head < 1 && tail > n-2 {
		return 0, d.R, false
	}
	r := d.R
	for _, i := range [2]int{head + 1, tail - 1} {
		if i >= a && i <= b {
			continue // in R already
		}
		p := m.regions[path[i]].centre
		for k := range 3 {
			r.Min[k], r.Max[k] = min(r.Min[k], p[k]), max(r.Max[k], p[k])
		}
	}
	return planners.ObstacleInserted, r, true
}

// trusted returns the last head of path before R and its first tail
// after R that no fallen pair can shorten: path[:head+1] and path[tail:]
// are shortest paths still (head < a, tail > b; −1 and n when none). It
// bisects: a pair that shortens path[i:] shortens every longer tail too
// (the path from an earlier node runs to path[i] first, and the heuristic
// is a distance), and likewise for heads.
func (m *Mesh) trusted(d *Delta, path []planners.NodeID, cum []float64, a, b int) (head, tail int) {
	n := len(path)
	t, g := path[0], path[n-1]
	head = sort.Search(a, func(i int) bool { return !m.noShortcut(d, t, path[i], cum[i]-cum[0]) }) - 1
	tail = b + 1 + sort.Search(n-b-1, func(k int) bool {
		i := b + 1 + k
		return m.noShortcut(d, path[i], g, cum[n-1]-cum[i])
	})
	return head, tail
}

// summariseFell bounds the fallen pairs by one box and their least
// distance, for noShortcut's quick test.
func (d *Delta) summariseFell(m *Mesh) {
	if len(d.fell) == 0 {
		return
	}
	d.fellBox, d.fellMin = m.bounds(d.fellOf), math.Inf(1)
	for _, f := range d.fell {
		d.fellMin = min(d.fellMin, f.dist)
	}
}

// noShortcut reports whether no pair in fell can make a path from x to y
// cheaper than cost, the cost of a shortest path between them before the
// update that uses no changed edge: every path that became cheaper runs
// between a fallen pair (a, b), either way round, and so costs at least
// h(x, a) + dist(a, b) + h(b, y). A path that is no longer cheaper than
// before is no cheaper than cost. Each pair's regions are among the
// update's at most maxCertified persistent ones, so the heuristic is
// computed once per region, not per pair.
func (m *Mesh) noShortcut(d *Delta, x, y planners.NodeID, cost float64) bool {
	if len(d.fell) == 0 {
		return true
	}
	need := cost - 1e-9*(1+cost)
	px, py := m.regions[x].centre, m.regions[y].centre
	if d.fellBox.Distance(px)+d.fellMin+d.fellBox.Distance(py) >= need {
		return true
	}
	k := len(d.fellOf)
	hx := slices.Grow(m.delta.near[:0], 2*k)[:2*k]
	m.delta.near = hx
	hx, hy := hx[:k], hx[k:]
	for i, n := range d.fellOf {
		hx[i], hy[i] = m.Heuristic(x, n), m.Heuristic(n, y)
	}
	for _, f := range d.fell {
		if hx[f.a]+f.dist+hy[f.b] < need || hx[f.b]+f.dist+hy[f.a] < need {
			return false
		}
	}
	return true
}

// PathCosts appends to dst the cost of path[:i+1] for each i, read from
// the graph as it is: call it before an Update for ReplanChange. A step
// that is not an edge (an end no region) costs +Inf.
func (m *Mesh) PathCosts(path []planners.NodeID, dst []float64) []float64 {
	dst = dst[:0]
	sum := 0.0
	for i, n := range path {
		if i > 0 {
			sum += m.stepCost(path[i-1], n)
		}
		dst = append(dst, sum)
	}
	return dst
}

// stepCost is the cost of the edge a → b, +Inf if there is none.
func (m *Mesh) stepCost(a, b planners.NodeID) float64 {
	if a < 0 || int(a) >= len(m.regions) {
		return math.Inf(1)
	}
	for _, e := range m.regions[a].edges {
		if e.To == b {
			return e.Cost
		}
	}
	return math.Inf(1)
}
