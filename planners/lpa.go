package planners

import (
	"context"
	"fmt"
	"math"
	"time"
)

// lpa is the search LPA* and D* Lite share (Koenig and Likhachev; the
// overview paper's procedures, lines 01–23 for LPA* and 01′–35′ for
// D* Lite). It keeps g and rhs for every node it has touched between
// calls and repairs them when edges change. Forward (LPA*), rhs(n) is the
// best g(p)+c(p,n) over n's predecessors and the answer is g(goal);
// backward (D* Lite), rhs(n) is the best c(n,s)+g(s) over n's successors,
// the root is the goal, and the answer is g(start) for whatever the
// start is now.
//
// This is the optimised variant of Koenig and Likhachev's D* Lite: when a
// node's g falls, only the nodes it improves are touched; when it rises,
// only the nodes whose rhs came through it (their back pointer) are
// recomputed, and in LPA* and D* Lite not even those until they reach
// the top (see lazy).
type lpa struct {
	g        Graph
	backward bool    // D* Lite
	root     NodeID  // rhs(root) = 0: LPA*'s start, D* Lite's goal
	target   NodeID  // the node whose g is the answer: LPA*'s goal, D* Lite's start
	km       float64 // D* Lite's key modifier: heuristic distance the start has moved
	// refreshDue: D* Lite's start moved since the open keys were last
	// refreshed; the next search that expands anything refreshes them
	// first (refreshKeys).
	refreshDue bool
	geo        latGeom // geo.l: g's lattice, if it is one (the fast path: see lpa_lattice.go)
	tx         int32   // the target's cell, with geo.l
	ty, tz     int32
	started    bool
	st         incState
	open       openList
	// cold holds open nodes whose first keys lie above ceil, unordered;
	// band is how far the next thaw raises ceil (see lpa_cold.go).
	cold       []heapItem
	ceil, band float64
	settledKey float64 // the start's first key when the ceiling was last set
	coldFloor  int     // open nodes from which a refresh leaves some cold; 0: never
	edges      []Edge
	stats      Stats

	// AD*'s additions (see ADStar): ε inflates over-consistent keys (1
	// otherwise), and with anytime a node expanded in the current pass
	// that turns inconsistent waits on INCONS instead of OPEN.
	eps         float64
	anytime     bool
	closed      []uint32 // pass in which the node was expanded over-consistent
	pass        uint32
	incons      []NodeID
	standardKey bool // test only: inflate under-consistent keys too (the pitfall)
}

// inIncons marks a node on AD*'s INCONS list in incState.pos.
const inIncons int32 = -3

// h is the heuristic between n and the target, in search direction.
func (p *lpa) h(n NodeID) float64 {
	if p.geo.l != nil {
		x, y, z := p.geo.cell(n)
		return octile(x-p.tx, y-p.ty, z-p.tz)
	}
	if p.backward {
		return p.g.Heuristic(p.target, n)
	}
	return p.g.Heuristic(n, p.target)
}

// out appends the edges rhs(n) is computed over: successors backward,
// predecessors forward.
func (p *lpa) out(n NodeID, dst []Edge) []Edge {
	if p.backward {
		return p.g.Successors(n, dst)
	}
	return p.g.Predecessors(n, dst)
}

// in appends the edges whose far ends' rhs depend on g(n).
func (p *lpa) in(n NodeID, dst []Edge) []Edge {
	if p.backward {
		return p.g.Predecessors(n, dst)
	}
	return p.g.Successors(n, dst)
}

// setTarget makes t the node whose g is the answer.
func (p *lpa) setTarget(t NodeID) {
	p.target = t
	if p.geo.l != nil {
		p.tx, p.ty, p.tz = p.geo.cell(t)
	}
}

