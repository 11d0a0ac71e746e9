package planners

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Stats describes one planning call.
type Stats struct {
	Expansions int           // nodes expanded
	Touched    int           // nodes whose search data was initialised
	Elapsed    time.Duration // wall time of the call
	Epsilon    float64       // suboptimality bound of the returned path: cost ≤ ε · optimal
	// Partial: the deadline passed before a path was found. A* and Lazy
	// Theta* (and DPA*'s Plan) return a path toward the goal, to the
	// expanded node nearest it; the incremental planners and Replan
	// return none (their next call resumes the search).
	Partial bool
}

// Result is a path and what it cost to find.
type Result struct {
	Path  []NodeID // start first, goal last; nil without a path
	Cost  float64  // sum of the path's edge costs, up to rounding (Lazy Theta*: of its segments' lengths)
	Stats Stats
}

// checkEvery is how many expansions a planner runs between deadline checks.
const checkEvery = 1024

// checkDue reports whether a planner that has expanded n nodes checks
// its deadline before popping the next: first before expanding anything,
// as LPA*, D* Lite and AD* do, then every checkEvery expansions, so that
// a search cut off has expanded, and counted, exactly the nodes its
// partial path was chosen from.
func checkDue(n int) bool { return n%checkEvery == 0 }

// AStar is A* (Hart, Nilsson and Raphael, 1968) and weighted A*: f = g +
// Weight·h, ties broken toward larger g. With Weight 1 and a consistent
// heuristic its paths are optimal; with Weight w they cost at most w times
// the optimum. One AStar serves many queries on its graph and reuses its
// state. On a Lattice it takes a page of state for each 4096-cell brick a
// query reaches and hands the pages on to the next query (brickState):
// memory follows the largest query, not the map. On other graphs it
// allocates flat per-node state once (searchState).
//
// A search that ran out of time is kept until the next Plan, and Resume
// goes on with it.
type AStar struct {
	Weight float64 // ≥ 1; 0 means 1

	g     Graph
	st    searchState
	open  openList
	edges []Edge

	cells    brickState // the lattice fast path's state (searchLattice)
	cellOpen cellHeap

	run astarRun
}

// astarRun is the query of the last Plan: what Resume needs to go on.
type astarRun struct {
	cut     bool // the deadline cut the search off: Resume may go on with it
	from    NodeID
	target  NodeID // the goal the keys' heuristic aims at: Plan's
	goal    NodeID // the node the search stops at: Plan's, or Resume's
	w       float64
	lattice *Lattice // the fast path's lattice (nil: the generic search)
	allowed []uint64 // and its Masked set
	best    NodeID   // the expanded node nearest target by the heuristic
	bestH   float64
}

// NewAStar returns an A* planner over g.
func NewAStar(g Graph) *AStar { return &AStar{g: g} }

// checkEnds validates a query's start and goal.
func checkEnds(g Graph, start, goal NodeID) error {
	n := NodeID(g.NumNodes())
	switch {
	case start < 0 || start >= n || goal < 0 || goal >= n:
		return fmt.Errorf("%w: start %d goal %d, graph of %d nodes", ErrNodeRange, start, goal, n)
	case !g.Passable(start):
		return fmt.Errorf("%w: node %d", ErrStartBlocked, start)
	case !g.Passable(goal):
		return fmt.Errorf("%w: node %d", ErrGoalBlocked, goal)
	}
	return nil
}

// Plan searches from start to goal and writes the path into dst's
// storage. When ctx ends first it returns ErrTimeout with a partial path
// to the expanded node nearest the goal by the heuristic, and keeps the
// search for Resume.
func (a *AStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	a.run.cut = false
	if err := checkEnds(a.g, start, goal); err != nil {
		return Result{}, err
	}
	w := a.Weight
	if w == 0 {
		w = 1
	}
	if !(w >= 1) || math.IsInf(w, 0) {
		return Result{}, fmt.Errorf("planners: A* weight %v: want ≥ 1", w)
	}
	h0 := a.g.Heuristic(start, goal)
	a.run = astarRun{from: start, target: goal, goal: goal, w: w, best: start, bestH: h0}
	stats := Stats{Touched: 1, Epsilon: w}
	if l, allowed, ok := latticeOf(a.g); ok && a.cells.reset(l) {
		a.run.lattice, a.run.allowed = l, allowed
		a.cellOpen.items = a.cellOpen.items[:0]
		hs := a.cells.handle(l.Cell(start))
		a.cells.cell(hs).meta = cellSeen | noMove
		a.cellOpen.push(makeCellItem(w*h0, 0, hs), &a.cells)
		return a.searchLattice(ctx, stats, began, dst)
	}
	st := &a.st
	st.reset(a.g.NumNodes())
	a.open.items = a.open.items[:0]
	st.touch(start)
	st.g[start] = 0
	a.open.push(heapItem{key: w * h0, tie: 0, id: start}, st.pos)
	return a.search(ctx, stats, began, dst)
}

