package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/navnode/navnode/planners"
)

// summary prints the improvements per scenario, then the mesh and its
// update times.
func (e *meshExperiment) summary(stdout io.Writer) {
	fmt.Fprintf(stdout, "\n# summary: improvement of DPA* over A*, (A−D)/A %%: over the sums (Table I) and the mean and median of the runs; %d pairs cut off by their obstacle left out\n", e.noPath)
	fmt.Fprintln(stdout, "# checked: the mesh certified no kind of change, but ReplanChange let DPA* re-plan this path with the kind shown (-mixed check);")
	fmt.Fprintln(stdout, "# mixed: the mesh certified no kind of change and DPA* planned from scratch; split: DPA* re-planned it as its removals, then its additions (-mixed split),")
	fmt.Fprintln(stdout, "# the old path running through R (affected) or not;")
	fmt.Fprintln(stdout, "# fresh: the start's or goal's region was replaced and DPA* planned from scratch; 'all' counts every re-plan of the change")
	if e.paper {
		n := 0
		for i := range e.rows {
			if strings.Contains(e.rows[i].label, scenPaper) {
				n++
			}
		}
		fmt.Fprintf(stdout, "# as the paper: DPA* re-planned as the event's kind after an update the mesh did not certify (-mixed paper); %d of those %d re-plans did not find A*'s cost (worst %.2f%% above it)\n",
			e.wrong, n, 100*e.worst)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tcount\tastar_ms\tdpa_ms\ttime_sum\ttime_mean\ttime_median\tastar_exp\tdpa_exp\texp_sum\texp_mean\texp_median")
	for _, l := range append(meshLabels(), "insertion, all", "deletion, all") {
		e.scenarioLine(tw, l, func(r *meshRow) bool { return r.label == l || l == r.change+", all" })
	}
	tw.Flush()

	fmt.Fprintln(stdout, "\n# Table I: every re-plan of a change, by whether the old path ran through R or lost a region (affected), whatever DPA* did with it")
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tcount\tastar_ms\tdpa_ms\ttime_sum\ttime_mean\ttime_median\tastar_exp\tdpa_exp\texp_sum\texp_mean\texp_median")
	for _, c := range []string{"insertion", "deletion"} {
		for _, aff := range []bool{false, true} {
			l := c + ", old path unaffected"
			if aff {
				l = c + ", old path affected"
			}
			e.scenarioLine(tw, "table I: "+l, func(r *meshRow) bool { return r.change == c && r.affected == aff })
		}
	}
	tw.Flush()

	regions, edges, tiles := e.w.meshSize()
	fmt.Fprintf(stdout, "\n# mesh: %d regions, %d edges, %d tiles of %d voxels a side (%d region ids handed out); about %.0f bytes per region (live heap growth when it was built over its regions: approximate)\n",
		regions, edges, tiles, e.w.mesh.Config().Tile, e.w.mesh.NumNodes(), e.w.bytesPerRegion)
	fmt.Fprintf(stdout, "# updates, ms by the %s clock: the voxel map (Map.ApplyInto: shape and inflation) and the mesh (Mesh.Update: tiles rebuilt, linked and certified)\n", e.clockName())
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "event\tcount\tvoxel_median\tvoxel_p95\tmesh_median\tmesh_p95\ttiles_mean\tremoved_mean\tadded_mean\tchanged_mean\tvoxels_mean\tas_insertion\tas_deletion\tmixed_pct")
	for _, c := range []string{"insertion", "deletion"} {
		e.eventLine(tw, c)
	}
	tw.Flush()
}

// meshLabels returns the scenarios of re-plans, in the summary's order.
func meshLabels() []string {
	var labels []string
	for s := planners.InsertionUnaffected; s <= planners.DeletionAffected; s++ {
		labels = append(labels, s.String())
	}
	for _, c := range []string{"insertion", "deletion"} {
		for s := planners.InsertionUnaffected; s <= planners.DeletionAffected; s++ {
			labels = append(labels, c+", "+scenChecked+": "+s.String())
		}
		for s := planners.InsertionUnaffected; s <= planners.DeletionAffected; s++ {
			labels = append(labels, c+", "+scenPaper+": "+s.String())
		}
		labels = append(labels, c+", "+scenMixed, c+", "+scenSplit+", old path unaffected", c+", "+scenSplit+", old path affected", c+", "+scenFresh)
	}
	return labels
}

// scenarioLine prints, as l, the count and the improvements of the rows
// that in selects.
func (e *meshExperiment) scenarioLine(tw io.Writer, l string, in func(*meshRow) bool) {
	var aT, dT time.Duration
	var aE, dE int
	var ti, ei []float64
	for i := range e.rows {
		r := &e.rows[i]
		if !in(r) {
			continue
		}
		aT, dT, aE, dE = aT+r.aTime, dT+r.dTime, aE+r.aExp, dE+r.dExp
		ti, ei = append(ti, r.timeImpr), append(ei, r.expImpr)
	}
	if len(ti) == 0 {
		fmt.Fprintf(tw, "%s\t0\n", l)
		return
	}
	fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.1f%%\t%.1f%%\t%.1f%%\t%d\t%d\t%.1f%%\t%.1f%%\t%.1f%%\n", l, len(ti),
		us(aT)/1000, us(dT)/1000, improvement(float64(aT), float64(dT)), mean(ti), median(ti),
		aE, dE, improvement(float64(aE), float64(dE)), mean(ei), median(ei))
}

// eventLine prints the update times of the events of one kind and how
// the mesh certified them.
func (e *meshExperiment) eventLine(tw io.Writer, change string) {
	var vt, mt []float64
	var tiles, removed, added, changed, voxels, asIns, asDel, mixed int
	for _, ev := range e.events {
		if ev.change != change {
			continue
		}
		vt, mt = append(vt, us(ev.voxel)/1000), append(mt, us(ev.mesh)/1000)
		tiles, removed, added, changed, voxels = tiles+ev.tiles, removed+ev.removed, added+ev.added, changed+ev.changed, voxels+ev.voxels
		switch ev.certified {
		case planners.ObstacleInserted:
			asIns++
		case planners.ObstacleDeleted:
			asDel++
		default:
			mixed++
		}
	}
	k := len(vt)
	if k == 0 {
		fmt.Fprintf(tw, "%s\t0\n", change)
		return
	}
	slices.Sort(vt)
	slices.Sort(mt)
	f := float64(k)
	fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%d\t%d\t%.1f%%\n", change, k,
		median(vt), quantile(vt, 0.95), median(mt), quantile(mt, 0.95),
		float64(tiles)/f, float64(removed)/f, float64(added)/f, float64(changed)/f, float64(voxels)/f, asIns, asDel, 100*float64(mixed)/f)
}

// clockName names the clock that times searches and updates.
func (e *meshExperiment) clockName() string {
	if e.timer.cpu {
		return "thread CPU"
	}
	return "wall"
}
