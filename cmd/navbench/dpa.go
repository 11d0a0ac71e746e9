package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/planners"
)

// runDPA is `navbench dpa`: the experiment of Table I of van Toll and
// Geraerts, "Dynamically Pruned A* for Re-planning in Navigation Meshes"
// (Section V-A), on a planar lattice made from a ROS map_server map. For
// each of -obstacles square obstacles placed at random in free space, and
// each of -n random start/goal pairs outside it (with -visible, starts
// that see the obstacle's centre):
//
//  1. plan the pair with A*;
//  2. insert the obstacle and re-plan from the start with DPA* and with
//     A* from scratch;
//  3. delete the obstacle and re-plan with DPA* (A* from scratch would
//     repeat step 1, whose numbers stand for it, as in the paper).
//
// It prints one tab-separated row per re-plan and, per scenario, the
// improvement (A − D)/A of DPA* (D) over A* (A) in time and in expansions:
// over the sums, as the paper's Table I, and the mean and median of the
// per-run improvements. Every DPA* cost is checked against A*'s.
func runDPA(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("dpa", flag.ContinueOnError)
	fs.SetOutput(stdout)
	mapPath := fs.String("map", "", "map_server YAML map (default: the shared data's nav2-maps/depot.yaml)")
	n := fs.Int("n", 50, "start/goal pairs per obstacle")
	obstacles := fs.Int("obstacles", 10, "obstacles, one after another")
	size := fs.Float64("size", 2, "obstacle side, metres (the paper's 2 m squares)")
	cell := fs.Float64("cell", 0, "lattice cell size, metres, rounded to a multiple of the map's resolution (0: the map's)")
	inflate := fs.Float64("inflate", 0.2, "robot radius, metres: obstacles grow by it")
	seed := fs.Uint64("seed", 1, "random seed")
	visible := fs.Bool("visible", false, "starts see the obstacle's centre (the paper's visibility-polygon variant)")
	reps := fs.Int("reps", 3, "times each search runs; the fastest counts")
	memo := fs.Bool("memo", true, "DPA* remembers the path it returned, as one planner per robot does (false: a planner shared by many robots)")
	clock := fs.String("clock", "cpu", "what times a search: cpu (the thread's CPU time, robust to other load) or wall")
	baseline := fs.String("baseline", "same", "A* to compare with: same (DPA*'s own search without pruning) or astar (planners.AStar)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: navbench dpa [flags]: Table I of van Toll & Geraerts 2015, DPA* against A* after an obstacle is inserted and deleted")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("dpa: unexpected arguments %q", fs.Args())
	case *n < 1 || *obstacles < 1 || *reps < 1:
		return fmt.Errorf("dpa: -n, -obstacles and -reps must be ≥ 1")
	case !(*size > 0) || !(*inflate >= 0) || !(*cell >= 0):
		return fmt.Errorf("dpa: -size must be > 0, -inflate and -cell ≥ 0")
	case *clock != "cpu" && *clock != "wall":
		return fmt.Errorf("dpa: -clock %q: want cpu or wall", *clock)
	case *baseline != "same" && *baseline != "astar":
		return fmt.Errorf("dpa: -baseline %q: want same or astar", *baseline)
	}
	if *mapPath == "" {
		root, err := shareddata.Root()
		if err != nil {
			return fmt.Errorf("dpa: no -map and no shared data directory: %w", err)
		}
		*mapPath = filepath.Join(root, "data", "nav2-maps", "depot.yaml")
	}
	m, err := loadDPAMap(*mapPath, *cell, *inflate, rand.New(rand.NewPCG(*seed, 0x9e3779b97f4a7c15)))
	if err != nil {
		return err
	}
	e := &dpaExperiment{m: m, reps: *reps, memo: *memo, cpu: *clock == "cpu", dpa: planners.NewDPAStar(m.l)}
	if e.cpu {
		if _, ok := threadCPU(); !ok {
			return fmt.Errorf("dpa: no thread CPU clock here: use -clock wall")
		}
		runtime.LockOSThread() // the thread's clock times this goroutine's searches
		defer runtime.UnlockOSThread()
	}
	if *baseline == "astar" {
		e.astar = planners.NewAStar(m.l).Plan
	} else {
		e.astar = planners.NewDPAStar(m.l).Plan // its own, so that DPA* keeps the robot's path
	}
	fmt.Fprintf(stdout, "# navbench dpa: %s, %d×%d map cells → %d×%d lattice of %.3g m cells, %d free connected nodes\n",
		filepath.Base(*mapPath), m.fineW, m.fineH, m.l.W, m.l.H, m.cell, len(m.free))
	fmt.Fprintf(stdout, "# %d obstacles of %.3g m × %.3g m, %d pairs each, inflate %.3g m, seed %d, visible %v, reps %d, baseline %s, memo %v, clock %s\n",
		*obstacles, *size, *size, *n, *inflate, *seed, *visible, *reps, *baseline, *memo, *clock)
	fmt.Fprintln(stdout, "run\tobstacle\tchange\tscenario\tstart\tgoal\tnodes\tcost_m\tastar_us\tastar_exp\tdpa_us\tdpa_exp\ttime_impr_pct\texp_impr_pct")

	side := max(1, int32(math.Round(*size/m.cell)))
	grow := int32(math.Ceil(*inflate/m.cell - 1e-9))
	for o := range *obstacles {
		if err := e.obstacle(o, side, grow, *n, *visible, stdout); err != nil {
			return err
		}
	}
	e.summary(stdout)
	return nil
}

