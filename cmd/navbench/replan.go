package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/navnode/navnode/planners"
)

// replanFlags are `navbench replan`'s settings.
type replanFlags struct {
	mapPath, scenPath string
	scenarios         int     // how many scenarios: the file's longest, longest first
	events            int     // events per scenario
	every             int     // robot steps between events
	block             int     // obstacle side, cells
	ahead, reach      int     // an obstacle lands between ahead and reach steps ahead on the path
	remove            float64 // probability that an event removes an earlier obstacle
	seed              uint64
}

// replanEvent is one change and what each planner paid to repair it.
type replanEvent struct {
	kind    planners.Change
	exp     [numRepairers]int
	elapsed [numRepairers]time.Duration
	dpaCase planners.DPAScenario
	noPath  bool // the change cut the goal off (A* from scratch searched everything it could reach)
}

// firstPlan is what each planner paid for a walk's first search, from
// the start to the goal on the map as loaded.
type firstPlan struct {
	exp     [numRepairers]int
	elapsed [numRepairers]time.Duration
}

// The planners compared, A* from scratch first.
const (
	fromScratch = iota
	dstarLite
	adStar
	dpaStar
	numRepairers
)

var repairerNames = [numRepairers]string{"astar", "dstarlite", "adstar", "dpastar"}

// runReplan is `navbench replan`: on a Moving AI map a robot walks its
// path; every -every steps an obstacle (a cube of -block cells) appears on
// the path ahead, within sensor range, or (with probability -remove) an
// earlier one vanishes. After each event D* Lite and AD* (ε = 1 after
// repair) are told the changed nodes and re-plan from the robot; DPA* gets
// the old path, the robot's place on it and the changed region; A*
// searches from scratch. Every repaired path must cost what A*'s does.
// It prints one line per event, then medians and ratios against A*.
func runReplan(args []string, stdout io.Writer) error {
	var f replanFlags
	fs := flag.NewFlagSet("replan", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.StringVar(&f.mapPath, "map", "", "Moving AI .3dmap file")
	fs.StringVar(&f.scenPath, "scen", "", "its .3dscen file (default: the map's name + .3dscen)")
	fs.IntVar(&f.scenarios, "scenarios", 10, "scenarios to walk: the file's longest, longest first")
	fs.IntVar(&f.events, "events", 20, "events per scenario")
	fs.IntVar(&f.every, "every", 5, "robot steps between events")
	fs.IntVar(&f.block, "block", 5, "obstacle side, cells")
	fs.IntVar(&f.ahead, "ahead", 6, "an obstacle lands at least this many path steps ahead of the robot")
	fs.IntVar(&f.reach, "reach", 30, "and at most this many (sensor range)")
	fs.Float64Var(&f.remove, "remove", 0.25, "probability that an event removes an earlier obstacle instead")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed")
	profile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stop, err := startProfile(*profile)
	if err != nil {
		return err
	}
	defer stop()
	if f.mapPath == "" {
		return fmt.Errorf("replan: -map is required")
	}
	if f.scenPath == "" {
		f.scenPath = f.mapPath + ".3dscen"
	}
	if f.scenarios < 1 || f.events < 1 || f.every < 1 || f.block < 1 || f.ahead < 1 || f.reach <= f.ahead {
		return fmt.Errorf("replan: want -scenarios, -events, -every, -block, -ahead ≥ 1 and -reach > -ahead")
	}
	l, scen, err := loadMovingAI(f.mapPath, f.scenPath)
	if err != nil {
		return err
	}
	order := longestFirst(scen, f.scenarios)
	if len(order) == 0 {
		return errors.New("replan: no scenarios in the file")
	}
	fmt.Fprintf(stdout, "# navbench replan: %s (%d×%d×%d), %d scenarios × %d events, %d³ obstacles every %d steps, %d–%d steps ahead\n",
		f.mapPath, l.W, l.H, l.D, len(order), f.events, f.block, f.every, f.ahead, f.reach)
	tw := tabwriter.NewWriter(stdout, 0, 8, 1, ' ', 0)
	fmt.Fprintln(tw, "scenario\tevent\tkind\tastar_exp\tastar_us\tdstarlite_exp\tdstarlite_us\tadstar_exp\tadstar_us\tdpastar_exp\tdpastar_us\tdpastar_scenario")
	rng := rand.New(rand.NewPCG(f.seed, 1))
	ps := &repairers{planners.NewAStar(l), planners.NewDStarLite(l), planners.NewADStar(l), planners.NewDPAStar(l)}
	if err := ps.warmUp(l, scen[order[0]]); err != nil {
		return fmt.Errorf("replan: warm-up: %w", err)
	}
	var all []replanEvent
	var firsts []firstPlan
	for _, i := range order {
		w := &walk{f: &f, l: l, rng: rng, repairers: ps}
		evs, err := w.run(scen[i], func(e int, ev replanEvent) { printEvent(tw, i, e, ev) })
		if err != nil {
			return fmt.Errorf("replan: scenario %d: %w", i, err)
		}
		all, firsts = append(all, evs...), append(firsts, w.first)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return summarizeReplan(stdout, all, firsts)
}

// longestFirst returns the indices of the n scenarios with the highest
// optimal costs, highest first (Moving AI's files are in no order).
func longestFirst(scen []planners.Scenario, n int) []int {
	idx := make([]int, len(scen))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(scen[b].Optimal, scen[a].Optimal) })
	return idx[:min(n, len(idx))]
}