// key is CalculateKey (line 01′): [min(g, rhs) + h + km; min(g, rhs)],
// with h inflated by ε for over-consistent nodes (1 but in AD*).
func (p *lpa) key(n NodeID) (float64, float64) {
	g, rhs := p.st.nodes[n].g, p.st.nodes[n].rhs
	switch {
	case g > rhs: // over-consistent: AD*'s inflated key (Kapadia et al., Algorithm 1 line 3)
		return rhs + p.eps*p.h(n) + p.km, rhs
	case p.standardKey:
		return g + p.eps*p.h(n) + p.km, g
	}
	return g + p.h(n) + p.km, g // uninflated (line 5)
}

// targetKey is key(target) without a heuristic call: an admissible
// heuristic from a node to itself is 0, and g + 0 + k_m rounds as g + k_m.
// The search reads it before every step.
func (p *lpa) targetKey() (float64, float64) {
	nd := &p.st.nodes[p.target]
	if nd.g > nd.rhs {
		return nd.rhs + p.km, nd.rhs
	}
	return nd.g + p.km, nd.g
}

// keySlack is the tolerance within which two first keys count as equal,
// for a search whose keys are about as large as k.
//
// D* Lite's and AD*'s correctness hangs on ties: of two nodes whose first
// keys are equal, the one with the smaller second key (g) must go first
// (line 10′ also stops only when no open key is below the target's, ties
// broken the same way). But the first key sums g, h and k_m in floating
// point, so keys equal in reals (nodes on one straight line toward the
// start) come out an ulp apart either way, and an ulp decides the order:
// a node on the shortest path is left unexpanded, or AD* closes a node
// before the successor it depends on and leaves it stale on INCONS. So
// first keys within the slack (1e-9 of the search's scale, far above
// rounding and far below the gap between different path costs) are
// compared as equal, by their second key. The slack is fixed when a
// search starts, so the heap's order never changes under it.
func keySlack(k float64) float64 { return 1e-9 * (1 + math.Abs(k)) }

// restart forgets everything and roots a new search (Initialize, lines
// 02′–06′): O(1) through the state's stamp.
func (p *lpa) restart(root, target NodeID) {
	p.fit()
	p.st.clear()
	p.open.items, p.cold, p.ceil = p.open.items[:0], p.cold[:0], math.Inf(1)
	p.incons = p.incons[:0]
	p.pass++
	p.km, p.refreshDue = 0, false
	p.root, p.started = root, true
	if l, ok := p.g.(*Lattice); ok && p.geo.l != l {
		p.geo = newLatGeom(l)
	}
	p.setTarget(target)
	p.eps = max(p.eps, 1)
	p.open.slack = keySlack(4 * p.eps * p.h(root))
	p.touch(root)
	p.st.nodes[root].rhs = 0
	p.queue(root)
}

// fit makes room for nodes the graph gained.
func (p *lpa) fit() {
	n := p.g.NumNodes()
	p.st.fit(n)
	if p.anytime {
		p.closed = grow(p.closed, n)
	}
}

func (p *lpa) touch(n NodeID) {
	if p.st.touch(n) {
		p.stats.Touched++
	}
}

