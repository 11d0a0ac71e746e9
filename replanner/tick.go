package replanner

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// Output is what one Tick decided. Its slices are the caller's.
type Output struct {
	Status Status
	// Path is the path to follow, smoothed by line of sight, metres in the
	// map frame: the robot's position first (or, when the robot is inside
	// an inflated obstacle, the centre of the voxel it plans from), Goal
	// last. Empty unless Following.
	Path []r3.Vector
	// Raw is the lattice path from the robot's voxel to the goal's, and
	// RawCost its cost in lattice units (voxel edges weighted by cost;
	// × resolution = metres when no cost weighs).
	Raw     []voxel.Key
	RawCost float64
	// Replanned: the planner ran and produced the path in this Tick (not
	// when the previous path was kept and trimmed behind the robot).
	Replanned bool
	// Pending: the search is not finished (it ran out of time, or AD* is
	// still above ε = 1); the next Tick goes on with it (or, after a
	// change, with a new one), so call it soon.
	Pending bool
	// Repair: the search answered a change of the world or of the goal
	// (a new goal, a change across the path, a cost that fell), not only
	// the robot off its path's cells or AD* improving its bound.
	Repair bool
	// Epsilon bounds the path's suboptimality: RawCost ≤ Epsilon ·
	// optimal. 1 but for AD* still improving, and +Inf (no bound known)
	// for a previous path kept, still legal, after a change while its
	// repair ran out of time, and for the Tunnel strategy's paths but
	// those it can show optimal.
	Epsilon float64
	// Detour: the path is a stopgap round a change that blocked the old
	// one, rejoining it (Epsilon +Inf), published while the repair goes on
	// (Pending) because it ran past Config.RepairBudget.
	Detour bool
	// Held: the path is kept against a cheaper one that the searches
	// have found for less than Config.SwitchDelay. Epsilon bounds it, or
	// is +Inf on a Tick whose search the Budget cut off after the robot
	// or the map moved on from the search that found the cheaper path.
	// The next Tick searches again: call it at the loop's usual rate, or
	// soon when Pending (a search cut off goes on).
	Held bool
	// Stats are the planner's for this Tick (zero without a search).
	// RepairTime is the time spent searching for this Tick's answer: this
	// Tick's search and, for a search that went on over several Ticks
	// (cut off by Budget or RepairBudget), those before it since the last
	// search that finished.
	Stats      planners.Stats
	RepairTime time.Duration
	// Scenario is DPA*'s re-planning scenario for the search that
	// produced this Tick's path (Replanned): NoScenario when it planned
	// afresh, when the search did not finish, or with another strategy.
	Scenario planners.DPAScenario
	// Goal is the goal actually planned to: the requested one, or the
	// centre of the nearest passable voxel when its voxel is blocked.
	Goal r3.Vector
}

// Tick does the planning work due and returns the path to follow. It
// searches only when it must: a new goal, a change that crossed the
// remaining path, a cost that fell, the robot off the path's cells, AD*
// still above ε = 1, or a search that ran out of time; otherwise it keeps
// the previous path, trimmed behind the robot. It never runs past ctx's
// end nor, beyond one deadline-check interval, past Config.Budget.
func (l *Loop) Tick(ctx context.Context) Output {
	out := l.tick(ctx)
	// A search left unfinished goes on only while there is a goal to plan
	// to from a usable start: not Idle, Reached, Blocked or Unreachable.
	searching := out.Status == Planning || out.Status == Following
	eps := out.Epsilon
	if out.Held {
		eps = l.heldEps // the search's own bound, not the held path's
	}
	out.Pending = searching && (l.stale || l.improvable(eps))
	return out
}

// improvable reports whether searching again, with nothing changed,
// could lower a path's bound eps: AD* above ε = 1. (The other strategies
// publish a bound above 1 only for a path kept while a search is
// unfinished, or, the tunnel, for a search that is finished.)
func (l *Loop) improvable(eps float64) bool { return eps > 1 && l.adstar != nil }