func printEvent(w io.Writer, scen, e int, ev replanEvent) {
	kind := "insert"
	if ev.kind == planners.ObstacleDeleted {
		kind = "delete"
	}
	fmt.Fprintf(w, "%d\t%d\t%s", scen, e, kind)
	for p := range numRepairers {
		fmt.Fprintf(w, "\t%d\t%.0f", ev.exp[p], us(ev.elapsed[p]))
	}
	fmt.Fprintf(w, "\t%s\n", ev.dpaCase)
}

// repairers are the planners compared. One set serves every walk, as a
// robot keeps its planners from one goal to the next.
type repairers struct {
	astar *planners.AStar
	dlite *planners.DStarLite
	ad    *planners.ADStar
	dpa   *planners.DPAStar
}

// all lists the planners in the order of repairerNames.
func (ps *repairers) all() [numRepairers]planner {
	return [numRepairers]planner{ps.astar, ps.dlite, ps.ad, ps.dpa}
}

// warmUp plans s once with every planner, untimed, so that sizing their
// per-node state to the map stays out of the first walk's first searches
// (each walk starts D* Lite and AD* over).
func (ps *repairers) warmUp(l *planners.Lattice, s planners.Scenario) error {
	start, goal := endpoints(l, s)
	for i, p := range ps.all() {
		if _, err := p.Plan(context.Background(), start, goal, nil); err != nil {
			return fmt.Errorf("%s: %w", repairerNames[i], err)
		}
	}
	return nil
}

// walk is one robot's trip through a scenario.
type walk struct {
	f   *replanFlags
	l   *planners.Lattice
	rng *rand.Rand
	*repairers

	first   firstPlan
	path    []planners.NodeID // the robot's path (DPA*'s last answer)
	at      int               // the robot's place on it
	goal    planners.NodeID
	blocks  [][]planners.NodeID // cells each standing obstacle blocked
	changed []planners.NodeID
	seen    map[planners.NodeID]bool
}