// queue is the queue half of UpdateVertex (lines 08′–09′): a node is in
// the open list exactly when it is inconsistent (in AD*, or on INCONS if
// it was expanded in this pass), under a key no later than its current
// one.
//
// A key that falls is updated at once; one that rises is left as it was,
// a lower bound, as the keys k_m makes stale are (Koenig and Likhachev,
// lines 12′–14′): computeShortestPath re-keys a node whose key was too
// low when it reaches the top. Most nodes whose key rises during a repair
// (a raise recomputing its neighbours' rhs) never get there before the
// search ends, and skip a sift down the open list.
func (p *lpa) queue(n NodeID) {
	st := &p.st
	pos := st.pos[n]
	if st.nodes[n].g == st.nodes[n].rhs && st.nodes[n].bp != stale {
		switch {
		case pos >= 0 && p.inHeap(n, pos):
			p.open.remove(int(pos), st.pos)
		case pos >= 0:
			p.dropCold(int(pos))
			st.pos[n] = unqueued
		}
		return // a consistent node left on INCONS is skipped when INCONS is emptied
	}
	switch {
	case pos >= 0 && p.inHeap(n, pos):
		// A key that rose stays as it is, a lower bound, until it reaches
		// the top. A lower second key is written even then: refreshKeys
		// builds a key from the second one, which must stay a lower bound
		// of min(g, rhs).
		it := &p.open.items[pos]
		k1, k2 := p.key(n)
		if key, tie := p.requeued(*it, k1, k2); key != it.key || tie != it.tie {
			p.open.update(int(pos), key, tie, st.pos)
		}
	case pos >= 0:
		k1, k2 := p.key(n)
		p.queueCold(int(pos), k1, k2)
	case pos == inIncons:
	case p.anytime && p.closed[n] == p.pass: // AD*, Algorithm 1 line 14
		st.pos[n] = inIncons
		p.incons = append(p.incons, n)
	default:
		k1, k2 := p.key(n)
		p.push(heapItem{key: k1, tie: k2, id: n})
	}
}

// requeued returns the keys an open item takes when its node is queued
// again under keys k1, k2 (see queue): the new keys if they come first,
// else its own with the lower second key.
func (p *lpa) requeued(it heapItem, k1, k2 float64) (float64, float64) {
	if p.open.before(k1, k2, it.key, it.tie) {
		return k1, k2
	}
	return it.key, min(it.tie, k2)
}

// recompute sets rhs(n) to its one-step lookahead over n's current edges
// (line 07′). n must be touched. It reads n's edges into p.edges[keep:],
// so a caller's list in p.edges[:keep] survives.
func (p *lpa) recompute(n NodeID, keep int) {
	if p.geo.l != nil {
		x, y, z := p.geo.cell(n)
		p.latRecompute(n, x, y, z, math.Inf(-1))
		return
	}
	if n == p.root {
		return
	}
	st := &p.st
	best, bp := math.Inf(1), None
	if p.g.Passable(n) {
		p.edges = p.out(n, p.edges[:keep])
		for _, e := range p.edges[keep:] {
			if c := e.Cost + st.gOf(e.To); c < best {
				best, bp = c, e.To
			}
		}
		p.edges = p.edges[:keep]
	}
	st.nodes[n].rhs, st.nodes[n].bp = best, bp
}

// update takes changed nodes: each has an edge whose cost changed,
// appeared or vanished (lines 32′–34′).
func (p *lpa) update(changed []NodeID) error {
	n := NodeID(p.g.NumNodes())
	for _, v := range changed {
		if v < 0 || v >= n {
			return fmt.Errorf("%w: changed node %d, graph of %d nodes", ErrNodeRange, v, n)
		}
	}
	if !p.started {
		return nil
	}
	p.fit()
	for _, v := range changed {
		p.touch(v)
		p.recompute(v, 0)
		p.queue(v)
	}
	return nil
}

// rekey recomputes every open node's key after the heuristic changed and
// restores the heap order.
func (p *lpa) rekey() {
	for i := range p.open.items {
		it := &p.open.items[i]
		it.key, it.tie = p.key(it.id)
	}
	p.open.heapify(p.st.pos)
}

// refreshKeys re-keys the heap after D* Lite's start moved: each key
// rises to what the current heuristic and k_m make of the second key it
// was queued under (with ε = 1 a key is [k2 + h + k_m; k2]), a lower
// bound of its node's key as before, and the heap is rebuilt. Nodes that
// go cold, and the cold ones, are re-keyed when a thaw takes them in (see
// settle).
//
// k_m keeps the old keys lower bounds, and computeShortestPath re-keys a
// node whose key is too low when it reaches the top (lines 13′–14′). But
// most of the open list is the frontier of earlier searches, whose keys
// lie within a few moves' costs of the top, and every move leaves many of
// them too low by up to twice the distance moved: a repair spent most of
// its time re-keying them one by one, each a read of the node's record
// and a sift from the root, most of them only to sink below the start's
// key. One pass over the list reads no node records, and heapifying costs
// about as much as a few hundred sifts.
func (p *lpa) refreshKeys() {
	t1, _ := p.targetKey()
	p.settle(t1)
}

