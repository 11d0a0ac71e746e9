package planners

import (
	"context"
	"fmt"
	"math"
	"time"
)

// ARAStar is Anytime Repairing A* (Likhachev, Gordon and Thrun, "ARA*:
// Anytime A* with provable bounds on sub-optimality", NIPS 2003): a
// series of forward weighted-A* searches, f = g + ε·h, with ε lowered
// from Epsilon0 by EpsilonStep down to EpsilonMin (1 by default). Each
// search reuses the g-values of the previous one: a node whose g drops
// after it was expanded in the current search goes to INCONS instead of
// OPEN, and INCONS is merged into OPEN, re-keyed with the new ε, before
// the next search. After each search the path costs at most ε'·optimal,
// ε' = min(ε, g(goal) / min over OPEN ∪ INCONS of (g + h)).
//
// Comments {nn} and {nn'} mark the lines of the paper's ImprovePath and
// Main. One ARAStar serves many queries on its graph and allocates its
// per-node state once.
type ARAStar struct {
	Epsilon0    float64 // inflation of the first search, ≥ 1; 0 means 2.5
	EpsilonStep float64 // how much ε drops between searches, > 0; 0 means 0.5
	// EpsilonMin ends the schedule once the bound reaches it (≥ 1; 0
	// means 1, an optimal path). Krafft (thesis, §6.4) found stopping at
	// 1.4 made a moving robot backtrack less.
	EpsilonMin float64

	g      Graph
	st     araState
	open   openList
	incons []NodeID // INCONS: closed nodes whose g dropped in this search
	edges  []Edge
}

// NewARAStar returns an ARA* planner over g.
func NewARAStar(g Graph) *ARAStar { return &ARAStar{g: g} }

// Slot states of a node in araState.pos besides its open-list slot.
const (
	araOut    int32 = unqueued // in neither OPEN nor INCONS
	araIncons int32 = -3       // in INCONS
)

// araState is ARA*'s per-node data in flat slices indexed by NodeID,
// reset in O(1) by a query stamp. CLOSED is emptied in O(1) between
// searches by a second stamp: a node is in CLOSED when closedIn equals
// the current search's number.
type araState struct {
	searchState          // g: cost of the best path from the start; pos: slot in OPEN, or araOut, or araIncons
	closedIn    []uint32 // search (ImprovePath call) that expanded the node [len = NumNodes]
	search      uint32   // never 0 once a search began
}

// reset starts a new query over n nodes.
func (s *araState) reset(n int) {
	if len(s.closedIn) != n {
		s.closedIn = make([]uint32, n)
		s.search = 0
	}
	s.searchState.reset(n)
}

// nextSearch empties CLOSED.
func (s *araState) nextSearch() {
	if s.search++; s.search == 0 {
		clear(s.closedIn)
		s.search = 1
	}
}

// araRun is the progress of one Plan call.
type araRun struct {
	start, goal NodeID
	eps         float64 // inflation of the running search
	bound       float64 // bound of the last finished search's path; 0 before the first
	best        NodeID  // expanded node nearest the goal, for a partial path
	bestH       float64
	stats       Stats
}

// Plan runs searches with decreasing ε until the bound reaches
// EpsilonMin or ctx ends, and writes the best path into dst's storage.
// Stats.Epsilon is the bound of the returned path. When ctx ends after a
// first path was found, Plan returns that path (or a better one found
// since) and no error; before that, it returns ErrTimeout with a partial
// path to the expanded node nearest the goal by the heuristic, and
// Stats.Epsilon is the inflation the interrupted search used.
func (a *ARAStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	if err := checkEnds(a.g, start, goal); err != nil {
		return Result{}, err
	}
	eps, step, floor, err := a.schedule()
	if err != nil {
		return Result{}, err
	}
	r := araRun{start: start, goal: goal, eps: eps, best: start, bestH: a.g.Heuristic(start, goal)}
	if start == goal {
		r.stats.Epsilon, r.stats.Elapsed = 1, time.Since(began)
		return Result{Path: append(dst[:0], start), Stats: r.stats}, nil
	}
	a.begin(&r)
	for {
		if !a.improvePath(ctx, &r) {
			return a.finish(&r, dst, began)
		}
		if math.IsInf(a.st.g[goal], 1) {
			r.stats.Elapsed = time.Since(began)
			return Result{Stats: r.stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, r.stats.Expansions)
		}
		r.bound = a.bound(&r) // {05'}, {13'}
		if r.bound <= floor || ctx.Err() != nil {
			return a.finish(&r, dst, began) // {06'}, {14'}
		}
		r.eps = araLower(r.eps, step, floor) // {07'}–{08'}
		a.reopen(&r)                         // {09'}–{11'}
	}
}

// schedule validates and defaults the ε schedule.
func (a *ARAStar) schedule() (eps0, step, floor float64, err error) {
	eps0, step, floor = a.Epsilon0, a.EpsilonStep, a.EpsilonMin
	if eps0 == 0 {
		eps0 = 2.5
	}
	if step == 0 {
		step = 0.5
	}
	if floor == 0 {
		floor = 1
	}
	if !(floor >= 1) || !(eps0 >= floor) || !(step > 0) || math.IsInf(eps0, 0) {
		return 0, 0, 0, fmt.Errorf("planners: ARA* schedule ε0 %v step %v min %v: want ε0 ≥ min ≥ 1, step > 0, finite", eps0, step, floor)
	}
	return eps0, step, floor, nil
}

// araLower is the next ε of the schedule, snapped to floor when rounding
// leaves it a hair above, or when the step is too small to change ε.
func araLower(eps, step, floor float64) float64 {
	if next := eps - step; next > floor*(1+1e-9) && next < eps {
		return next
	}
	return floor
}

