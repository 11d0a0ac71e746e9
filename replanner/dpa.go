package replanner

import (
	"context"
	"errors"

	"github.com/navnode/navnode/planners"
)

// changesSince is what DPA* needs to know of the lattice's changes since
// the path was last known optimal: the box of cells they touched and
// whether costs rose, fell or both.
type changesSince struct {
	any        bool
	lo, hi     [3]int32 // cell coordinates, inclusive
	rose, fell bool
	mixed      bool // both, or a change too large to repair: plan afresh
}

// add notes a cell whose edges changed, and whether they became cheaper.
func (c *changesSince) add(x, y, z int32, fell bool) {
	p := [3]int32{x, y, z}
	if !c.any {
		c.any, c.lo, c.hi = true, p, p
	}
	for i := range 3 {
		c.lo[i], c.hi[i] = min(c.lo[i], p[i]), max(c.hi[i], p[i])
	}
	if fell {
		c.fell = true
	} else {
		c.rose = true
	}
}

// reset forgets the changes: the path is optimal on the lattice as it is.
func (c *changesSince) reset() { *c = changesSince{} }

// kind is the change DPA* re-plans after, or 0 when it must plan afresh.
func (c *changesSince) kind() planners.Change {
	switch {
	case !c.any || c.mixed || c.rose && c.fell:
		return 0
	case c.rose:
		return planners.ObstacleInserted
	}
	return planners.ObstacleDeleted
}

// searchDPA re-plans with DPA* from the path, when the robot is on it
// (at ≥ 0), the goal is the one it leads to, and every change since it was
// optimal went one way (all insertions or all deletions); otherwise it
// plans afresh. The path is optimal as of the last finished search (DPA*
// is exact, and only D* Lite publishes detours), and every change since
// is in l.since, even when a search ran out of time in between. Changes
// of both kinds could be re-planned one after the other only from the
// path optimal between them, which the loop does not keep.
func (l *Loop) searchDPA(ctx context.Context, start, goal planners.NodeID, at int) (planners.Result, planners.DPAScenario, error) {
	if c := l.since.kind(); c != 0 && at >= 0 && !l.newGoal && !l.path.empty() {
		r := l.g.ChangedRegion(l.since.lo, l.since.hi)
		res, scen, err := l.dpa.Replan(ctx, l.path.nodes, at, goal, r, c, l.plan[:0])
		if !errors.Is(err, planners.ErrOldPath) {
			return res, scen, err
		}
	}
	res, err := l.dpa.Plan(ctx, start, goal, l.plan[:0])
	return res, planners.NoScenario, err
}