// run walks the scenario and returns its events; report sees each.
func (w *walk) run(s planners.Scenario, report func(int, replanEvent)) ([]replanEvent, error) {
	l := w.l
	start, goal := endpoints(l, s)
	w.goal = goal
	w.dlite.Reset() // the last walk's obstacles are gone, unannounced
	w.ad.Reset()
	w.seen = map[planners.NodeID]bool{}
	ctx := context.Background()
	for i, p := range w.all() {
		began := time.Now()
		r, err := p.Plan(ctx, start, goal, nil)
		w.first.elapsed[i] = time.Since(began)
		if err != nil {
			return nil, fmt.Errorf("first %s search: %w", repairerNames[i], err)
		}
		w.first.exp[i] = r.Stats.Expansions
		w.path = r.Path // DPA*'s, the last
	}
	var evs []replanEvent
	defer w.clear()
	for e := 0; e < w.f.events; e++ {
		w.at = min(w.at+w.f.every, len(w.path)-1)
		if w.at == len(w.path)-1 {
			break // at the goal: nothing is left to repair
		}
		kind, ok := w.change()
		if !ok {
			break // nothing could change
		}
		ev, err := w.repair(kind)
		if err != nil {
			return evs, fmt.Errorf("event %d: %w", e, err)
		}
		report(e, ev)
		evs = append(evs, ev)
	}
	return evs, nil
}

// change inserts an obstacle ahead of the robot or removes an earlier one,
// filling w.changed.
func (w *walk) change() (planners.Change, bool) {
	w.changed = w.changed[:0]
	clear(w.seen)
	if len(w.blocks) > 0 && w.rng.Float64() < w.f.remove {
		i := w.rng.IntN(len(w.blocks))
		for _, n := range w.blocks[i] {
			w.l.SetBlocked(n, false)
			w.touch(n)
		}
		w.blocks = slices.Delete(w.blocks, i, i+1)
		return planners.ObstacleDeleted, true
	}
	lo, hi := w.at+w.f.ahead, min(w.at+w.f.reach, len(w.path)-2)
	if lo > hi {
		return 0, false
	}
	x, y, z := w.l.Cell(w.path[lo+w.rng.IntN(hi-lo+1)])
	r := int32(w.f.block / 2)
	robot := w.path[w.at]
	var cells []planners.NodeID
	for dz := -r; dz < int32(w.f.block)-r; dz++ {
		for dy := -r; dy < int32(w.f.block)-r; dy++ {
			for dx := -r; dx < int32(w.f.block)-r; dx++ {
				n := w.l.ID(x+dx, y+dy, z+dz)
				if n == planners.None || n == robot || n == w.goal || w.l.Blocked(n) {
					continue
				}
				w.l.SetBlocked(n, true)
				cells = append(cells, n)
				w.touch(n)
			}
		}
	}
	if len(cells) == 0 {
		return 0, false
	}
	w.blocks = append(w.blocks, cells)
	return planners.ObstacleInserted, true
}

// touch lists n's cell and its neighbours as changed, once each.
func (w *walk) touch(n planners.NodeID) {
	for _, v := range w.l.Around(n, nil) {
		if !w.seen[v] {
			w.seen[v] = true
			w.changed = append(w.changed, v)
		}
	}
}

// region is the box of the changed nodes (they already include the
// changed cells' neighbours).
func (w *walk) region() planners.Region {
	var r planners.Region
	for i, n := range w.changed {
		x, y, z := w.l.Cell(n)
		p := [3]float64{float64(x), float64(y), float64(z)}
		for k := range 3 {
			if i == 0 || p[k] < r.Min[k] {
				r.Min[k] = p[k]
			}
			if i == 0 || p[k] > r.Max[k] {
				r.Max[k] = p[k]
			}
		}
	}
	return r
}

