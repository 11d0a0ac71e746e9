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
	"strings"
	"time"

	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/planners"
)

// meshWorlds are the worlds `navbench meshdpa -world` knows, with their
// default maps under the shared data directory.
var meshWorlds = map[string]string{
	"depot":     "data/nav2-maps/depot.yaml",
	"warehouse": "data/nav2-maps/warehouse.yaml",
	"aerial":    "data/movingai-voxel/Simple.3dmap",
}

// runMeshDPA is `navbench meshdpa`: the experiment of Table I of van Toll
// and Geraerts, "Dynamically Pruned A* for Re-planning in Navigation
// Meshes" (IROS 2015, Section V-A), on navnode's navigation mesh
// (costmap/navmesh) kept in step with the voxel costmap. Ground worlds are
// Nav2 maps extruded over one voxel layer (voxels of the map's
// resolution, a cylinder robot, a Ground mesh on an implicit floor); the
// aerial world is a Moving AI voxel map (voxels of -res metres, a sphere
// robot, an Aerial mesh over the map's box). For each of -obstacles boxes
// (-size metres a side; one voxel layer tall on the ground) placed at
// random in the largest connected free part, as the paper does:
//
//  1. pick -n start/goal cells there, outside the obstacle and its
//     inflation (with -visible, starts that see its centre), and plan
//     each pair with A* on the mesh;
//  2. insert the obstacle once (PutShape, then Mesh.Update) and re-plan
//     every pair from its start with DPA* and with A* from scratch;
//  3. delete it (DeleteShape, Mesh.Update) and re-plan every pair again,
//     DPA* from the path step 2 gave it; A* from scratch runs too, and
//     must cost what step 1 did.
//
// DPA* re-plans with the Delta's affected region R and certified kind of
// change. When the start's or goal's region was replaced, so that the old
// path no longer starts or ends there ("fresh"), DPA* plans from scratch;
// when the mesh could not certify a kind of change (Delta.Change 0),
// navmesh's ReplanChange decides for each robot whether DPA* may still
// re-plan its path, and with which kind (-mixed check, the default), or
// DPA* plans from scratch ("mixed", -mixed scratch), or it re-plans the
// update as its removals, then its additions ("split", -mixed split; see
// meshdpa_split.go), or it re-plans as the paper does, with the kind of
// the event whatever the mesh did ("as the paper", -mixed paper: its costs
// may be above A*'s, and are counted rather than checked). Those runs
// count under their own scenarios and in the totals, so that the
// comparison stays honest. One DPA* planner serves every pair, as one
// planner shared by a crowd: before each re-plan the robot hands it its
// path and the costs of the path's steps from before the event, which it
// keeps as the paper's agents keep their paths (see
// planners.DPAStar.Recall; they are measured on the mesh before the
// event, untimed, as a robot has them from its last plan). Every DPA*
// cost is checked against A*'s, but for -mixed paper's.
//
// It prints one tab-separated row per re-plan, then per scenario the
// improvement (A − D)/A of DPA* (D) over A* (A) in time and in expansions
// (over the sums, as Table I, and the mean and median of the runs), the
// mesh's size and memory per region, and the time the voxel map and the
// mesh took per insertion and deletion.
func runMeshDPA(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("meshdpa", flag.ContinueOnError)
	fs.SetOutput(stdout)
	world := fs.String("world", "depot", "depot or warehouse (ground: a Nav2 map) or aerial (a Moving AI voxel map)")
	mapPath := fs.String("map", "", "map to load instead of the world's: a map_server YAML file (ground) or a .3dmap (aerial)")
	n := fs.Int("n", 500, "start/goal pairs per obstacle")
	obstacles := fs.Int("obstacles", 10, "obstacles, one after another")
	size := fs.Float64("size", 2, "obstacle side, metres (the paper's 2 m squares; aerial: cubes)")
	robot := fs.Float64("robot", 0.2, "robot radius, metres")
	inflation := fs.Float64("inflation", 0, "inflation radius, metres, ≥ -robot (0: the robot radius, so that only free, inscribed and lethal voxels matter)")
	res := fs.Float64("res", 0.25, "aerial: metres per voxel of the Moving AI map (it has no scale; 0.25 makes Simple 26 × 33 × 26 m)")
	tile := fs.Int("tile", 0, "mesh tile edge, voxels (0: navmesh's default, 16)")
	visible := fs.Bool("visible", false, "starts see the obstacle's centre (the paper's visibility-polygon variant)")
	seed := fs.Uint64("seed", 1, "random seed")
	reps := fs.Int("reps", 3, "times each search is timed; the fastest counts")
	batch := fs.Int("batch", 4, "runs of a search timed together, in one interval, each time: the clock's own cost (a system call, about 0.4 µs here) is spread over them")
	clock := fs.String("clock", "cpu", "what times searches and updates: cpu (the thread's CPU time, robust to other load) or wall")
	mixed := fs.String("mixed", "check", "what DPA* does after an update the mesh certified as neither insertion nor deletion: check (navmesh's ReplanChange decides per robot whether DPA* may re-plan, else plan from scratch), scratch (always plan from scratch), split (re-plan it as its removals, then its additions) or paper (re-plan it as the event's kind, as the paper does whatever the mesh did: such costs are counted against A*'s, not checked)")
	profile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	baseline := fs.String("baseline", "astar", "A* to compare with: astar (planners.AStar) or same (DPA*'s own search without pruning)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: navbench meshdpa [flags]: Table I of van Toll & Geraerts 2015 on the navigation mesh, DPA* against A* after an obstacle is inserted and deleted")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	stop, err := startProfile(*profile)
	if err != nil {
		return err
	}
	defer stop()
	rel, known := meshWorlds[*world]
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("meshdpa: unexpected arguments %q", fs.Args())
	case !known:
		return fmt.Errorf("meshdpa: -world %q: want depot, warehouse or aerial", *world)
	case *n < 1 || *obstacles < 1 || *reps < 1 || *batch < 1:
		return fmt.Errorf("meshdpa: -n, -obstacles, -reps and -batch must be ≥ 1")
	case !(*size > 0) || !(*robot >= 0) || math.IsInf(*size+*robot, 0):
		return fmt.Errorf("meshdpa: -size must be > 0 and -robot ≥ 0")
	case *inflation != 0 && !(*inflation >= *robot):
		return fmt.Errorf("meshdpa: -inflation %v: want 0 or ≥ -robot %v", *inflation, *robot)
	case !(*res >= 0.02 && *res <= 2):
		return fmt.Errorf("meshdpa: -res %v: want 0.02..2 metres", *res)
	case *tile != 0 && (*tile < 2 || *tile > 256):
		return fmt.Errorf("meshdpa: -tile %d: want 0 or 2..256", *tile)
	case *clock != "cpu" && *clock != "wall":
		return fmt.Errorf("meshdpa: -clock %q: want cpu or wall", *clock)
	case *mixed != "check" && *mixed != "scratch" && *mixed != "split" && *mixed != "paper":
		return fmt.Errorf("meshdpa: -mixed %q: want check, scratch, split or paper", *mixed)
	case *baseline != "astar" && *baseline != "same":
		return fmt.Errorf("meshdpa: -baseline %q: want astar or same", *baseline)
	}
	if *inflation == 0 {
		*inflation = *robot
	}
	if *mapPath == "" {
		root, err := shareddata.Root()
		if err != nil {
			return fmt.Errorf("meshdpa: no -map and no shared data directory: %w", err)
		}
		*mapPath = filepath.Join(root, filepath.FromSlash(rel))
	}
	cpu := *clock == "cpu"
	if cpu {
		if _, ok := threadCPU(); !ok {
			return fmt.Errorf("meshdpa: no thread CPU clock here: use -clock wall")
		}
		runtime.LockOSThread() // the thread's clock times this goroutine's work
		defer runtime.UnlockOSThread()
	}

	rng := rand.New(rand.NewPCG(*seed, 0x9e3779b97f4a7c15))
	var w *meshWorld
	if *world == "aerial" {
		w, err = loadAerialWorld(*mapPath, *res, *robot, *inflation, int32(*tile), rng)
	} else {
		w, err = loadGroundWorld(*mapPath, *robot, *inflation, int32(*tile), rng)
	}
	if err != nil {
		return err
	}
	e := &meshExperiment{w: w, reps: *reps, batch: *batch, timer: dpaExperiment{cpu: cpu}, dpa: planners.NewDPAStar(w.mesh),
		split: *mixed == "split", check: *mixed == "check", paper: *mixed == "paper", half: withoutAdded{m: w.mesh}}
	e.dpaHalf = planners.NewDPAStar(&e.half)
	if *baseline == "astar" {
		e.astar = planners.NewAStar(w.mesh).Plan
	} else {
		e.astar = planners.NewDPAStar(w.mesh).Plan
	}
	e.header(stdout, *world, *mapPath)
	fmt.Fprintf(stdout, "# %d obstacles of %.3g m a side, %d pairs each, robot %.3g m, inflation %.3g m, seed %d, visible %v, reps %d of %d runs, mixed %s, baseline %s, clock %s\n",
		*obstacles, *size, *n, *robot, *inflation, *seed, *visible, *reps, *batch, *mixed, *baseline, *clock)
	fmt.Fprintln(stdout, "run\tobstacle\tchange\tscenario\tstart\tgoal\tnodes\tcost_m\tastar_us\tastar_exp\tdpa_us\tdpa_exp\ttime_impr_pct\texp_impr_pct")

	side := w.cells(*size)
	grow := int32(math.Ceil(*inflation/w.res-1e-9)) + 1
	for o := range *obstacles {
		if err := e.obstacle(o, side, grow, *n, *visible, stdout); err != nil {
			return err
		}
	}
	e.summary(stdout)
	return nil
}

