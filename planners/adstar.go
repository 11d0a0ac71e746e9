package planners

import (
	"context"
	"fmt"
	"math"
	"time"
)

// inIncons marks a node on AD*'s INCONS list in incState.pos.
const inIncons int32 = -3

// ADStar is Anytime Dynamic A* (Likhachev, Ferguson, Gordon, Stentz and
// Thrun, 2005; Kapadia et al., Appendix B, Algorithms 1 and 2): a
// backward search like D* Lite whose heuristic is inflated by ε, so a
// first path comes fast and is improved, ε step by ε step, while time
// allows; and like D* Lite it repairs its search when the robot moves or
// edges change.
//
// Keys follow Algorithm 1 lines 1–5: an over-consistent node (g > rhs) is
// keyed [rhs + ε·h; rhs], an under-consistent one [g + h; g], uninflated,
// so that cost increases reach every node they affect (inflating both is
// the pitfall Krafft's thesis ran into: the search stops before the start
// is right). A node expanded in the current pass that becomes
// inconsistent again waits on INCONS for the next ε.
type ADStar struct {
	Epsilon0    float64 // first inflation, ≥ 1; 0 means 2.5
	EpsilonStep float64 // how much ε falls per improvement; 0 means 0.5
	EpsilonMin  float64 // Plan stops improving at this bound; 0 means 1
	// LargeChange is the number of changed nodes in one Update that sends
	// ε back to Epsilon0 (a big change is repaired faster inflated); 0
	// means 1000.
	LargeChange int
	// OnImprove, if set, is called with each path Plan publishes, one per
	// ε it reaches; the path's storage is only valid during the call.
	OnImprove func(Result)

	g       Graph
	st      incState
	open    openList
	closed  []uint32 // pass in which the node was expanded over-consistent
	mark    []uint32 // markGen: the node changed in the current Update
	markGen uint32
	pass    uint32
	incons  []NodeID
	edges   []Edge
	eps     float64
	start   NodeID
	goal    NodeID
	lat     *Lattice // g's lattice, if it is one (the concrete type: see astar_lattice.go)
	sx      int32    // the start's cell, with lat
	sy, sz  int32
	started bool
	stats   Stats

	standardKey bool // test only: inflate under-consistent keys too (the pitfall)
}

// NewADStar returns an AD* planner over g.
func NewADStar(g Graph) *ADStar { return &ADStar{g: g} }

func (a *ADStar) epsilon0() float64 {
	if a.Epsilon0 == 0 {
		return 2.5
	}
	return a.Epsilon0
}

func (a *ADStar) epsilonStep() float64 {
	if a.EpsilonStep == 0 {
		return 0.5
	}
	return a.EpsilonStep
}

// Epsilon is the inflation the next pass will use.
func (a *ADStar) Epsilon() float64 { return a.eps }

// setStart moves the start, which the heuristic measures from.
func (a *ADStar) setStart(s NodeID) {
	a.start = s
	if l, ok := a.g.(*Lattice); ok {
		a.lat = l
		a.sx, a.sy, a.sz = a.lat.Cell(s)
	}
}

// key is Algorithm 1 lines 1–5.
func (a *ADStar) key(n NodeID) (float64, float64) {
	g, rhs := a.st.g[n], a.st.rhs[n]
	var h float64
	if a.lat != nil {
		x, y, z := a.lat.Cell(n)
		h = octile(x-a.sx, y-a.sy, z-a.sz)
	} else {
		h = a.g.Heuristic(a.start, n)
	}
	if g > rhs {
		return rhs + a.eps*h, rhs
	}
	if a.standardKey {
		return g + a.eps*h, g
	}
	return g + h, g
}

func (a *ADStar) touch(n NodeID) {
	if a.st.touch(n) {
		a.stats.Touched++
	}
}

// restart is ClearPlanData (Algorithm 2 lines 3, 10): a new search from
// the goal, ε back to ε₀.
func (a *ADStar) restart(start, goal NodeID) {
	a.grow()
	a.st.clear()
	a.open.items = a.open.items[:0]
	a.incons = a.incons[:0]
	a.pass++
	a.goal, a.started = goal, true
	a.setStart(start)
	a.open.slack = keySlack(4 * a.epsilon0() * a.g.Heuristic(start, goal))
	a.eps = a.epsilon0()
	a.touch(goal)
	a.st.rhs[goal] = 0
	a.queue(goal)
}