// dpaExperiment holds the planners and the rows of one run.
type dpaExperiment struct {
	m      *dpaMap
	reps   int
	memo   bool // DPA* keeps the path it returned (one planner per robot)
	cpu    bool // time by the thread's CPU clock, not the wall clock
	dpa    *planners.DPAStar
	astar  func(ctx context.Context, start, goal planners.NodeID, dst []planners.NodeID) (planners.Result, error)
	rows   []dpaRow
	noPath int // pairs the obstacle cut off

	first, ins, scratch []planners.NodeID // path storage the searches reuse
}

// dpaRow is one re-plan.
type dpaRow struct {
	scen     planners.DPAScenario
	aTime    time.Duration
	aExp     int
	dTime    time.Duration
	dExp     int
	timeImpr float64 // (A − D)/A, percent
	expImpr  float64
}

// dpaTrial is what one start/goal pair measured, fastest of the reps.
type dpaTrial struct {
	start, goal planners.NodeID
	a0, a1      planners.Result // A* before and after the insertion
	d1, d2      planners.Result // DPA* after the insertion and after the deletion
	s1, s2      planners.DPAScenario
	n1, n2      int // nodes of the DPA* paths
	a0t, a1t    time.Duration
	d1t, d2t    time.Duration
	cut         bool // no path while the obstacle stands
}

// obstacle runs steps 1–3 for obstacle o. Each pair goes through them on
// its own, so that DPA* holds that pair's path as a robot's planner would
// (the obstacle is inserted and deleted for each); each repetition runs
// them again, interleaving A* and DPA* so that load on the machine hits
// both alike, and the fastest time of each search counts.
func (e *dpaExperiment) obstacle(o int, side, grow int32, n int, visible bool, stdout io.Writer) error {
	m := e.m
	square, blocks, err := m.placeObstacle(side, grow)
	if err != nil {
		return err
	}
	cx, cy := float64(square.lo[0]+square.hi[0])/2, float64(square.lo[1]+square.hi[1])/2
	trials := make([]dpaTrial, n)
	for i := range trials {
		t := &trials[i]
		if t.start, t.goal, err = m.pair(blocks, visible, cx, cy); err != nil {
			return err
		}
	}
	region := m.l.ChangedRegion(blocks.lo, blocks.hi)
	var cells []planners.NodeID
	for i := range trials {
		t := &trials[i]
		for range e.reps {
			if err := e.trial(t, region, blocks, &cells); err != nil {
				return fmt.Errorf("dpa: obstacle %d pair %d: %w", o, i, err)
			}
			if t.cut {
				break
			}
		}
		if t.cut {
			e.noPath++
			continue
		}
		e.row(stdout, o, "insertion", t, t.s1, t.a1t, t.a1, t.d1t, t.d1, t.n1)
		e.row(stdout, o, "deletion", t, t.s2, t.a0t, t.a0, t.d2t, t.d2, t.n2)
	}
	return nil
}

