package navmesh

import (
	"math"
	"slices"

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

	fell    []fallenPair    // when Change is 0 and the check ran: the pairs brought closer
	fellBox planners.Region // bounds of their positions
	fellMin float64         // their least distance
	big     bool            // the update was too large to check
}

// Empty reports whether the graph did not change.
func (d *Delta) Empty() bool { return len(d.Changed) == 0 }

func (d *Delta) reset() {
	d.Removed, d.Added, d.Changed = d.Removed[:0], d.Added[:0], d.Changed[:0]
	d.R, d.Change, d.Tiles = planners.Region{}, 0, 0
	d.fell, d.big, d.fellBox, d.fellMin = d.fell[:0], false, planners.Region{}, 0
}

// deltaScratch is reused by every update.
type deltaScratch struct {
	tileMark []uint32 // [len = tiles]: stamp of the update that dirtied it
	nodeMark []uint32 // [len = NumNodes]: stamp when the node is in Changed
	stamp    uint32
	dirty    []int32
	keep     map[Region]planners.NodeID
	cert     certifier
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
// path old[at:] with after the update d, and false when only a plan from
// scratch is safe. cum[i] is the cost of old[:i+1] on the graph before
// the update (PathCosts, called then). A certified update gives its own
// kind. A mixed one gives:
//   - When old[at:] avoids R (every node live, none positioned in R):
//     ObstacleInserted (Scenario 1: the path stands) when no pair of
//     regions the update brought closer can make a path between its ends
//     cheaper than it (judged with the heuristic), for then each of its
//     parts is still a shortest path too. Otherwise ObstacleDeleted:
//     Algorithm 2 follows the old path, which is intact, and searches
//     only for improvements through R; paths that avoid R are unchanged,
//     so no better than the old one, whichever way costs inside R moved.
//   - When it runs through R: ObstacleInserted when no such pair can
//     make a path between the old path's nodes cheaper than the old
//     path's part between them, which is all Algorithm 1 relies on: it
//     keeps [T..U] and [V..G] of the old path.
func (m *Mesh) ReplanChange(d *Delta, old []planners.NodeID, at int, cum []float64) (planners.Change, bool) {
	if d.Change != 0 {
		return d.Change, true
	}
	if d.Empty() || d.big || at < 0 || at >= len(old) || len(cum) != len(old) {
		return 0, false
	}
	for i := at; i < len(cum); i++ {
		// A step that was no edge (PathCosts' +Inf) or a cost that is no
		// running sum would make every comparison of noShortcut false.
		if math.IsInf(cum[i], 0) || math.IsNaN(cum[i]) || i > at && !(cum[i] >= cum[i-1]) {
			return 0, false
		}
	}
	avoidsR := true
	for _, n := range old[at:] {
		if n < 0 || int(n) >= len(m.regions) {
			return 0, false
		}
		if r := &m.regions[n]; !r.live || d.R.Contains(r.centre) {
			avoidsR = false
		}
	}
	switch {
	case avoidsR && m.noShortcutEnds(d, old[at:], cum[at:]):
		return planners.ObstacleInserted, true
	case avoidsR:
		return planners.ObstacleDeleted, true
	case m.noShortcut(d, old[at:], cum[at:]):
		return planners.ObstacleInserted, true
	}
	return 0, false
}

// maxShortcutPairs bounds the pairs noShortcut looks at one by one: past
// it, the test through their bounding box alone decides.
const maxShortcutPairs = 64

// summariseFell bounds the fallen pairs by one box and their least
// distance, for noShortcut's quick test.
func (d *Delta) summariseFell(m *Mesh) {
	if len(d.fell) == 0 {
		return
	}
	p := m.regions[d.fell[0].a].centre
	d.fellBox, d.fellMin = planners.Region{Min: p, Max: p}, math.Inf(1)
	for _, f := range d.fell {
		for _, n := range [2]planners.NodeID{f.a, f.b} {
			p := m.regions[n].centre
			for i := range 3 {
				d.fellBox.Min[i], d.fellBox.Max[i] = min(d.fellBox.Min[i], p[i]), max(d.fellBox.Max[i], p[i])
			}
		}
		d.fellMin = min(d.fellMin, f.dist)
	}
}

// noShortcut reports whether no pair in fell can shorten the path between
// its start and any of its nodes, or between any of its nodes and its
// end: a path that is cheaper than before must pass one run of new edges
// cheaper than all old ones between the run's ends, so it costs at least
// h(x, a) + dist(a, b) + h(b, y) for some pair (a, b), either way round.
func (m *Mesh) noShortcut(d *Delta, path []planners.NodeID, cum []float64) bool {
	t, g := path[0], path[len(path)-1]
	total := cum[len(cum)-1] - cum[0]
	tol := 1e-9 * (1 + total)
	if len(d.fell) == 0 {
		return true
	}
	// Quick test: every pair's ends lie in fellBox and no pair is closer
	// than fellMin, so h(x, a) + dist + h(b, y) ≥ |x, box| + fellMin + |box, y|.
	// The distances |u, box| are kept for the pairs' tests below.
	fromT := d.fellBox.Distance(m.regions[t].centre) + d.fellMin
	toG := d.fellMin + d.fellBox.Distance(m.regions[g].centre)
	hu := m.toFell[:0]
	quick := true
	for i, u := range path {
		h := d.fellBox.Distance(m.regions[u].centre)
		hu = append(hu, h)
		if m.regions[u].live && (fromT+h < cum[i]-cum[0]-tol || h+toG < total-(cum[i]-cum[0])-tol) {
			quick = false
		}
	}
	m.toFell = hu
	if quick {
		return true
	}
	if len(d.fell) > maxShortcutPairs {
		return false
	}
	for _, f := range d.fell {
		for _, ab := range [2][2]planners.NodeID{{f.a, f.b}, {f.b, f.a}} {
			a, b := ab[0], ab[1]
			fromT := m.Heuristic(t, a) + f.dist
			toG := f.dist + m.Heuristic(b, g)
			if fromT >= total+tol && toG >= total+tol {
				continue // no part of the path costs more than either detour's lower bound
			}
			for i, u := range path {
				if !m.regions[u].live {
					continue
				}
				// h(b, u) and h(u, a) are at least |u, box|: the exact
				// heuristic only where that bound is not enough.
				before, after := cum[i]-cum[0]-tol, total-(cum[i]-cum[0])-tol
				if fromT+hu[i] < before && fromT+m.Heuristic(b, u) < before ||
					hu[i]+toG < after && m.Heuristic(u, a)+toG < after {
					return false
				}
			}
		}
	}
	return true
}

// noShortcutEnds reports whether no pair in fell can make a path from the
// old path's start to its end cheaper than the path: every such path
// runs between a fallen pair (a, b), either way round, and costs at least
// h(t, a) + dist(a, b) + h(b, g). It certifies every path noShortcut
// does, and more: noShortcut bounds the path's parts too, as Algorithm 1
// needs when the path runs through R.
func (m *Mesh) noShortcutEnds(d *Delta, path []planners.NodeID, cum []float64) bool {
	if len(d.fell) == 0 {
		return true
	}
	t, g := path[0], path[len(path)-1]
	total := cum[len(cum)-1] - cum[0]
	need := total - 1e-9*(1+total)
	pt, pg := m.regions[t].centre, m.regions[g].centre
	if d.fellBox.Distance(pt)+d.fellMin+d.fellBox.Distance(pg) >= need {
		return true
	}
	for _, f := range d.fell {
		if m.Heuristic(t, f.a)+f.dist+m.Heuristic(f.b, g) < need ||
			m.Heuristic(t, f.b)+f.dist+m.Heuristic(f.a, g) < need {
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