// queue is UpdateState's queue half (lines 11–14): an inconsistent node
// goes to OPEN, or to INCONS if it was expanded in this pass; a
// consistent one leaves OPEN.
func (a *ADStar) queue(n NodeID) {
	st := &a.st
	pos := st.pos[n]
	if st.g[n] == st.rhs[n] {
		if pos >= 0 {
			a.open.remove(int(pos), st.pos)
		}
		return // a consistent node left on INCONS is skipped when INCONS is emptied
	}
	switch {
	case pos >= 0:
		k1, k2 := a.key(n)
		a.open.update(int(pos), k1, k2, st.pos)
	case pos == inIncons:
	case a.closed[n] == a.pass:
		st.pos[n] = inIncons
		a.incons = append(a.incons, n)
	default:
		k1, k2 := a.key(n)
		a.open.push(heapItem{key: k1, tie: k2, id: n}, st.pos)
	}
}

// recompute is UpdateState lines 7–10: rhs(n) and prev(n) from n's
// successors, reading them into a.edges[keep:].
func (a *ADStar) recompute(n NodeID, keep int) {
	if n == a.goal {
		return
	}
	st := &a.st
	best, bp := math.Inf(1), None
	if a.g.Passable(n) {
		a.edges = a.g.Successors(n, a.edges[:keep])
		for _, e := range a.edges[keep:] {
			if c := e.Cost + st.gOf(e.To); c < best {
				best, bp = c, e.To
			}
		}
		a.edges = a.edges[:keep]
	}
	st.rhs[n], st.bp[n] = best, bp
}

// Update tells the planner that the edges of these nodes changed (see
// Graph; Algorithm 2 lines 13–21). A change to a node of the current path
// (lines 14–16: the plan is invalidated) or of LargeChange nodes or more
// sends ε back to ε₀.
func (a *ADStar) Update(changed []NodeID) error {
	n := NodeID(a.g.NumNodes())
	for _, v := range changed {
		if v < 0 || v >= n {
			return fmt.Errorf("%w: changed node %d, graph of %d nodes", ErrNodeRange, v, n)
		}
	}
	if !a.started {
		return nil
	}
	a.grow()
	onPath := a.touchesPath(changed)
	for _, v := range changed {
		a.touch(v)
		a.recompute(v, 0)
		a.queue(v)
	}
	large := a.LargeChange
	if large == 0 {
		large = 1000
	}
	if onPath || len(changed) >= large {
		a.eps = a.epsilon0()
	}
	return nil
}

// touchesPath reports whether a changed node lies on the current path,
// the back-pointer chain from the start to the goal.
func (a *ADStar) touchesPath(changed []NodeID) bool {
	st := &a.st
	if st.stamp[a.start] != st.cur || math.IsInf(st.g[a.start], 1) {
		return false
	}
	if a.markGen++; a.markGen == 0 {
		clear(a.mark)
		a.markGen = 1
	}
	for _, v := range changed {
		a.mark[v] = a.markGen
	}
	for v, steps := a.start, 0; v != None && steps <= len(a.mark); v, steps = st.bp[v], steps+1 {
		if a.mark[v] == a.markGen {
			return true
		}
		if v == a.goal || st.stamp[v] != st.cur {
			break
		}
	}
	return false
}

// grow makes room for nodes the graph gained.
func (a *ADStar) grow() {
	n := a.g.NumNodes()
	a.st.fit(n)
	if len(a.closed) < n {
		a.closed = append(a.closed, make([]uint32, n-len(a.closed))...)
		a.mark = append(a.mark, make([]uint32, n-len(a.mark))...)
	}
}

// Reset drops the search state, keeping its memory.
func (a *ADStar) Reset() { a.started = false }

// newPass starts a pass at the current ε (Algorithm 1 lines 28–29 and
// Algorithm 2 lines 7–8): INCONS moves to OPEN, CLOSED empties, and every
// open key is recomputed for the new ε and start.
func (a *ADStar) newPass() {
	st := &a.st
	a.pass++
	for _, n := range a.incons {
		if st.pos[n] != inIncons {
			continue
		}
		st.pos[n] = unqueued
		if st.g[n] != st.rhs[n] {
			a.open.push(heapItem{id: n}, st.pos)
		}
	}
	a.incons = a.incons[:0]
	for i := range a.open.items {
		it := &a.open.items[i]
		it.key, it.tie = a.key(it.id)
	}
	a.open.heapify(st.pos)
}

