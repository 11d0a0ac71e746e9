package main

import (
	"context"
	"errors"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/planners"
)

// A mesh update replaces the regions of the tiles it rebuilds: it removes
// some regions and adds others. Their centres move, so a route through
// the new regions can come out cheaper than the old one even when an
// obstacle was inserted, and the mesh then certifies no kind of change
// (Delta.Change 0, "mixed"; see navmesh's certify.go). But the update is
// two monotone changes in a row: removing regions only raises distances
// (an insertion), adding regions only lowers them (a deletion). Edges
// between regions that outlive the update do not change (an edge depends
// on its two regions only), so the graph between the two halves is the
// mesh after the update without the added regions. With -mixed split,
// DPA* re-plans a mixed update as those two changes, one Replan each, in
// order, as planners.DPAStar.Replan prescribes; each is certified by
// construction, and the Delta's R holds every node either half touched.

// withoutAdded is the mesh without the regions the last update added:
// the graph between its two halves. It hides ids from first on, the
// added regions (an update's new ids are the newest).
type withoutAdded struct {
	m     *navmesh.Mesh
	first planners.NodeID
}

var _ planners.SpatialGraph = (*withoutAdded)(nil)

// NumNodes, Successors, Predecessors, Heuristic, Passable and Position
// implement planners.SpatialGraph: the mesh's, hidden regions left out.

func (g *withoutAdded) NumNodes() int { return g.m.NumNodes() }

func (g *withoutAdded) Successors(n planners.NodeID, dst []planners.Edge) []planners.Edge {
	return g.filter(len(dst), g.m.Successors(n, dst))
}

func (g *withoutAdded) Predecessors(n planners.NodeID, dst []planners.Edge) []planners.Edge {
	return g.filter(len(dst), g.m.Predecessors(n, dst))
}

// filter drops the edges to hidden regions from dst[from:].
func (g *withoutAdded) filter(from int, dst []planners.Edge) []planners.Edge {
	k := from
	for _, e := range dst[from:] {
		if e.To < g.first {
			dst[k] = e
			k++
		}
	}
	return dst[:k]
}

func (g *withoutAdded) Heuristic(a, b planners.NodeID) float64 { return g.m.Heuristic(a, b) }

func (g *withoutAdded) Passable(n planners.NodeID) bool { return n < g.first && g.m.Passable(n) }

func (g *withoutAdded) Position(n planners.NodeID) [3]float64 { return g.m.Position(n) }

// hide sets the graph up for the Delta of the last update, and reports
// whether its added regions are the newest ids, as split needs.
func (g *withoutAdded) hide(d *navmesh.Delta) bool {
	g.first = planners.NodeID(g.m.NumNodes() - len(d.Added))
	for _, n := range d.Added {
		if n < g.first {
			return false
		}
	}
	return true
}

// replanHow is what DPA* did with a re-plan, told apart so that the
// row's label is built after the timed call, not inside it.
type replanHow struct {
	how  string // "" (the Delta's own kind), scenFresh, scenMixed, scenSplit, scenChecked or scenPaper
	scen planners.DPAScenario
}

// label names the re-plan's row after a change ("insertion" or "deletion").
func (k replanHow) label(change string) string {
	switch k.how {
	case "":
		return k.scen.String()
	case scenFresh, scenMixed:
		return change + ", " + k.how
	case scenSplit:
		if k.scen == planners.InsertionAffected {
			return change + ", " + scenSplit + ", old path affected"
		}
		return change + ", " + scenSplit + ", old path unaffected"
	}
	return change + ", " + k.how + ": " + k.scen.String() // scenChecked, scenPaper
}

// dpaReplan is what a robot's DPA* does after the last event: Replan its
// old path with the Delta's affected region and kind of change; plan from
// scratch when the path's ends are gone ("fresh"); when the change is
// mixed, re-plan with the kind ReplanChange gives for this path
// ("checked"), else from scratch, or (split) in two halves, or (paper) as
// the event's kind. It returns what it did, for the row's label.
func (e *meshExperiment) dpaReplan(ctx context.Context, p *meshPair, s, g planners.NodeID, change string) (planners.Result, replanHow, error) {
	// One planner for the crowd: each robot keeps its path and the costs
	// of its steps from before the event, and hands them over.
	e.dpa.Recall(p.old, p.cum)
	d, old := &e.delta, p.old
	switch {
	case old[0] != s || old[len(old)-1] != g:
		r, err := e.dpa.Plan(ctx, s, g, e.dbuf)
		return r, replanHow{how: scenFresh}, err
	case d.Change == 0 && e.split && e.splittable:
		r, first, err := e.splitReplan(ctx, old, p.cum, g)
		return r, replanHow{scenSplit, first}, err
	case d.Change == 0 && e.paper:
		c := planners.ObstacleInserted
		if change == "deletion" {
			c = planners.ObstacleDeleted
		}
		r, scen, err := e.dpa.Replan(ctx, old, 0, g, d.R, c, e.dbuf)
		return r, replanHow{scenPaper, scen}, err
	case d.Change == 0 && e.check:
		c, region, ok := e.w.mesh.ReplanChange(d, old, 0, p.cum)
		if !ok {
			r, err := e.dpa.Plan(ctx, s, g, e.dbuf)
			return r, replanHow{how: scenMixed}, err
		}
		r, scen, err := e.dpa.Replan(ctx, old, 0, g, region, c, e.dbuf)
		return r, replanHow{scenChecked, scen}, err
	case d.Change == 0:
		r, err := e.dpa.Plan(ctx, s, g, e.dbuf)
		return r, replanHow{how: scenMixed}, err
	}
	r, scen, err := e.dpa.Replan(ctx, old, 0, g, d.R, d.Change, e.dbuf)
	return r, replanHow{scen: scen}, err
}

// splitReplan re-plans after a mixed update as the removal of its
// removed regions (an insertion, on the graph without the added ones)
// and then the addition of its added regions (a deletion, on the mesh).
// When the removal cut the path off, the second half plans from scratch.
// The result counts both searches; the scenario is the first half's,
// which tells whether the old path ran through R. cum is the old path's
// costs before the event.
func (e *meshExperiment) splitReplan(ctx context.Context, old []planners.NodeID, cum []float64, g planners.NodeID) (planners.Result, planners.DPAScenario, error) {
	d := &e.delta
	e.dpaHalf.Recall(old, cum)
	r1, first, err := e.dpaHalf.Replan(ctx, old, 0, g, d.R, planners.ObstacleInserted, e.hbuf)
	var r2 planners.Result
	switch {
	case errors.Is(err, planners.ErrNoPath):
		r2, err = e.dpa.Plan(ctx, old[0], g, e.dbuf)
	case err != nil:
		return r1, first, err
	default:
		// R's toll bounds paths that beat the graph before the update,
		// not the halfway one: the added regions alone decide here.
		e.hbuf = r1.Path[:0]
		r := d.R
		r.Toll = 0
		r2, _, err = e.dpa.Replan(ctx, r1.Path, 0, g, r, planners.ObstacleDeleted, e.dbuf)
	}
	r2.Stats.Expansions += r1.Stats.Expansions
	r2.Stats.Touched += r1.Stats.Touched
	r2.Stats.Elapsed += r1.Stats.Elapsed
	return r2, first, err
}