// tick is Tick but for Output.Pending.
func (l *Loop) tick(ctx context.Context) Output {
	if ctx == nil {
		ctx = context.Background()
	}
	if !l.hasGoal {
		return Output{Status: Idle}
	}
	if l.reached {
		return Output{Status: Reached, Goal: l.goalPoint, Epsilon: 1}
	}
	goal, ok := l.resolveGoal()
	if !ok {
		l.path.clear()
		return Output{Status: Unreachable, Goal: l.goal, Epsilon: 1}
	}
	out := Output{Status: Planning, Goal: l.goalPoint, Epsilon: 1}
	if !l.hasPose {
		return out
	}
	if dist(l.pose, l.goalPoint) <= l.cfg.ReachedTolerance {
		l.reached = true
		l.path.clear()
		out.Status = Reached
		return out
	}
	start, from, ok := l.resolveStart()
	if !ok {
		out.Status = Blocked
		return out
	}
	at := l.path.index(start)
	if l.unreachable && !l.newGoal && !l.dirty && start == l.lastStart {
		out.Status = Unreachable // nothing changed since the search that found no path
		return out
	}
	if at >= 0 && !l.newGoal && !l.affected && !l.fell && !l.stale && !l.improvable(l.eps) {
		l.path.head = at // DPA*'s scenario 1: the remaining path is still optimal
		l.since.reset()
		return l.following(out, from, false)
	}
	return l.replan(ctx, out, start, goal, from, at)
}

// replan runs the planner from start to goal and publishes its path; when
// the search runs out of time it keeps the previous path if it is still
// legal and the robot is on it.
func (l *Loop) replan(ctx context.Context, out Output, start, goal planners.NodeID, from r3.Vector, at int) Output {
	l.old = l.old[:0] // for a detour: the path from the robot on (refresh below may drop it)
	if at >= 0 {
		l.old = append(l.old, l.path.nodes[at:]...)
	}
	res, scen, err := l.search(ctx, start, goal, at)
	l.searched += res.Stats.Elapsed
	out.Stats, out.RepairTime = res.Stats, l.searched
	if err == nil {
		out.Scenario = scen
	}
	out.Repair = l.newGoal || l.affected || l.fell
	switch {
	case err == nil && l.hold(res, at):
		out.Scenario = planners.NoScenario // the path is not the search's
		out.Held = l.holding
		return l.following(out, from, false)
	case err == nil:
		if l.path.set(l.g, res.Path) != nil { // cannot happen: planners return lattice moves
			l.resetPlanner()
			l.stale = true
			return out
		}
		l.eps = max(res.Stats.Epsilon, 1)
		l.settle(start)
		return l.following(out, from, true)
	case errors.Is(err, planners.ErrNoPath):
		l.path.clear()
		l.settle(start)
		l.unreachable = true
		out.Status = Unreachable
		return out
	}
	l.stale = true // resume on the next Tick
	l.resumable = errors.Is(err, planners.ErrTimeout)
	if !errors.Is(err, planners.ErrTimeout) {
		l.resetPlanner() // cannot happen: start and goal are passable lattice nodes
	} else if at >= 0 && !l.newGoal && l.affected && l.blockedAhead(at) && l.detour(ctx) {
		out.Detour = true // a stopgap round the change; the repair goes on
		return l.following(out, from, true)
	} else if at >= 0 && !l.newGoal && (!l.affected || !l.path.empty()) {
		// Out of time, but the previous path is still legal and the robot
		// on it. After a change its bound is unknown, and so is that of
		// the rest of an ε-bounded path (only optimality passes to a
		// suffix).
		// A held path's bound stands while the robot and the lattice
		// have not moved since the search that set it.
		out.Held = l.holding && !l.affected
		bound := out.Held && l.heldClean && l.path.nodes[at] == l.heldFrom
		if !bound && (l.affected || l.fell || (l.eps > 1 && at != l.path.head)) {
			l.eps = math.Inf(1)
		}
		l.path.head = at
		return l.following(out, from, false)
	}
	l.path.clear()
	return out
}