// computeShortestPath is ComputeShortestPath (lines 10′–20′): it runs
// until the target is consistent and no open key is below its key, or
// ctx ends (ErrTimeout; the state stays valid and a later call resumes).
func (p *lpa) computeShortestPath(ctx context.Context) error {
	st, t := &p.st, p.target
	p.touch(t)
	if st.nodes[t].bp == stale { // the start moved onto a stale node
		p.freshen(t)
		p.queue(t)
	}
	// steps counts the iterations past the deadline check, so that the
	// first check comes before anything is expanded even when thaws,
	// which do not count, come first.
	for steps := 0; p.openLen() > 0; {
		t1, t2 := p.targetKey()
		done := st.nodes[t].rhs == st.nodes[t].g
		if !p.hotLeads() {
			// The least open key may be cold: the target's key is below
			// all of them, or some must come in.
			h := &p.open
			if done && p.belowCold(t1) && (len(h.items) == 0 || !h.before(h.items[0].key, h.items[0].tie, t1, t2)) {
				break
			}
			p.thaw()
			continue
		}
		top := p.open.top()
		if done && !p.open.before(top.key, top.tie, t1, t2) {
			break
		}
		if steps%checkEvery == 0 && ctx.Err() != nil {
			return ErrTimeout
		}
		steps++
		if p.refreshDue {
			// Only now: a search after a move that finds the start
			// consistent and below the top reads no more than this.
			p.refreshDue = false
			p.refreshKeys()
			continue
		}
		u := top.id
		if st.nodes[u].bp == stale {
			if p.freshen(u); st.nodes[u].g == st.nodes[u].rhs {
				p.open.remove(0, st.pos) // consistent after all: no expansion
				continue
			}
		}
		if k1, k2 := p.key(u); p.open.before(top.key, top.tie, k1, k2) {
			// Lines 13′–14′: the start moved, or u's key rose (queue),
			// since u was keyed.
			if k1 > p.ceil {
				p.park(k1, k2)
			} else {
				p.open.update(0, k1, k2, st.pos)
			}
			continue
		}
		p.stats.Expansions++
		switch lower := st.nodes[u].g > st.nodes[u].rhs; {
		case p.geo.l != nil && lower:
			p.latLower(u)
		case p.geo.l != nil:
			p.latRaise(u)
		case lower:
			p.lower(u)
		default:
			p.raise(u)
		}
	}
	return nil
}

// lower handles an over-consistent node (lines 15′–17′): g(u) falls to
// rhs(u) and every neighbour it improves is queued.
func (p *lpa) lower(u NodeID) {
	st := &p.st
	st.nodes[u].g = st.nodes[u].rhs
	if p.anytime {
		p.closed[u] = p.pass // AD*, Algorithm 1 line 21
	}
	p.open.remove(int(st.pos[u]), st.pos)
	gu := st.nodes[u].g
	p.edges = p.in(u, p.edges[:0])
	for _, e := range p.edges {
		s := e.To
		p.touch(s)
		if c := e.Cost + gu; c < st.nodes[s].rhs && s != p.root {
			st.nodes[s].rhs, st.nodes[s].bp = c, u
			p.queue(s)
		}
	}
}

// raise handles an under-consistent node (lines 18′–20′): g(u) becomes
// ∞ and every neighbour whose rhs came through u is recomputed, or, in
// LPA* and D* Lite, marked stale and queued (see lazy).
func (p *lpa) raise(u NodeID) {
	st := &p.st
	st.nodes[u].g = math.Inf(1)
	p.queue(u)
	p.edges = p.in(u, p.edges[:0])
	n := len(p.edges)
	for i := 0; i < n; i++ {
		s := p.edges[i].To
		p.touch(s)
		if st.nodes[s].bp == u {
			if p.lazy(s) {
				st.nodes[s].bp = stale
			} else {
				p.recompute(s, n)
			}
			p.queue(s)
		}
	}
}