// Plan returns a path from start to goal: it runs passes at falling ε
// until ε is EpsilonMin (1) or ctx ends, and returns the last complete one, whose cost
// is at most Stats.Epsilon times the optimum. A call after the robot moved
// (a new start) or after Update repairs the previous search; a new goal
// starts over at ε₀. Only when ctx ends before any path is found does it
// return ErrTimeout (Stats.Partial); the next call resumes the search.
func (a *ADStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	a.stats = Stats{}
	if err := checkEnds(a.g, start, goal); err != nil {
		return Result{}, err
	}
	if e0, step, floor := a.epsilon0(), a.epsilonStep(), a.EpsilonMin; !(e0 >= 1) || math.IsInf(e0, 0) ||
		!(step > 0) || math.IsInf(step, 0) || math.IsNaN(floor) || math.IsInf(floor, 0) {
		return Result{}, fmt.Errorf("planners: AD* ε₀ %v, step %v, minimum %v: want finite ε₀ ≥ 1, step > 0 and minimum", e0, step, floor)
	}
	if !a.started || goal != a.goal {
		a.restart(start, goal)
	}
	a.setStart(start) // Algorithm 2 line 6; newPass re-keys (lines 7–8)
	a.grow()
	a.touch(start)
	var best Result
	found := false
	for {
		if found && ctx.Err() != nil {
			break
		}
		a.newPass()
		if err := a.improve(ctx); err != nil {
			break
		}
		if math.IsInf(a.st.g[start], 1) {
			r := Result{Stats: a.stats}
			r.Stats.Elapsed = time.Since(began)
			return r, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, a.stats.Expansions)
		}
		path, cost, err := a.path(dst)
		if err != nil { // only with the test-only standard key (the pitfall)
			return Result{Stats: a.stats}, err
		}
		dst, found = path, true
		best = Result{Path: path, Cost: cost, Stats: a.stats}
		best.Stats.Epsilon = a.eps
		best.Stats.Elapsed = time.Since(began)
		if a.OnImprove != nil {
			a.OnImprove(best)
		}
		floor := max(1, a.EpsilonMin)
		if a.eps <= floor {
			break
		}
		next := max(floor, a.eps-a.epsilonStep())
		if next >= a.eps {
			next = floor // a step too small to change ε
		}
		a.eps = next // Algorithm 1: decrease ε, then INCONS → OPEN
	}
	if !found {
		r := Result{Stats: a.stats}
		r.Stats.Partial, r.Stats.Elapsed, r.Stats.Epsilon = true, time.Since(began), a.eps
		return r, ErrTimeout
	}
	eps := best.Stats.Epsilon
	best.Stats = a.stats
	best.Stats.Epsilon, best.Stats.Elapsed = eps, time.Since(began)
	return best, nil
}

// improve is ComputeOrImprovePath (Algorithm 1 lines 16–26), stopped by
// ctx (ErrTimeout; a later pass resumes from OPEN).
func (a *ADStar) improve(ctx context.Context) error {
	st, s := &a.st, a.start
	for steps := 0; len(a.open.items) > 0; steps++ {
		top := a.open.top()
		if t1, t2 := a.key(s); !keyBefore(top.key, top.tie, t1, t2, a.open.slack) && st.rhs[s] == st.g[s] {
			break
		}
		if steps%checkEvery == 0 && ctx.Err() != nil {
			return ErrTimeout
		}
		a.stats.Expansions++
		if u := top.id; st.g[u] > st.rhs[u] {
			a.lower(u)
		} else {
			a.raise(u)
		}
	}
	return nil
}

// lower expands an over-consistent node (lines 19–21, 25–26): g falls to
// rhs, the node is closed for this pass, and the predecessors it improves
// are updated.
func (a *ADStar) lower(u NodeID) {
	st := &a.st
	st.g[u] = st.rhs[u]
	a.closed[u] = a.pass
	a.open.remove(int(st.pos[u]), st.pos)
	gu := st.g[u]
	a.edges = a.g.Predecessors(u, a.edges[:0])
	for _, e := range a.edges {
		s := e.To
		a.touch(s)
		if c := e.Cost + gu; c < st.rhs[s] && s != a.goal {
			st.rhs[s], st.bp[s] = c, u
			a.queue(s)
		}
	}
}

// raise expands an under-consistent node (lines 22–26): g becomes ∞ and
// the predecessors whose rhs came through it are recomputed.
func (a *ADStar) raise(u NodeID) {
	st := &a.st
	st.g[u] = math.Inf(1)
	a.queue(u)
	a.edges = a.g.Predecessors(u, a.edges[:0])
	n := len(a.edges)
	for i := 0; i < n; i++ {
		s := a.edges[i].To
		a.touch(s)
		if st.bp[s] == u {
			a.recompute(s, n)
			a.queue(s)
		}
	}
}

// path follows the back pointers from the start to the goal; each
// step's cost is rhs(v) − g(bp(v)), which UpdateState keeps equal to
// c(v, bp(v)).
func (a *ADStar) path(dst []NodeID) ([]NodeID, float64, error) {
	st := &a.st
	dst = append(dst[:0], a.start)
	cost := 0.0
	for v := a.start; v != a.goal; {
		next := st.bp[v]
		if next == None || st.stamp[next] != st.cur || len(dst) > a.g.NumNodes() {
			return nil, 0, fmt.Errorf("planners: AD* path from %d breaks at node %d (g %v, rhs %v)", a.start, v, st.g[v], st.rhs[v])
		}
		cost += st.rhs[v] - st.g[next]
		v = next
		dst = append(dst, v)
	}
	return dst, cost, nil
}