// header prints the world and its mesh.
func (e *meshExperiment) header(stdout io.Writer, world, mapPath string) {
	w := e.w
	regions, edges, tiles := w.meshSize()
	b := w.bounds
	fmt.Fprintf(stdout, "# navbench meshdpa: world %s (%s), %s mesh over %d×%d×%d voxels of %.3g m\n", world, filepath.Base(mapPath),
		w.mesh.Config().Mode, b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1, b.Max.Z-b.Min.Z+1, w.res)
	fmt.Fprintf(stdout, "# mesh: %d regions, %d edges, %d tiles of %d voxels a side; built in %.1f ms; about %.0f bytes per region (heap growth over regions); largest connected part %d regions, %d cells\n",
		regions, edges, tiles, w.mesh.Config().Tile, us(w.build)/1000, w.bytesPerRegion, len(w.boxes), w.cum[len(w.cum)-1])
	fmt.Fprintln(stdout, "# paper (Zelda4x4, an ECM of 4,560 vertices): best improvements 62.55% (deletion, path unaffected) and 46.35% (insertion, path affected, starts that see the obstacle)")
}

// obstacle runs the three steps for obstacle o.
func (e *meshExperiment) obstacle(o int, side, grow int32, n int, visible bool, stdout io.Writer) error {
	w := e.w
	ob, err := w.placeObstacle(o, side, grow)
	if err != nil {
		return err
	}
	pairs := make([]meshPair, n)
	for i := range pairs {
		p := &pairs[i]
		if p.start, p.goal, err = w.pair(&ob, visible); err != nil {
			return err
		}
	}

	// Step 1: A* before the obstacle; its path is the one each robot
	// follows when the obstacle appears.
	ctx := context.Background()
	for i := range pairs {
		p := &pairs[i]
		s, g := w.mesh.Locate(p.start), w.mesh.Locate(p.goal)
		r, err := e.astar(ctx, s, g, e.abuf)
		if err != nil {
			return fmt.Errorf("meshdpa: obstacle %d pair %d: A* before the insertion: %w", o, i, err)
		}
		p.cost0 = r.Cost
		p.old = append(p.old[:0], r.Path...)
		e.abuf = r.Path[:0]
	}

	// Step 2: insert, re-plan every pair.
	if err := e.event(o, "insertion", ob.insert(), pairs); err != nil {
		return err
	}
	for i := range pairs {
		if err := e.replan(o, i, &pairs[i], "insertion", stdout); err != nil {
			return err
		}
	}

	// Step 3: delete, re-plan every pair still connected.
	if err := e.event(o, "deletion", ob.remove(), pairs); err != nil {
		return err
	}
	for i := range pairs {
		if pairs[i].cut {
			continue
		}
		if err := e.replan(o, i, &pairs[i], "deletion", stdout); err != nil {
			return err
		}
	}
	return nil
}