// blockedAhead reports whether a step of the path ahead of the robot, at
// index at, is no longer a legal move, and drops the path then. The steps
// behind the robot do not count: it has driven them.
func (l *Loop) blockedAhead(at int) bool {
	l.path.head = at
	return l.path.refresh(l.g) != nil
}

// settle records that a search finished, from start: what it answered
// is up to date.
func (l *Loop) settle(start planners.NodeID) {
	l.newGoal, l.affected, l.fell, l.dirty, l.stale, l.unreachable, l.resumable = false, false, false, false, false, false, false
	l.lastStart, l.searched = start, 0
	l.holding, l.cheaperAt = false, time.Time{}
	l.since.reset()
}

// hold reports whether, after a search from the path's node at found
// res, the loop keeps following its path (Config.SwitchDelay): when costs
// fell and nothing else called for the search (no new goal, no change
// across the path), and res is no cheaper, or has been cheaper for less
// than SwitchDelay. It sets the kept path's bound, and either settles
// (res is final and no cheaper) or leaves the search to be run again.
func (l *Loop) hold(res planners.Result, at int) bool {
	if l.cfg.SwitchDelay <= 0 || at < 0 || l.newGoal || l.affected || !l.fell {
		return false
	}
	l.path.head = at
	if l.path.refresh(l.g) != nil {
		return false // cannot happen: no change crossed the path
	}
	cost, eps := l.path.cost(), max(res.Stats.Epsilon, 1)
	cheaper := res.Cost < cost*(1-1e-9)
	final := l.adstar == nil || eps == 1 // AD* above ε = 1 may yet find a cheaper path
	switch {
	case !cheaper && final:
		l.eps = eps
		l.settle(res.Path[0])
		return true
	case !cheaper: // AD* above ε = 1: nothing cheaper yet
		l.cheaperAt = time.Time{}
	case l.cheaperAt.IsZero() || l.cfg.Now().Before(l.cheaperAt): // first seen, or the clock stepped back
		l.cheaperAt = l.cfg.Now()
	case l.cfg.Now().Sub(l.cheaperAt) >= l.cfg.SwitchDelay:
		return false
	}
	l.eps = eps
	if res.Cost > 0 {
		l.eps = max(eps*cost/res.Cost, 1) // res.Cost ≤ eps · optimal
	}
	l.holding, l.heldEps, l.searched = true, eps, 0
	l.heldFrom, l.heldClean = res.Path[0], true
	l.stale, l.resumable = false, false // this search finished; the next is due at the loop's rate
	return true
}

// search runs the strategy's planner under ctx and the Budget, from
// start, the node at index at of the path (−1: off it), to goal. With
// DPA* it reports the re-planning scenario.
func (l *Loop) search(ctx context.Context, start, goal planners.NodeID, at int) (planners.Result, planners.DPAScenario, error) {
	switch {
	case l.cfg.Budget > 0:
		ctx = newSliceContext(ctx, l.cfg.Budget)
	case l.cfg.RepairBudget > 0 && l.dstar != nil && !l.newGoal && (l.affected || l.stale):
		ctx = newSliceContext(ctx, l.cfg.RepairBudget)
	}
	var res planners.Result
	var scen planners.DPAScenario
	var err error
	switch {
	case l.dstar != nil:
		res, err = l.dstar.Plan(ctx, start, goal, l.plan[:0])
	case l.adstar != nil:
		res, err = l.adstar.Plan(ctx, start, goal, l.plan[:0])
	case l.dpa != nil && l.stale:
		// DPA* keeps no search between Ticks: A* (from the goal, under a
		// deadline) finishes one a deadline cut off, going on from Tick to
		// Tick.
		l.dpa.Forget()
		res, err = fresh(ctx, l.astar, start, goal, l.plan[:0], l.resumable)
	case l.dpa != nil:
		res, scen, err = l.searchDPA(ctx, start, goal, at)
	case l.tunnel != nil:
		res, err = l.tunnel.search(ctx, start, goal, l.plan[:0], l.resumable)
	default:
		res, err = fresh(ctx, l.astar, start, goal, l.plan[:0], l.resumable)
	}
	if err != nil {
		res.Path = nil // A*'s partial path on timeout leads nowhere useful
	} else if cap(res.Path) > cap(l.plan) {
		l.plan = res.Path[:0] // keep the grown buffer for the next search
	}
	return res, scen, err
}

