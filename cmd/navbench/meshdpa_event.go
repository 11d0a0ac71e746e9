package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// Scenarios of a re-plan besides the paper's four.
const (
	scenMixed   = "mixed"   // the mesh certified no kind of change (Delta.Change 0): DPA* planned from scratch
	scenSplit   = "split"   // such an update, re-planned by DPA* in two halves (-mixed split)
	scenChecked = "checked" // "checked: <scenario>": such an update that ReplanChange let DPA* re-plan (-mixed check)
	scenFresh   = "fresh"   // the start's or goal's region was replaced, so the old path does not fit: DPA* planned from scratch
	// "as the paper: <scenario>": such an update re-planned as the event's kind (-mixed paper)
	scenPaper = "as the paper"
)

// meshExperiment holds the planners and the measurements of one run.
type meshExperiment struct {
	w     *meshWorld
	reps  int           // timings of each search; the fastest counts
	batch int           // runs per timing, its time the mean
	timer dpaExperiment // only its clock is used, through timedBatch
	astar func(ctx context.Context, start, goal planners.NodeID, dst []planners.NodeID) (planners.Result, error)
	dpa   *planners.DPAStar
	split bool // -mixed split: DPA* re-plans mixed updates in two halves
	check bool // -mixed check: navmesh's ReplanChange decides per path
	paper bool // -mixed paper: DPA* re-plans it as the event's kind
	// -mixed paper: re-plans whose cost was not A*'s (or that failed), and
	// the worst relative excess of those that returned a path.
	wrong int
	worst float64
	// For split: the mesh without the last update's added regions, and a
	// DPA* over it; splittable when the update's added ids are the newest.
	half       withoutAdded
	dpaHalf    *planners.DPAStar
	splittable bool
	delta      navmesh.Delta   // what the last event changed in the mesh
	cs         voxel.ChangeSet // what the last event changed in the voxel map
	rows       []meshRow
	events     []meshEvent
	noPath     int // pairs the obstacle cut off

	abuf, dbuf, hbuf []planners.NodeID // path storage the searches reuse
}

// meshPair is one start/goal pair of an obstacle.
type meshPair struct {
	start, goal voxel.Key         // cells; their regions change with the mesh
	old         []planners.NodeID // the path the robot follows (step 1's, then the insertion's)
	cum         []float64         // the cost of each prefix of old before the event (Mesh.PathCosts)
	cost0       float64           // A*'s cost before the insertion
	cut         bool              // no path while the obstacle stands
}

// meshRow is one re-plan.
type meshRow struct {
	dpaRow          // its scen is unused: label names the scenario
	change   string // insertion or deletion
	label    string // a DPA* scenario or "<change>, mixed", "<change>, split, old path [un]affected", "<change>, fresh"
	affected bool   // the old path ran through R or its start's or goal's region was replaced
}

// meshEvent is one insertion or deletion.
type meshEvent struct {
	change      string
	voxel, mesh time.Duration // Map.ApplyInto and Mesh.Update
	certified   planners.Change
	tiles       int // tiles rebuilt
	removed     int // regions removed
	added       int // regions added
	changed     int // nodes whose edges changed
	voxels      int // voxels whose cost changed
}

// insert returns the update that inserts the obstacle.
func (ob *meshObstacle) insert() voxel.Update { return voxel.PutShape{ID: ob.id, Solid: ob.solid} }

// remove returns the update that deletes it.
func (ob *meshObstacle) remove() voxel.Update { return voxel.DeleteShape{ID: ob.id} }

// event applies u to the voxel map and brings the mesh in step, timing
// both, then lets the planners size their state to the grown mesh
// (region ids are never reused, so every update adds nodes) outside the
// timed searches, with one untimed search each.
func (e *meshExperiment) event(o int, change string, u voxel.Update, pairs []meshPair) error {
	w := e.w
	for i := range pairs {
		pairs[i].cum = w.mesh.PathCosts(pairs[i].old, pairs[i].cum)
	}
	var err error
	tv := e.elapsed(func() { err = w.vm.ApplyInto(&e.cs, u) })
	if err != nil {
		return fmt.Errorf("meshdpa: obstacle %d: %s: %w", o, change, err)
	}
	tm := e.elapsed(func() { w.mesh.Update(&e.cs, &e.delta) })
	d := &e.delta
	e.events = append(e.events, meshEvent{change: change, voxel: tv, mesh: tm, certified: d.Change, tiles: d.Tiles,
		removed: len(d.Removed), added: len(d.Added), changed: len(d.Changed), voxels: e.cs.Len()})
	e.splittable = e.half.hide(d)
	ctx := context.Background()
	warm, warmHalf := false, !e.split
	for _, p := range pairs {
		s, g := w.mesh.Locate(p.start), w.mesh.Locate(p.goal)
		if s == planners.None || g == planners.None {
			continue
		}
		if !warm {
			r, _ := e.astar(ctx, s, g, e.abuf)
			e.abuf = r.Path[:0]
			r, _ = e.dpa.Plan(ctx, s, g, e.dbuf)
			e.dbuf, warm = r.Path[:0], true
		}
		if !warmHalf && e.half.Passable(s) && e.half.Passable(g) {
			r, _ := e.dpaHalf.Plan(ctx, s, g, e.hbuf)
			e.hbuf, warmHalf = r.Path[:0], true
		}
		if warm && warmHalf {
			break
		}
	}
	return nil
}

// affected reports whether the last event affected the old path, as the
// paper's scenarios count it: a region of it is gone (replaced), or lies
// in the affected region R.
func (e *meshExperiment) affected(old []planners.NodeID) bool {
	m := e.w.mesh
	for _, n := range old {
		if !m.Passable(n) || e.delta.R.Contains(m.Position(n)) {
			return true
		}
	}
	return false
}

// elapsed times f by the experiment's clock.
func (e *meshExperiment) elapsed(f func()) time.Duration {
	if !e.timer.cpu {
		t0 := time.Now()
		f()
		return time.Since(t0)
	}
	t0, _ := threadCPU()
	f()
	t1, _ := threadCPU()
	return t1 - t0
}

// row records and prints one re-plan.
func (e *meshExperiment) row(stdout io.Writer, o int, change, label string, p *meshPair,
	aTime time.Duration, a planners.Result, dTime time.Duration, d planners.Result) {
	r := meshRow{change: change, label: label, affected: e.affected(p.old), dpaRow: dpaRow{aTime: aTime, aExp: a.Stats.Expansions, dTime: dTime, dExp: d.Stats.Expansions,
		timeImpr: improvement(float64(aTime), float64(dTime)), expImpr: improvement(float64(a.Stats.Expansions), float64(d.Stats.Expansions))}}
	e.rows = append(e.rows, r)
	w := e.w
	fmt.Fprintf(stdout, "%d\t%d\t%s\t%s\t%s\t%s\t%d\t%.3f\t%.1f\t%d\t%.1f\t%d\t%.1f\t%.1f\n",
		len(e.rows), o, change, label, w.keyString(p.start), w.keyString(p.goal), len(d.Path), d.Cost*w.res,
		us(aTime), r.aExp, us(dTime), r.dExp, r.timeImpr, r.expImpr)
}