// repair runs every planner on the change and checks their costs agree.
func (w *walk) repair(kind planners.Change) (replanEvent, error) {
	ctx := context.Background()
	robot := w.path[w.at]
	ev := replanEvent{kind: kind}
	var res [numRepairers]planners.Result
	var errs [numRepairers]error
	timed := func(p int, f func() (planners.Result, error)) {
		began := time.Now()
		res[p], errs[p] = f()
		ev.elapsed[p] = time.Since(began)
		ev.exp[p] = res[p].Stats.Expansions
	}
	timed(fromScratch, func() (planners.Result, error) { return w.astar.Plan(ctx, robot, w.goal, nil) })
	timed(dstarLite, func() (planners.Result, error) {
		if err := w.dlite.Update(w.changed); err != nil {
			return planners.Result{}, err
		}
		return w.dlite.Plan(ctx, robot, w.goal, nil)
	})
	timed(adStar, func() (planners.Result, error) {
		if err := w.ad.Update(w.changed); err != nil {
			return planners.Result{}, err
		}
		return w.ad.Plan(ctx, robot, w.goal, nil)
	})
	timed(dpaStar, func() (planners.Result, error) {
		r, s, err := w.dpa.Replan(ctx, w.path, w.at, w.goal, w.region(), kind, nil)
		ev.dpaCase = s
		return r, err
	})
	want := res[fromScratch].Cost
	for p := range numRepairers {
		switch {
		case errors.Is(errs[fromScratch], planners.ErrNoPath) && errors.Is(errs[p], planners.ErrNoPath):
		case errs[p] != nil:
			return ev, fmt.Errorf("%s: %w", repairerNames[p], errs[p])
		case math.Abs(res[p].Cost-want) > 1e-9*want:
			return ev, fmt.Errorf("%s: cost %v, A* from scratch %v", repairerNames[p], res[p].Cost, want)
		}
	}
	if errs[fromScratch] != nil {
		ev.noPath = true
		// The obstacle cut the goal off: it is taken away again at once.
		return ev, w.undoLast()
	}
	w.path, w.at = res[dpaStar].Path, 0
	return ev, nil
}

// undoLast removes the newest obstacle at once and tells every planner,
// so the walk can go on; that repair is not reported.
func (w *walk) undoLast() error {
	last := w.blocks[len(w.blocks)-1]
	w.blocks = w.blocks[:len(w.blocks)-1]
	w.changed = w.changed[:0]
	clear(w.seen)
	for _, n := range last {
		w.l.SetBlocked(n, false)
		w.touch(n)
	}
	if err := w.dlite.Update(w.changed); err != nil {
		return err
	}
	if err := w.ad.Update(w.changed); err != nil {
		return err
	}
	ctx, robot := context.Background(), w.path[w.at]
	// Every planner settles the undo here, untimed, so that none carries
	// its repair into the next event's figures.
	if _, err := w.dlite.Plan(ctx, robot, w.goal, nil); err != nil {
		return err
	}
	if _, err := w.ad.Plan(ctx, robot, w.goal, nil); err != nil {
		return err
	}
	r, err := w.dpa.Plan(ctx, robot, w.goal, nil)
	if err != nil {
		return err
	}
	w.path, w.at = r.Path, 0
	return nil
}

// clear removes every obstacle the walk placed, leaving the map as loaded.
func (w *walk) clear() {
	for _, b := range w.blocks {
		for _, n := range b {
			w.l.SetBlocked(n, false)
		}
	}
	w.blocks = nil
}

// summarizeReplan prints, per planner, median expansions and time, their
// ratios to A* from scratch, and the time per expansion: over all events,
// then over the events after which a path remained (a change that cuts
// the goal off makes A* search all it can reach, which dominates sums).
// Then the same two sets again with the walks' first searches added.
func summarizeReplan(stdout io.Writer, evs []replanEvent, firsts []firstPlan) error {
	if len(evs) == 0 {
		return fmt.Errorf("replan: no events")
	}
	inserts, cut := 0, 0
	var withPath []replanEvent
	for _, ev := range evs {
		if ev.kind == planners.ObstacleInserted {
			inserts++
		}
		if ev.noPath {
			cut++
		} else {
			withPath = append(withPath, ev)
		}
	}
	fmt.Fprintf(stdout, "# summary: %d events (%d insertions, %d deletions; %d cut the goal off); ratios are A* from scratch over the planner\n",
		len(evs), inserts, len(evs)-inserts, cut)
	if err := summaryTable(stdout, "all events", evs); err != nil {
		return err
	}
	if len(withPath) > 0 && cut > 0 {
		if err := summaryTable(stdout, "events after which a path remained", withPath); err != nil {
			return err
		}
	}
	if err := wholeWalks(stdout, "all events", firsts, evs); err != nil {
		return err
	}
	if cut > 0 {
		return wholeWalks(stdout, "events after which a path remained", firsts, withPath)
	}
	return nil
}