// lazy reports whether a raise may leave s's rhs stale instead of
// recomputing it.
//
// A raise recomputed the rhs of each node whose rhs came through the
// raised node, and a raise wave recomputed most of them more than once
// (their new back pointer is raised in turn), though fewer than half of
// them reach the top before the search ends. A stale node's rhs is a
// lower bound of its lookahead (only g values rose since it was right,
// or it would not be stale), so its key, computed from it, is a lower
// bound of its key, and it is queued as if inconsistent: it is
// recomputed once, when it reaches the top, and dropped there if
// consistent. Nothing else needs a stale rhs: a lower whose c + g is
// below it sets it (that is the new lookahead), Update recomputes the
// nodes it lists, and path follows nodes whose keys are below the
// target's, which reached the top before the search ended. AD*'s keys
// inflate over-consistent nodes only, so that a lower bound of rhs does
// not bound its key: it recomputes at once, and so does the target,
// whose consistency ends the search.
func (p *lpa) lazy(s NodeID) bool {
	return !p.anytime && !p.standardKey && s != p.target
}

// freshen recomputes the rhs of a stale node n.
func (p *lpa) freshen(n NodeID) {
	if p.geo.l != nil {
		x, y, z := p.geo.cell(n)
		p.latRecompute(n, x, y, z, min(p.st.nodes[n].rhs, math.MaxFloat64)) // the stale rhs is a floor
		return
	}
	p.recompute(n, 0)
}

// path follows the back pointers from the target to the root: after
// computeShortestPath every node on that chain has rhs(n) = c(n, bp(n)) +
// g(bp(n)), the cheapest one-step lookahead (line 26′ picks the same
// node). Each step's cost is read back from rhs and g, without asking the
// graph again. It returns the path in travel order and its cost.
func (p *lpa) path(dst []NodeID) ([]NodeID, float64, error) {
	st := &p.st
	dst = append(dst[:0], p.target)
	cost := 0.0
	limit := p.g.NumNodes()
	for v := p.target; v != p.root; {
		next := st.nodes[v].bp
		if next < 0 || st.nodes[next].stamp != st.cur || len(dst) > limit {
			return nil, 0, fmt.Errorf("planners: path from %d breaks at node %d (g %v, rhs %v)", p.target, v, st.nodes[v].g, st.nodes[v].rhs)
		}
		cost += st.nodes[v].rhs - st.nodes[next].g
		v = next
		dst = append(dst, v)
	}
	if !p.backward {
		for i, j := 0, len(dst)-1; i < j; i, j = i+1, j-1 {
			dst[i], dst[j] = dst[j], dst[i]
		}
	}
	return dst, cost, nil
}

// search runs computeShortestPath for the query and returns its Result:
// the path, or ErrNoPath, or ErrTimeout with no path (Stats.Partial).
func (p *lpa) search(ctx context.Context, start, goal NodeID, dst []NodeID, began time.Time) (Result, error) {
	p.fit()
	err := p.computeShortestPath(ctx)
	var r Result
	if err == nil {
		r, err = p.answer(start, goal, dst)
	} else {
		r.Stats, r.Stats.Partial = p.stats, true
	}
	r.Stats.Elapsed = time.Since(began)
	return r, err
}

// answer turns the state after computeShortestPath into a Result.
func (p *lpa) answer(start, goal NodeID, dst []NodeID) (Result, error) {
	if math.IsInf(p.st.gOf(p.target), 1) {
		return Result{Stats: p.stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, p.stats.Expansions)
	}
	path, cost, err := p.path(dst)
	if err != nil {
		return Result{Stats: p.stats}, err
	}
	return Result{Path: path, Cost: cost, Stats: p.stats}, nil
}
