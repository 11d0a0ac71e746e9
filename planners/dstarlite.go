package planners

import (
	"context"
	"time"
)

// DStarLite is D* Lite (Koenig and Likhachev, 2002): a backward
// incremental search from the goal that repairs the path as the robot
// moves and the graph changes, instead of searching again. Call Plan with
// the robot's current node; after changing the graph, call Update with
// the nodes whose edges changed before the next Plan.
//
// A moving start is handled with the key modifier k_m. A new goal has no
// search tree to reuse (every g is a distance to the old goal), so Plan
// starts over, in O(1), and the next search is as costly as A*'s.
type DStarLite struct {
	p    lpa
	last NodeID // s_last: where the start was when k_m was last raised
}

// NewDStarLite returns a D* Lite planner over g.
func NewDStarLite(g Graph) *DStarLite {
	return &DStarLite{p: lpa{g: g, backward: true, coldFloor: minColdHeap}}
}

// Plan returns the cheapest path from start to goal, repairing the
// previous call's search. When ctx ends first it returns ErrTimeout and
// no path; the search state stays valid and the next Plan resumes it.
func (d *DStarLite) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	p := &d.p
	p.stats = Stats{Epsilon: 1}
	if err := checkEnds(p.g, start, goal); err != nil {
		return Result{}, err
	}
	switch {
	case !p.started || goal != p.root:
		p.restart(goal, start)
		d.last = start
	case start != p.target:
		d.moveTo(start)
	}
	return p.search(ctx, start, goal, dst, began)
}

// moveTo makes s the start: k_m grows by the heuristic distance from
// where it last grew (line 30′), and the open keys are due a refresh.
func (d *DStarLite) moveTo(s NodeID) {
	p := &d.p
	p.km += p.g.Heuristic(d.last, s)
	d.last = s
	p.setTarget(s)
	p.refreshDue = true
}

// Update tells the planner that the edges of these nodes changed (see
// Graph): each one's rhs is recomputed and requeued, and the next Plan
// repairs from there.
func (d *DStarLite) Update(changed []NodeID) error { return d.p.update(changed) }

// Reset drops the search state, keeping its memory: the next Plan searches
// from scratch.
func (d *DStarLite) Reset() { d.p.started = false }

// LPAStar is Lifelong Planning A* (Koenig, Likhachev and Furcy, 2004): a
// forward incremental search from a fixed start that repairs its g
// values when edges change. A new start starts over; a new goal keeps
// every g and rhs (they are distances from the start) and only re-keys the
// open list, so changing the goal is cheap.
type LPAStar struct{ p lpa }

// NewLPAStar returns an LPA* planner over g.
func NewLPAStar(g Graph) *LPAStar { return &LPAStar{p: lpa{g: g}} }

// Plan returns the cheapest path from start to goal, repairing the
// previous call's search. When ctx ends first it returns ErrTimeout and
// no path; the next Plan resumes.
func (l *LPAStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	p := &l.p
	p.stats = Stats{Epsilon: 1}
	if err := checkEnds(p.g, start, goal); err != nil {
		return Result{}, err
	}
	switch {
	case !p.started || start != p.root:
		p.restart(start, goal)
	case goal != p.target:
		p.setTarget(goal)
		p.rekey()
	}
	return p.search(ctx, start, goal, dst, began)
}

// Update tells the planner that the edges of these nodes changed.
func (l *LPAStar) Update(changed []NodeID) error { return l.p.update(changed) }

// Reset drops the search state, keeping its memory.
func (l *LPAStar) Reset() { l.p.started = false }