// fresh runs A* search a from start to goal, or, when ctx has a
// deadline (a Budget, or the caller's), from goal to start, and returns
// the path start first. A search from the goal that a deadline cut off
// can go on at the next Tick though the robot has moved (its voxel is
// where the search stops): with resume set, and a's cut-off search grown
// from goal, fresh goes on with it. resume must be set only when the
// graph has not changed since that search began. Without a deadline
// every search ends in its Tick, and it runs forward, from the robot, as
// it always did (on BenchmarkTunnel's events, the tunnel's voxel
// searches from the goal took 15–18 ms against 12–13 forward, their paths
// 5.6% over the optimum on average against 5.3%).
func fresh(ctx context.Context, a *planners.AStar, start, goal planners.NodeID, dst []planners.NodeID, resume bool) (planners.Result, error) {
	var res planners.Result
	var err error
	from, cut := a.Suspended()
	_, reverse := ctx.Deadline()
	switch {
	case resume && cut && from == goal:
		res, err = a.Resume(ctx, start, dst)
	case reverse:
		res, err = a.Plan(ctx, goal, start, dst)
	default:
		return a.Plan(ctx, start, goal, dst)
	}
	if err == nil {
		slices.Reverse(res.Path)
	}
	return res, err
}

func (l *Loop) resetPlanner() {
	switch {
	case l.dstar != nil:
		l.dstar.Reset()
	case l.adstar != nil:
		l.adstar.Reset()
	case l.dpa != nil:
		l.dpa.Forget()
	}
}

// resolveGoal returns the goal node: the requested goal's voxel if it is
// passable, else the nearest passable voxel within GoalTolerance (false
// with none). It sets goalPoint, and newGoal when the node moved.
func (l *Loop) resolveGoal() (planners.NodeID, bool) {
	k, _ := l.frame.KeyOf(l.goal) // SetGoal checked it is inside the Volume
	n, p := l.g.id(k), l.goal
	if !l.g.Passable(n) {
		var ok bool
		if n, ok = l.g.nearest(k, l.cfg.GoalTolerance, l.frame.Resolution); !ok {
			return planners.None, false
		}
		p = l.nodeCentre(n)
	}
	if n != l.goalCell {
		l.goalCell, l.newGoal = n, true
	}
	l.goalPoint = p
	return n, true
}

// resolveStart returns the node to plan from and the path's first point:
// the robot's voxel and position, or, when that voxel is not passable or
// not in the Volume, the nearest passable voxel within StartTolerance and
// its centre (false with none).
func (l *Loop) resolveStart() (planners.NodeID, r3.Vector, bool) {
	k, ok := l.frame.KeyOf(l.pose)
	if !ok {
		return planners.None, r3.Vector{}, false
	}
	if n := l.g.id(k); n != planners.None && l.g.Passable(n) {
		return n, l.pose, true
	}
	n, ok := l.g.nearest(k, l.cfg.StartTolerance, l.frame.Resolution)
	if !ok {
		return planners.None, r3.Vector{}, false
	}
	return n, l.nodeCentre(n), true
}

// following fills out with the remaining path, from the point from.
func (l *Loop) following(out Output, from r3.Vector, replanned bool) Output {
	rem := l.path.remaining()
	out.Status, out.Replanned, out.Epsilon = Following, replanned, l.eps
	if len(rem) == 1 {
		out.Epsilon = 1 // the robot's voxel is the goal's: the path costs nothing, whatever bound the path it was on had
	}
	out.RawCost = l.path.cost()
	out.Raw = make([]voxel.Key, len(rem))
	for i, n := range rem {
		out.Raw[i] = l.g.key(n)
	}
	out.Path = l.smooth(from, rem, l.goalPoint)
	return out
}

// dist is the distance between two points, metres.
func dist(a, b r3.Vector) float64 { return a.Sub(b).Norm() }