func summaryTable(stdout io.Writer, title string, evs []replanEvent) error {
	fmt.Fprintf(stdout, "# %s (%d):\n", title, len(evs))
	tw := tabwriter.NewWriter(stdout, 0, 8, 1, ' ', 0)
	fmt.Fprintln(tw, "# planner\tmedian_exp\tmedian_us\texp_ratio_median\ttime_ratio_median\texp_ratio_sum\ttime_ratio_sum\tns_per_exp\tper_exp_vs_astar")
	var base float64
	for p := range numRepairers {
		var exps, times, expRatio, timeRatio []float64
		sumExp, sumTime := 0.0, 0.0
		for _, ev := range evs {
			e, t := float64(ev.exp[p]), us(ev.elapsed[p])
			exps, times = append(exps, e), append(times, t)
			expRatio = append(expRatio, float64(ev.exp[fromScratch])/max(e, 1))
			timeRatio = append(timeRatio, us(ev.elapsed[fromScratch])/max(t, 1e-3))
			sumExp, sumTime = sumExp+e, sumTime+t
		}
		perExp := 1e3 * sumTime / max(sumExp, 1)
		if p == fromScratch {
			base = perExp
		}
		fmt.Fprintf(tw, "# %s\t%.0f\t%.0f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.2f\n", repairerNames[p],
			median(exps), median(times), median(expRatio), median(timeRatio),
			sumExpOf(evs, fromScratch)/max(sumExp, 1), sumTimeOf(evs, fromScratch)/max(sumTime, 1e-3), perExp, perExp/base)
	}
	return tw.Flush()
}

func sumExpOf(evs []replanEvent, p int) float64 {
	s := 0.0
	for _, ev := range evs {
		s += float64(ev.exp[p])
	}
	return s
}

func sumTimeOf(evs []replanEvent, p int) float64 {
	s := 0.0
	for _, ev := range evs {
		s += us(ev.elapsed[p])
	}
	return s
}

// wholeWalks prints, per planner, the totals over whole walks: each
// walk's first search plus every repair after it, the way Krafft's
// thesis (Table 1) totals expansions and computing time over a robot's
// run. Its time per expansion is the thesis's measure (D* Lite 5.5×
// A*'s there); summaryTable's counts repairs alone.
func wholeWalks(stdout io.Writer, title string, firsts []firstPlan, evs []replanEvent) error {
	fmt.Fprintf(stdout, "# whole walks, %s (%d first searches, %d events; Krafft's Table 1 totals):\n", title, len(firsts), len(evs))
	tw := tabwriter.NewWriter(stdout, 0, 8, 1, ' ', 0)
	fmt.Fprintln(tw, "# planner\tfirst_exp\tfirst_ms\ttotal_exp\ttotal_ms\texp_ratio\ttime_ratio\tns_per_exp\tper_exp_vs_astar")
	var exps, times [numRepairers]float64
	for p := range numRepairers {
		for _, f := range firsts {
			exps[p] += float64(f.exp[p])
			times[p] += us(f.elapsed[p])
		}
	}
	firstExp, firstTime := exps, times
	for p := range numRepairers {
		exps[p] += sumExpOf(evs, p)
		times[p] += sumTimeOf(evs, p)
	}
	base := 1e3 * times[fromScratch] / max(exps[fromScratch], 1)
	for p := range numRepairers {
		perExp := 1e3 * times[p] / max(exps[p], 1)
		fmt.Fprintf(tw, "# %s\t%.0f\t%.1f\t%.0f\t%.1f\t%.1f\t%.1f\t%.0f\t%.2f\n", repairerNames[p],
			firstExp[p], firstTime[p]/1e3, exps[p], times[p]/1e3,
			exps[fromScratch]/max(exps[p], 1), times[fromScratch]/max(times[p], 1e-3), perExp, perExp/base)
	}
	return tw.Flush()
}
