package planners

import (
	"context"
	"fmt"
	"math"
	"time"
)

// ADStar is Anytime Dynamic A* (Likhachev, Ferguson, Gordon, Stentz and
// Thrun, 2005; Kapadia et al., Appendix B, Algorithms 1 and 2): a
// backward search like D* Lite whose heuristic is inflated by ε, so a
// first path comes fast and is improved, ε step by ε step, while time
// allows; and like D* Lite it repairs its search when the robot moves or
// edges change. It runs on D* Lite's search (lpa) with three additions:
//
//   - keys follow Algorithm 1 lines 1–5: an over-consistent node
//     (g > rhs) is keyed [rhs + ε·h; rhs], an under-consistent one
//     [g + h; g], uninflated, so that cost increases reach every node
//     they affect (inflating both is the pitfall Krafft's thesis ran into:
//     the search stops before the start is right);
//   - a node expanded in the current pass that becomes inconsistent again
//     waits on INCONS for the next ε;
//   - instead of k_m, every open key is recomputed when a pass starts,
//     for the new ε and start (Algorithm 1 lines 28–29, Algorithm 2
//     lines 7–8).
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

	p       lpa      // backward: root the goal, target the start
	mark    []uint32 // markGen: the node changed in the current Update
	markGen uint32
	// cut: the last Plan ran out of time in the middle of a pass from
	// cutStart, and no Update came since; a Plan from there resumes it.
	cut      bool
	cutStart NodeID
}

// NewADStar returns an AD* planner over g.
func NewADStar(g Graph) *ADStar { return &ADStar{p: lpa{g: g, backward: true, anytime: true}} }

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
func (a *ADStar) Epsilon() float64 { return a.p.eps }

// Reached reports whether the search has given n a finite g or rhs. No
// node's g or rhs comes through a node it has not reached, so such a node
// may leave the graph, with its edges, without an Update: it changes
// nothing the search knows. (A node that comes back is a change.)
func (a *ADStar) Reached(n NodeID) bool {
	st := &a.p.st
	if !a.p.started || n < 0 || int(n) >= len(st.nodes) || st.nodes[n].stamp != st.cur {
		return false
	}
	return !math.IsInf(st.nodes[n].g, 1) || !math.IsInf(st.nodes[n].rhs, 1)
}

// Reset drops the search state, keeping its memory.
func (a *ADStar) Reset() { a.p.started, a.cut = false, false }

// Update tells the planner that the edges of these nodes changed (see
// Graph; Algorithm 2 lines 13–21). A change to a node of the current path
// (lines 14–16: the plan is invalidated) or of LargeChange nodes or more
// sends ε back to ε₀.
func (a *ADStar) Update(changed []NodeID) error {
	onPath := false
	if a.p.started {
		for _, v := range changed {
			if v < 0 || int(v) >= a.p.g.NumNodes() {
				return fmt.Errorf("%w: changed node %d, graph of %d nodes", ErrNodeRange, v, a.p.g.NumNodes())
			}
		}
		a.p.fit()
		onPath = a.touchesPath(changed)
	}
	if err := a.p.update(changed); err != nil {
		return err
	}
	a.cut = a.cut && len(changed) == 0
	large := a.LargeChange
	if large == 0 {
		large = 1000
	}
	if a.p.started && (onPath || len(changed) >= large) {
		a.p.eps = a.epsilon0()
	}
	return nil
}

// touchesPath reports whether a changed node lies on the current path,
// the back-pointer chain from the start to the goal.
func (a *ADStar) touchesPath(changed []NodeID) bool {
	st, start := &a.p.st, a.p.target
	if st.nodes[start].stamp != st.cur || math.IsInf(st.nodes[start].g, 1) {
		return false
	}
	a.fitMark()
	if a.markGen++; a.markGen == 0 {
		clear(a.mark)
		a.markGen = 1
	}
	for _, v := range changed {
		a.mark[v] = a.markGen
	}
	for v, steps := start, 0; v != None && steps <= len(a.mark); v, steps = st.nodes[v].bp, steps+1 {
		if a.mark[v] == a.markGen {
			return true
		}
		if v == a.p.root || st.nodes[v].stamp != st.cur {
			break
		}
	}
	return false
}