// Suspended returns the start of the search the deadline cut off, which
// Resume can go on with, and false when there is none: the last Plan or
// Resume finished, failed, or never ran.
func (a *AStar) Suspended() (NodeID, bool) { return a.run.from, a.run.cut }

// Resume goes on with the search the deadline cut off (see Suspended),
// from the same start, until it expands goal: Plan's goal, or another
// node. The search keeps the order of Plan's goal (its keys are not
// recomputed, so Resume costs nothing before its first deadline check);
// every node it expands has its optimal cost from the start (at most
// Weight times it), so the path to another goal is as good as Plan's,
// though reaching a goal far from Plan's may take more expansions than a
// search aimed at it. A goal already expanded is answered at once. It is
// exact only if the graph has not changed since that Plan; telling is
// the caller's part. Without a suspended search it returns ErrNoSearch.
// Its Stats count this call's work; a partial path on timeout leads to
// the expanded node nearest Plan's goal.
func (a *AStar) Resume(ctx context.Context, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	r := &a.run
	if !r.cut {
		return Result{}, ErrNoSearch
	}
	if goal != r.goal {
		if err := checkEnds(a.g, r.from, goal); err != nil {
			return Result{}, err
		}
		r.goal = goal
		if path, cost, ok := a.expanded(goal, dst); ok {
			r.cut = false
			return Result{Path: path, Cost: cost, Stats: Stats{Epsilon: r.w, Elapsed: time.Since(began)}}, nil
		}
	}
	r.cut = false
	if r.lattice != nil {
		return a.searchLattice(ctx, Stats{Epsilon: r.w}, began, dst)
	}
	return a.search(ctx, Stats{Epsilon: r.w}, began, dst)
}

// expanded returns the path to n and its cost when the run has expanded
// n.
func (a *AStar) expanded(n NodeID, dst []NodeID) ([]NodeID, float64, bool) {
	if l := a.run.lattice; l != nil {
		st := &a.cells
		if c := st.cell(st.handle(l.Cell(n))); c.meta&cellClosed != 0 {
			return st.pathTo(l, n, dst), c.g, true
		}
		return nil, 0, false
	}
	st := &a.st
	if st.stamp[n] == st.cur && st.pos[n] == closed {
		return st.pathTo(n, dst), st.g[n], true
	}
	return nil, 0, false
}

// search runs the generic search of the run set up by Plan.
func (a *AStar) search(ctx context.Context, stats Stats, began time.Time, dst []NodeID) (Result, error) {
	g, st, r := a.g, &a.st, &a.run
	goal, target, w := r.goal, r.target, r.w
	for len(a.open.items) > 0 {
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			stats.Elapsed, stats.Partial = time.Since(began), true
			r.cut = true
			return Result{Path: st.pathTo(r.best, dst), Cost: st.g[r.best], Stats: stats}, ErrTimeout
		}
		it := a.open.pop(st.pos)
		u := it.id
		st.pos[u] = closed
		if u == goal {
			stats.Elapsed = time.Since(began)
			return Result{Path: st.pathTo(goal, dst), Cost: st.g[goal], Stats: stats}, nil
		}
		stats.Expansions++
		if h := g.Heuristic(u, target); h < r.bestH {
			r.best, r.bestH = u, h
		}
		gu := st.g[u]
		a.edges = g.Successors(u, a.edges[:0])
		for _, e := range a.edges {
			v := e.To
			if st.touch(v) {
				stats.Touched++
			}
			if st.pos[v] == closed {
				continue // consistent heuristic: closed nodes are final (weighted: not reopened)
			}
			ng := gu + e.Cost
			if ng >= st.g[v] {
				continue
			}
			st.g[v], st.parent[v] = ng, u
			f := ng + w*g.Heuristic(v, target)
			if p := st.pos[v]; p >= 0 {
				a.open.update(int(p), f, -ng, st.pos)
			} else {
				a.open.push(heapItem{key: f, tie: -ng, id: v}, st.pos)
			}
		}
	}
	stats.Elapsed = time.Since(began)
	return Result{Stats: stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, r.from, goal, stats.Expansions)
}