// begin resets the state and puts the start into OPEN, {01'}–{03'}.
func (a *ARAStar) begin(r *araRun) {
	st := &a.st
	st.reset(a.g.NumNodes())
	st.nextSearch()
	a.open.items = a.open.items[:0]
	a.incons = a.incons[:0]
	for _, n := range [2]NodeID{r.start, r.goal} {
		if st.touch(n) {
			r.stats.Touched++
		}
	}
	st.g[r.start] = 0
	a.open.push(heapItem{key: r.eps * r.bestH, id: r.start}, st.pos)
}

// improvePath is ImprovePath, {02}–{13}: expand nodes in order of f = g
// + ε·h until the goal's f is no larger than any in OPEN. It reports
// false when ctx ended first.
func (a *ARAStar) improvePath(ctx context.Context, r *araRun) bool {
	st := &a.st
	epsHGoal := r.eps * a.g.Heuristic(r.goal, r.goal)                       // 0 for a proper heuristic
	for len(a.open.items) > 0 && st.g[r.goal]+epsHGoal > a.open.top().key { // {02}
		if checkDue(r.stats.Expansions) && ctx.Err() != nil {
			return false
		}
		u := a.open.pop(st.pos).id // {03}
		st.closedIn[u] = st.search // {04}
		r.stats.Expansions++
		if r.bound == 0 {
			if h := a.g.Heuristic(u, r.goal); h < r.bestH {
				r.best, r.bestH = u, h
			}
		}
		a.expand(u, r)
	}
	return true
}

// expand relaxes the edges leaving u, {05}–{13}.
func (a *ARAStar) expand(u NodeID, r *araRun) {
	st := &a.st
	gu := st.g[u]
	a.edges = a.g.Successors(u, a.edges[:0])
	for _, e := range a.edges { // {05}
		v := e.To
		if st.touch(v) { // {06}–{07}
			r.stats.Touched++
		}
		ng := gu + e.Cost
		if ng >= st.g[v] { // {08}
			continue
		}
		st.g[v], st.parent[v] = ng, u // {09}
		switch p := st.pos[v]; {
		case st.closedIn[v] == st.search: // {12}–{13}: expanded in this search
			if p != araIncons {
				st.pos[v] = araIncons
				a.incons = append(a.incons, v)
			}
		case p >= 0: // {10}–{11}
			a.open.update(int(p), ng+r.eps*a.g.Heuristic(v, r.goal), -ng, st.pos)
		default:
			a.open.push(heapItem{key: ng + r.eps*a.g.Heuristic(v, r.goal), tie: -ng, id: v}, st.pos)
		}
	}
}

// bound is the suboptimality bound of the current path to the goal,
// {05'}: ε' = min(ε, g(goal) / min over OPEN ∪ INCONS of (g + h)).
func (a *ARAStar) bound(r *araRun) float64 {
	st := &a.st
	lb := math.Inf(1)
	for _, it := range a.open.items {
		lb = min(lb, st.g[it.id]+a.g.Heuristic(it.id, r.goal))
	}
	for _, n := range a.incons {
		lb = min(lb, st.g[n]+a.g.Heuristic(n, r.goal))
	}
	if gg := st.g[r.goal]; gg > lb {
		return min(r.eps, gg/lb)
	}
	return 1 // no inconsistent node could lead to a cheaper path
}

// reopen prepares the next search, {09'}–{11'}: INCONS moves into OPEN,
// OPEN is re-keyed with the new ε, and CLOSED is emptied.
func (a *ARAStar) reopen(r *araRun) {
	st := &a.st
	ids := a.incons
	for _, it := range a.open.items {
		ids = append(ids, it.id)
	}
	a.open.items = a.open.items[:0]
	for _, n := range ids {
		gn := st.g[n]
		a.open.push(heapItem{key: gn + r.eps*a.g.Heuristic(n, r.goal), tie: -gn, id: n}, st.pos)
	}
	a.incons = ids[:0]
	st.nextSearch()
}

// finish builds the result: the path to the goal when a search has
// finished, else (interrupted) a partial path with ErrTimeout. The path
// follows the current back-pointers, which cost no more than the last
// finished search's g(goal) (g only falls), so its bound still holds.
func (a *ARAStar) finish(r *araRun, dst []NodeID, began time.Time) (Result, error) {
	res := Result{Stats: r.stats}
	var err error
	if r.bound == 0 {
		res.Path = a.pathTo(r.best, dst)
		res.Stats.Epsilon, res.Stats.Partial = r.eps, true
		err = ErrTimeout
	} else {
		res.Path = a.pathTo(r.goal, dst)
		res.Stats.Epsilon = r.bound
	}
	res.Cost = araPathCost(a.g, res.Path, &a.edges)
	res.Stats.Elapsed = time.Since(began)
	return res, err
}

// pathTo writes the back-pointer path from the start to n into dst.
func (a *ARAStar) pathTo(n NodeID, dst []NodeID) []NodeID {
	dst = dst[:0]
	for v := n; v != None; v = a.st.parent[v] {
		dst = append(dst, v)
	}
	for i, j := 0, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// araPathCost sums the costs of path's edges in g, each the cheapest edge
// between its two nodes; buf is scratch for Successors.
func araPathCost(g Graph, path []NodeID, buf *[]Edge) float64 {
	cost := 0.0
	for i := 1; i < len(path); i++ {
		*buf = g.Successors(path[i-1], (*buf)[:0])
		c := math.Inf(1)
		for _, e := range *buf {
			if e.To == path[i] {
				c = min(c, e.Cost)
			}
		}
		cost += c
	}
	return cost
}