// fitMark sizes mark for the graph (Plan does it, so that Update does
// not pay for it).
func (a *ADStar) fitMark() {
	a.mark = grow(a.mark, len(a.p.st.nodes))
}

// newPass starts a pass at the current ε (Algorithm 1 lines 28–29 and
// Algorithm 2 lines 7–8): INCONS moves to OPEN, CLOSED empties, and every
// open key is recomputed for the new ε and start.
func (a *ADStar) newPass() {
	p := &a.p
	st := &p.st
	p.pass++
	for _, n := range p.incons {
		if st.pos[n] != inIncons {
			continue
		}
		st.pos[n] = unqueued
		if st.nodes[n].g != st.nodes[n].rhs {
			p.open.push(heapItem{id: n}, st.pos)
		}
	}
	p.incons = p.incons[:0]
	p.rekey()
}

// Plan returns a path from start to goal: it runs passes at falling ε
// until ε is EpsilonMin (1) or ctx ends, and returns the last complete
// one, whose cost is at most Stats.Epsilon times the optimum. A call after
// the robot moved (a new start) or after Update repairs the previous
// search; a new goal starts over at ε₀. Only when ctx ends before any path
// is found does it return ErrTimeout (Stats.Partial); the next call
// resumes the search. A pass cut by ctx goes on where it stopped when the
// next call has the same start and goal and no Update came between;
// otherwise a new pass starts (Algorithm 2 lines 7–8), as after every
// change.
func (a *ADStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	p := &a.p
	p.stats = Stats{}
	if err := checkEnds(p.g, start, goal); err != nil {
		return Result{}, err
	}
	if e0, step, floor := a.epsilon0(), a.epsilonStep(), a.EpsilonMin; !(e0 >= 1) || math.IsInf(e0, 0) ||
		!(step > 0) || math.IsInf(step, 0) || math.IsNaN(floor) || math.IsInf(floor, 0) {
		return Result{}, fmt.Errorf("planners: AD* ε₀ %v, step %v, minimum %v: want finite ε₀ ≥ 1, step > 0 and minimum", e0, step, floor)
	}
	resume := a.cut && p.started && goal == p.root && start == a.cutStart
	a.cut = false
	if !p.started || goal != p.root {
		p.eps = a.epsilon0() // ClearPlanData (Algorithm 2 lines 3, 10)
		p.restart(goal, start)
	}
	p.setTarget(start) // Algorithm 2 line 6; newPass re-keys (lines 7–8)
	p.fit()
	a.fitMark()
	var best Result
	found := false
	for {
		if found && ctx.Err() != nil {
			break
		}
		if !resume {
			a.newPass()
		}
		resume = false
		if err := p.computeShortestPath(ctx); err != nil { // ComputeOrImprovePath, lines 16–26
			a.cut, a.cutStart = true, start
			break
		}
		if math.IsInf(p.st.nodes[start].g, 1) {
			r := Result{Stats: p.stats}
			r.Stats.Elapsed = time.Since(began)
			return r, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, p.stats.Expansions)
		}
		path, cost, err := p.path(dst)
		if err != nil { // only with the test-only standard key (the pitfall)
			return Result{Stats: p.stats}, err
		}
		dst, found = path, true
		best = Result{Path: path, Cost: cost, Stats: p.stats}
		best.Stats.Epsilon, best.Stats.Elapsed = p.eps, time.Since(began)
		if a.OnImprove != nil {
			a.OnImprove(best)
		}
		if !a.lowerEpsilon() {
			break
		}
	}
	if !found {
		r := Result{Stats: p.stats}
		r.Stats.Partial, r.Stats.Elapsed, r.Stats.Epsilon = true, time.Since(began), p.eps
		return r, ErrTimeout
	}
	eps := best.Stats.Epsilon
	best.Stats = p.stats
	best.Stats.Epsilon, best.Stats.Elapsed = eps, time.Since(began)
	return best, nil
}

// lowerEpsilon takes ε one step down (Algorithm 1: decrease ε, then
// INCONS → OPEN) and reports whether it moved: false at EpsilonMin.
func (a *ADStar) lowerEpsilon() bool {
	floor := max(1, a.EpsilonMin)
	if a.p.eps <= floor {
		return false
	}
	next := max(floor, a.p.eps-a.epsilonStep())
	if next >= a.p.eps {
		next = floor // a step too small to change ε
	}
	a.p.eps = next
	return true
}
