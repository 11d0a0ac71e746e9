package replanner

import (
	"context"
	"math"

	"github.com/navnode/navnode/planners"
)

// rejoinMargin is how many nodes past the last blocked one a detour
// rejoins the old path, so that it has room to come round an inflated
// obstacle back to it.
const rejoinMargin = 8

// detourWeight inflates the detour's heuristic: a stopgap need not be
// optimal, and weighted A* finds it with far fewer expansions round an
// obstacle's cost gradient. Its cost is at most this times the best
// detour to the rejoin node.
const detourWeight = 2

// detour makes the route a legal path to the goal when a repair ran out
// of time after a change blocked the old one: the old path (l.old, from
// the robot on) up to rejoinMargin nodes before its blocked part, weighted
// A* round that part to the old path rejoinMargin nodes past it, and the
// rest of the old path. Its
// bound is unknown (eps +Inf); the repair goes on at the next Tick. It
// reports whether it found one within RepairBudget.
func (l *Loop) detour(ctx context.Context) bool {
	old := l.old
	first, last := -1, -1 // the first and last nodes of old whose move or cell is no longer legal
	for i := range old {
		bad := !l.g.Passable(old[i])
		if !bad && i > 0 {
			_, ok := l.path.step(l.g, old[i-1], old[i])
			bad = !ok
		}
		if bad {
			last = i
			if first < 0 {
				first = i
			}
		}
	}
	if last < 0 || l.cfg.RepairBudget <= 0 || l.cfg.Budget > 0 || l.dstar == nil {
		return false
	}
	from := max(first-1-rejoinMargin, 0) // old[:from+1] is still legal
	to := min(last+rejoinMargin, len(old)-1)
	if !l.g.Passable(old[from]) || !l.g.Passable(old[to]) {
		return false
	}
	if l.detourA == nil {
		l.detourA = planners.NewAStar(l.g.Lattice)
		l.detourA.Weight = detourWeight
	}
	res, err := l.detourA.Plan(newSliceContext(ctx, l.cfg.RepairBudget), old[from], old[to], l.plan[:0])
	if err != nil {
		return false
	}
	path := append(append(l.spare[:0], old[:from]...), res.Path...)
	path = append(path, old[to+1:]...)
	l.spare = path[:0]
	if l.path.set(l.g, path) != nil {
		return false
	}
	l.plan = res.Path[:0]
	l.eps = math.Inf(1)
	return true
}