// replan re-plans pair i after the last event with A* from scratch and
// with DPA*, checks that they agree and records the row. A pair the
// insertion cut off is counted and dropped.
func (e *meshExperiment) replan(o, i int, p *meshPair, change string, stdout io.Writer) error {
	ctx := context.Background()
	m := e.w.mesh
	s, g := m.Locate(p.start), m.Locate(p.goal)
	if s == planners.None || g == planners.None {
		return fmt.Errorf("meshdpa: obstacle %d pair %d: after the %s, start %v or goal %v is in no region", o, i, change, p.start, p.goal)
	}
	var a, d planners.Result
	var aerr, derr error
	var how replanHow
	var aT, dT time.Duration
	for range e.reps {
		var t time.Duration
		a, t, aerr = e.timer.timedBatch(e.batch, func() (planners.Result, error) { return e.astar(ctx, s, g, e.abuf) })
		aT = fastest(aT, t)
		d, t, derr = e.timer.timedBatch(e.batch, func() (r planners.Result, err error) {
			r, how, err = e.dpaReplan(ctx, p, s, g, change)
			return r, err
		})
		dT = fastest(dT, t)
		if aerr != nil || derr != nil {
			break
		}
	}
	if errors.Is(aerr, planners.ErrNoPath) && errors.Is(derr, planners.ErrNoPath) {
		p.cut = true
		e.noPath++
		return nil
	}
	label := how.label(change)
	next := d.Path // the path the robot follows now
	if err := check(change, a, aerr, d, derr); err != nil {
		if !e.paper || aerr != nil || !strings.Contains(label, scenPaper) {
			return fmt.Errorf("meshdpa: obstacle %d pair %d (%s): %w", o, i, label, err)
		}
		// The paper's premise failed for this path: count it, and let the
		// robot take A*'s path, as Replan needs an optimal old path.
		e.wrong++
		if derr == nil {
			e.worst = max(e.worst, (d.Cost-a.Cost)/a.Cost)
		}
		next = a.Path
	}
	if change == "deletion" && math.Abs(a.Cost-p.cost0) > 1e-9*max(1, a.Cost) {
		return fmt.Errorf("meshdpa: obstacle %d pair %d: A* after the deletion costs %v, before the insertion %v: the mesh did not come back", o, i, a.Cost, p.cost0)
	}
	e.abuf = a.Path[:0]
	e.row(stdout, o, change, label, p, aT, a, dT, d)
	p.old = append(p.old[:0], next...)
	e.dbuf = d.Path[:0]
	return nil
}
