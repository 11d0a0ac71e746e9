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
type AStar struct {
	Weight float64 // ≥ 1; 0 means 1

	g     Graph
	st    searchState
	open  openList
	edges []Edge

	cells    brickState // the lattice fast path's state (planLattice)
	cellOpen cellHeap
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
// to the expanded node nearest the goal by the heuristic.
func (a *AStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
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
	if l, allowed, ok := latticeOf(a.g); ok && a.cells.reset(l) {
		return a.planLattice(ctx, l, allowed, start, goal, w, dst, began)
	}
	g, st := a.g, &a.st
	st.reset(g.NumNodes())
	a.open.items = a.open.items[:0]
	st.touch(start)
	st.g[start] = 0
	h0 := g.Heuristic(start, goal)
	a.open.push(heapItem{key: w * h0, tie: 0, id: start}, st.pos)
	stats := Stats{Touched: 1, Epsilon: w}
	best, bestH := start, h0
	for len(a.open.items) > 0 {
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			stats.Elapsed, stats.Partial = time.Since(began), true
			return Result{Path: st.pathTo(best, dst), Cost: st.g[best], Stats: stats}, ErrTimeout
		}
		it := a.open.pop(st.pos)
		u := it.id
		st.pos[u] = closed
		if u == goal {
			stats.Elapsed = time.Since(began)
			return Result{Path: st.pathTo(goal, dst), Cost: st.g[goal], Stats: stats}, nil
		}
		stats.Expansions++
		if h := g.Heuristic(u, goal); h < bestH {
			best, bestH = u, h
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
			f := ng + w*g.Heuristic(v, goal)
			if p := st.pos[v]; p >= 0 {
				a.open.update(int(p), f, -ng, st.pos)
			} else {
				a.open.push(heapItem{key: f, tie: -ng, id: v}, st.pos)
			}
		}
	}
	stats.Elapsed = time.Since(began)
	return Result{Stats: stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, stats.Expansions)
}