// trial runs the three steps once for a pair.
func (e *dpaExperiment) trial(t *dpaTrial, region planners.Region, blocks cellBox, cells *[]planners.NodeID) error {
	ctx := context.Background()
	m := e.m
	// Step 1: A* on the map without the obstacle; DPA*'s own plan gives
	// it the path to re-plan (untimed: the robot had it already).
	a0, a0t, err := e.timed(func() (planners.Result, error) { return e.astar(ctx, t.start, t.goal, e.scratch) })
	if err != nil {
		return fmt.Errorf("A* before the insertion: %w", err)
	}
	e.scratch = a0.Path[:0]
	t.a0, t.a0t = a0, fastest(t.a0t, a0t)
	first, err := e.dpa.Plan(ctx, t.start, t.goal, e.first)
	if err != nil {
		return fmt.Errorf("DPA* before the insertion: %w", err)
	}
	e.first = first.Path

	// Step 2: insert, re-plan with DPA* and with A* from scratch.
	*cells = m.insert(blocks, (*cells)[:0])
	inserted := true
	defer func() {
		if inserted {
			m.remove(*cells)
		}
	}()
	if !e.memo {
		e.dpa.Forget()
	}
	var s1, s2 planners.DPAScenario
	d1, d1t, derr := e.timed(func() (r planners.Result, err error) {
		r, s1, err = e.dpa.Replan(ctx, e.first, 0, t.goal, region, planners.ObstacleInserted, e.ins)
		return r, err
	})
	a1, a1t, aerr := e.timed(func() (planners.Result, error) { return e.astar(ctx, t.start, t.goal, e.scratch) })
	if errors.Is(aerr, planners.ErrNoPath) && errors.Is(derr, planners.ErrNoPath) {
		t.cut = true
		return nil
	}
	if err := check("insertion", a1, aerr, d1, derr); err != nil {
		return err
	}
	e.ins, e.scratch = d1.Path, a1.Path[:0]
	t.a1, t.a1t, t.d1, t.d1t, t.s1, t.n1 = a1, fastest(t.a1t, a1t), d1, fastest(t.d1t, d1t), s1, len(d1.Path)

	// Step 3: delete, re-plan with DPA*; A* from scratch is step 1 again.
	m.remove(*cells)
	inserted = false
	if !e.memo {
		e.dpa.Forget()
	}
	d2, d2t, err := e.timed(func() (r planners.Result, err error) {
		r, s2, err = e.dpa.Replan(ctx, e.ins, 0, t.goal, region, planners.ObstacleDeleted, e.ins)
		return r, err
	})
	if err := check("deletion", a0, nil, d2, err); err != nil {
		return err
	}
	e.ins = d2.Path
	t.d2, t.d2t, t.s2, t.n2 = d2, fastest(t.d2t, d2t), s2, len(d2.Path)
	return nil
}

// timed runs f and returns its result and how long it took: the
// calling thread's CPU time with -clock cpu (other processes on the
// machine do not count), else the planner's own wall time.
func (e *dpaExperiment) timed(f func() (planners.Result, error)) (planners.Result, time.Duration, error) {
	if !e.cpu {
		r, err := f()
		return r, r.Stats.Elapsed, err
	}
	t0, _ := threadCPU()
	r, err := f()
	t1, _ := threadCPU()
	return r, t1 - t0, err
}

// timedBatch runs f n times in one interval of the experiment's clock
// and returns the last result and the mean time of a run. One reading of
// the thread's CPU clock is a system call (about 0.4 µs here, as long as
// a small search on a mesh), so timing runs one by one would add it to
// each; f must do the same work every time.
func (e *dpaExperiment) timedBatch(n int, f func() (planners.Result, error)) (planners.Result, time.Duration, error) {
	var r planners.Result
	var err error
	run := func() {
		for range n {
			if r, err = f(); err != nil && !errors.Is(err, planners.ErrNoPath) {
				return
			}
		}
	}
	if !e.cpu {
		t0 := time.Now()
		run()
		return r, time.Since(t0) / time.Duration(n), err
	}
	t0, _ := threadCPU()
	run()
	t1, _ := threadCPU()
	return r, (t1 - t0) / time.Duration(n), err
}

// check compares DPA*'s answer with A*'s.
func check(change string, a planners.Result, aerr error, d planners.Result, derr error) error {
	switch {
	case aerr != nil:
		return fmt.Errorf("A* after the %s: %w", change, aerr)
	case derr != nil:
		return fmt.Errorf("DPA* after the %s: %w", change, derr)
	case math.Abs(a.Cost-d.Cost) > 1e-9*max(1, a.Cost):
		return fmt.Errorf("after the %s: DPA* cost %v, A* %v", change, d.Cost, a.Cost)
	}
	return nil
}

// row records and prints one re-plan.
func (e *dpaExperiment) row(stdout io.Writer, o int, change string, t *dpaTrial, scen planners.DPAScenario,
	aTime time.Duration, a planners.Result, dTime time.Duration, d planners.Result, nodes int) {
	r := dpaRow{scen: scen, aTime: aTime, aExp: a.Stats.Expansions, dTime: dTime, dExp: d.Stats.Expansions,
		timeImpr: improvement(float64(aTime), float64(dTime)), expImpr: improvement(float64(a.Stats.Expansions), float64(d.Stats.Expansions))}
	e.rows = append(e.rows, r)
	sx, sy, _ := e.m.l.Cell(t.start)
	gx, gy, _ := e.m.l.Cell(t.goal)
	fmt.Fprintf(stdout, "%d\t%d\t%s\t%s\t%d,%d\t%d,%d\t%d\t%.3f\t%.1f\t%d\t%.1f\t%d\t%.1f\t%.1f\n",
		len(e.rows), o, change, scen, sx, sy, gx, gy, nodes, d.Cost*e.m.cell,
		us(aTime), r.aExp, us(dTime), r.dExp, r.timeImpr, r.expImpr)
}

// fastest is the least of two timings of the same runs, best (0 for none
// yet) and t. A timing of 0 is none: the thread's clock did not advance
// over the runs (seen once in thousands of re-plans on a mesh), and it
// would make A*'s time 0 and the run's improvement −∞.
func fastest(best, t time.Duration) time.Duration {
	switch {
	case t <= 0:
		return best
	case best <= 0:
		return t
	}
	return min(best, t)
}

// improvement is (a − d)/a in percent.
func improvement(a, d float64) float64 {
	if a == 0 {
		if d == 0 {
			return 0
		}
		return math.Inf(-1)
	}
	return 100 * (a - d) / a
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// summary prints, per scenario, the count and the improvements.
func (e *dpaExperiment) summary(stdout io.Writer) {
	fmt.Fprintf(stdout, "\n# summary: improvement of DPA* over A*, (A−D)/A %%: over the sums (Table I) and the mean and median of the runs; %d pairs cut off by their obstacle left out\n", e.noPath)
	fmt.Fprintln(stdout, "# (the paper leaves 'insertion, old path unaffected' out of Table I: DPA* returns the old path without searching)")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tcount\tastar_ms\tdpa_ms\ttime_sum\ttime_mean\ttime_median\tastar_exp\tdpa_exp\texp_sum\texp_mean\texp_median")
	for s := planners.InsertionUnaffected; s <= planners.DeletionAffected; s++ {
		var aT, dT time.Duration
		var aE, dE int
		var ti, ei []float64
		for _, r := range e.rows {
			if r.scen != s {
				continue
			}
			aT, dT, aE, dE = aT+r.aTime, dT+r.dTime, aE+r.aExp, dE+r.dExp
			ti, ei = append(ti, r.timeImpr), append(ei, r.expImpr)
		}
		if len(ti) == 0 {
			fmt.Fprintf(tw, "%s\t0\n", s)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.1f%%\t%.1f%%\t%.1f%%\t%d\t%d\t%.1f%%\t%.1f%%\t%.1f%%\n", s, len(ti),
			us(aT)/1000, us(dT)/1000, improvement(float64(aT), float64(dT)), mean(ti), median(ti),
			aE, dE, improvement(float64(aE), float64(dE)), mean(ei), median(ei))
	}
	tw.Flush()
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	k := len(v)
	if k%2 == 1 {
		return v[k/2]
	}
	return (v[k/2-1] + v[k/2]) / 2
}
