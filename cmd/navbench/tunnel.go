package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// AD*'s inflation schedule, for both variants: ε = 2.5, 2, 1.5, 1.
const (
	tunnelEps0 = 2.5
	tunnelStep = 0.5
)

// tunnelSchedules give the tunnel width at inflation ε from the width W at
// ε = 1. "grow" is Kapadia et al.'s (section 6.3: the width "inversely
// proportional to the inflation factor", narrow for the fast inflated
// search and widened as ε falls); "shrink" is the reverse (wide while
// inflated, narrowing to W); "narrow" narrows too, more gently (W·√ε), and
// a cell AD* has reached stays in the tunnel (tunnelKeeps), so the width
// bounds where the search may go next and no work is undone; "fixed" keeps
// W. All but narrow end at W, so they find the same paths unless a pass at
// W fails (narrow ends at W plus what AD* reached). A pass that fails sets
// a floor of twice its width under every later width. On Complex grow and
// fixed expand about as much (grow's narrow first tunnels often fail and
// are searched again), fixed spends nothing on re-marking, and shrink
// repairs every reached cell that leaves.
var tunnelSchedules = map[string]func(w, eps float64) float64{
	"grow":   func(w, eps float64) float64 { return w / eps },
	"shrink": func(w, eps float64) float64 { return w * eps },
	"narrow": func(w, eps float64) float64 { return w * math.Sqrt(eps) },
	"fixed":  func(w, _ float64) float64 { return w },
}

// tunnelKeeps names the schedules under which the cells AD* has reached
// stay in the tunnel when it narrows.
var tunnelKeeps = map[string]bool{"narrow": true}

// tunnelFlags are `navbench tunnel`'s settings.
type tunnelFlags struct {
	mapPath, scenPath     string
	n, every, tile        int
	width, routeWeight    float64
	route, line, schedule string
	profile               string
}

func parseTunnelFlags(args []string, stdout io.Writer) (tunnelFlags, error) {
	var f tunnelFlags
	fs := flag.NewFlagSet("tunnel", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.StringVar(&f.mapPath, "map", "", "Moving AI .3dmap file")
	fs.StringVar(&f.scenPath, "scen", "", "its .3dscen file (default: the map's name + .3dscen)")
	fs.IntVar(&f.n, "n", 10, "scenarios to run (0: all)")
	fs.IntVar(&f.every, "every", 1000, "run every k-th scenario")
	fs.Float64Var(&f.width, "width", 1.5, "tunnel width at ε = 1, cells from the centre line")
	fs.IntVar(&f.tile, "tile", 6, "navigation mesh tile edge, cells (2..256)")
	fs.StringVar(&f.route, "route", "portals", "coarse route: A* over the mesh's portals (portals) or its regions (regions)")
	fs.Float64Var(&f.routeWeight, "routeweight", 1.15, "weight of the coarse A* (≥ 1)")
	fs.StringVar(&f.line, "line", "shortcut", "centre line through the route: shortcut (Mesh.StraightPath) or portal (Mesh.RoutePolyline)")
	fs.StringVar(&f.schedule, "schedule", "fixed", "width by ε: fixed (W), grow (W/ε), shrink (W·ε) or narrow (W·√ε, keeping the cells AD* reached)")
	fs.StringVar(&f.profile, "cpuprofile", "", "write a CPU profile to this file")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	switch {
	case f.mapPath == "":
		return f, errors.New("tunnel: -map is required")
	case f.every < 1 || f.n < 0:
		return f, fmt.Errorf("tunnel: -every %d, -n %d: want every ≥ 1, n ≥ 0", f.every, f.n)
	case !(f.width > 0) || math.IsInf(f.width, 0):
		return f, fmt.Errorf("tunnel: -width %v: want a finite width > 0", f.width)
	case f.tile < 2 || f.tile > 256:
		return f, fmt.Errorf("tunnel: -tile %d: want 2..256", f.tile)
	case f.route != "portals" && f.route != "regions":
		return f, fmt.Errorf("tunnel: -route %q: want portals or regions", f.route)
	case !(f.routeWeight >= 1) || math.IsInf(f.routeWeight, 0):
		return f, fmt.Errorf("tunnel: -routeweight %v: want ≥ 1", f.routeWeight)
	case f.line != "shortcut" && f.line != "portal":
		return f, fmt.Errorf("tunnel: -line %q: want shortcut or portal", f.line)
	case tunnelSchedules[f.schedule] == nil:
		return f, fmt.Errorf("tunnel: -schedule %q: want fixed, grow, shrink or narrow", f.schedule)
	}
	if f.scenPath == "" {
		f.scenPath = f.mapPath + ".3dscen"
	}
	return f, nil
}

// runTunnel is `navbench tunnel`: the multi-domain tunnel of Kapadia et
// al. (section 6.3, appendix C) on Moving AI voxel scenarios. For each
// scenario AD* runs on the whole lattice down to ε = 1, then again in a
// tunnel: a coarse A* on the navigation mesh (built once per map) gives a
// route, a straight-segment path through its portals the centre line, and
// the cells within the schedule's width of it (navmesh.Tunnel) the nodes
// AD* may use (planners.Masked). Where the width changes with ε the tunnel
// is re-marked and AD* told the nodes whose edges changed (a node it never
// reached leaves untold); when a pass finds no path the width doubles, for
// that ε and the rest, up to the whole map. The tunnel's expansions
// (coarse A*'s and AD*'s) and time include the route, the marking and the
// retries. A tunnel path cheaper than the file's optimum is an error, as
// is an unrestricted cost other than it. It prints one line per scenario,
// then the summary.
func runTunnel(args []string, stdout io.Writer) error {
	f, err := parseTunnelFlags(args, stdout)
	if err != nil {
		return err
	}
	l, scen, err := loadMovingAI(f.mapPath, f.scenPath)
	if err != nil {
		return err
	}
	if len(scen) == 0 {
		return errors.New("tunnel: no scenarios in the file")
	}
	stop, err := startProfile(f.profile)
	if err != nil {
		return fmt.Errorf("tunnel: %w", err)
	}
	defer stop()
	tp, err := newTunnelPlanner(l, f)
	if err != nil {
		return fmt.Errorf("tunnel: %w", err)
	}
	fmt.Fprintf(stdout, "# navbench tunnel: %s (%d×%d×%d), every %d-th scenario; width %g at ε = 1 (%s schedule), %s line, route over %s (A* weight %g), tile %d\n",
		f.mapPath, l.W, l.H, l.D, f.every, f.width, f.schedule, f.line, f.route, f.routeWeight, f.tile)
	fmt.Fprintf(stdout, "# mesh: %d regions, %d portals; built in %.1f ms, portal graph %.1f ms\n",
		tp.mesh.NumRegions(), tp.portals.NumNodes()-2, tunnelMS(tp.meshBuild), tunnelMS(tp.portalBuild))
	whole := planners.NewADStar(l)
	whole.Epsilon0, whole.EpsilonStep = tunnelEps0, tunnelStep
	ctx := context.Background()
	// Both variants size their per-node state to the map on their first
	// query: a warm-up query keeps that out of the first scenario's time.
	warm := time.Now()
	start, goal := endpoints(l, scen[0])
	if _, err := whole.Plan(ctx, start, goal, nil); err != nil {
		return fmt.Errorf("tunnel: warm-up: %w", err)
	}
	wholeWarm := time.Since(warm)
	warm = time.Now()
	if _, err := tp.plan(ctx, scen[0]); err != nil {
		return fmt.Errorf("tunnel: warm-up: %w", err)
	}
	fmt.Fprintf(stdout, "# warm-up on scenario 0 (state allocation): adstar %.1f ms, tunnel %.1f ms\n", tunnelMS(wholeWarm), tunnelMS(time.Since(warm)))
	fmt.Fprintln(stdout, "index\toptimal\tadstar_cost\tadstar_exp\tadstar_us\ttunnel_cost\ttunnel_exp\ttunnel_us\tretries")
	var sum tunnelSummary
	var path []planners.NodeID
	for i := 0; i < len(scen) && (f.n == 0 || sum.count < f.n); i += f.every {
		s := scen[i]
		start, goal := endpoints(l, s)
		whole.Reset()
		began := time.Now()
		a, err := whole.Plan(ctx, start, goal, path)
		elapsed := time.Since(began)
		if err != nil {
			return fmt.Errorf("tunnel: scenario %d: AD*: %w", i, err)
		}
		path = a.Path
		if math.Abs(a.Cost-s.Optimal) > 1e-4*max(1, s.Optimal) {
			return fmt.Errorf("tunnel: scenario %d: AD* costs %.6f, the file's optimum is %.6f", i, a.Cost, s.Optimal)
		}
		t, err := tp.plan(ctx, s)
		if err != nil {
			return fmt.Errorf("tunnel: scenario %d: %w", i, err)
		}
		if t.cost < s.Optimal-1e-6 {
			return fmt.Errorf("tunnel: scenario %d: the tunnel path costs %.6f, less than the optimum %.6f", i, t.cost, s.Optimal)
		}
		fmt.Fprintf(stdout, "%d\t%.6f\t%.6f\t%d\t%.1f\t%.6f\t%d\t%.1f\t%d\n", i, s.Optimal,
			a.Cost, a.Stats.Expansions, us(elapsed), t.cost, t.expansions, us(t.elapsed), t.retries)
		sum.add(s.Optimal, a.Stats.Expansions, elapsed, t)
	}
	sum.print(stdout)
	return nil
}

// tunnelRun is what the tunnel variant paid for one scenario.
type tunnelRun struct {
	cost       float64
	expansions int // the coarse A*'s and AD*'s, over every call
	elapsed    time.Duration
	retries    int // times the width doubled
}

// latticeCosts is a lattice as the mesh's Source: blocked cells and cells
// outside it are lethal, the rest free.
type latticeCosts struct{ l *planners.Lattice }

func (s latticeCosts) Cost(k voxel.Key) voxel.Cost {
	if n := s.l.ID(k.X, k.Y, k.Z); n != planners.None && !s.l.Blocked(n) {
		return voxel.Free
	}
	return voxel.Lethal
}

// tunnelPlanner is the tunnel variant over one map; its planners and
// buffers serve every scenario.
type tunnelPlanner struct {
	f        tunnelFlags
	l        *planners.Lattice
	bounds   voxel.Box // the lattice's cells
	mesh     *navmesh.Mesh
	portals  *navmesh.PortalGraph
	byRegion *planners.AStar // on mesh
	byPortal *planners.AStar // on portals
	mask     *planners.Masked
	ad       *planners.ADStar // on mask
	schedule func(w, eps float64) float64
	eps      []float64 // AD*'s ε steps, falling to 1
	maxWidth float64   // the lattice's diagonal: a tunnel this wide holds every cell

	meshBuild, portalBuild time.Duration

	cells   []planners.NodeID // the nodes in mask
	fresh   []planners.NodeID // the nodes of the tunnel being marked
	spare   []uint64          // all zero, to mark the next tunnel in [len = len(mask.Allowed)]
	listed  []uint64          // the nodes in changed [len = len(mask.Allowed)]
	changed []planners.NodeID
	line    [][3]float64
	route   []planners.NodeID // the coarse A*'s path
	regions []planners.NodeID // the regions it crosses
	path    []planners.NodeID
}

func newTunnelPlanner(l *planners.Lattice, f tunnelFlags) (*tunnelPlanner, error) {
	b := voxel.Box{Max: voxel.Key{X: l.W - 1, Y: l.H - 1, Z: l.D - 1}}
	began := time.Now()
	mesh, err := navmesh.New(latticeCosts{l}, navmesh.Config{Mode: navmesh.Aerial, Bounds: b, Tile: int32(f.tile)})
	if err != nil {
		return nil, err
	}
	tp := &tunnelPlanner{f: f, l: l, bounds: b, mesh: mesh, meshBuild: time.Since(began)}
	began = time.Now()
	tp.portals = navmesh.NewPortalGraph(mesh)
	tp.portalBuild = time.Since(began)
	tp.byRegion, tp.byPortal = planners.NewAStar(mesh), planners.NewAStar(tp.portals)
	tp.byRegion.Weight, tp.byPortal.Weight = f.routeWeight, f.routeWeight
	words := (l.NumNodes() + 63) / 64
	tp.mask = planners.NewMasked(l, make([]uint64, words))
	tp.spare, tp.listed = make([]uint64, words), make([]uint64, words)
	tp.schedule = tunnelSchedules[f.schedule]
	tp.maxWidth = math.Sqrt(float64(l.W)*float64(l.W) + float64(l.H)*float64(l.H) + float64(l.D)*float64(l.D))
	for e := tunnelEps0; e > 1; e -= tunnelStep {
		tp.eps = append(tp.eps, e)
	}
	tp.eps = append(tp.eps, 1)
	tp.ad = planners.NewADStar(tp.mask)
	// Each width is its own Plan call, from the ε where it starts; with
	// LargeChange 1 the Update before it sets ε to that one (Epsilon0)
	// rather than leaving it where the last call ended.
	tp.ad.EpsilonStep, tp.ad.LargeChange = tunnelStep, 1
	return tp, nil
}

// plan runs the tunnel variant on one scenario.
func (tp *tunnelPlanner) plan(ctx context.Context, s planners.Scenario) (tunnelRun, error) {
	began := time.Now()
	var run tunnelRun
	if err := tp.centreLine(ctx, s, &run); err != nil {
		return run, err
	}
	start, goal := endpoints(tp.l, s)
	eps := tp.eps
	// floor: twice the last width that held no path; no later tunnel is
	// narrower, and none is wider than the schedule or the floor asks.
	widthAt := func(k int, floor float64) float64 {
		return min(max(tp.schedule(tp.f.width, eps[k]), floor), tp.maxWidth)
	}
	floor, first := 0.0, true
	for k := 0; k < len(eps); {
		w := widthAt(k, floor)
		last := k // the steps that share this width share one Plan call
		for last+1 < len(eps) && widthAt(last+1, floor) == w {
			last++
		}
		tp.retunnel(w, !first)
		tp.ad.Epsilon0, tp.ad.EpsilonMin = eps[k], eps[last]
		if first {
			tp.ad.Reset()
		} else if err := tp.ad.Update(append(tp.changed, goal)); err != nil {
			// The goal (the root, a no-op) keeps the list from being
			// empty, so that LargeChange sends ε to Epsilon0.
			return run, err
		}
		first = false
		r, err := tp.ad.Plan(ctx, start, goal, tp.path)
		run.expansions += r.Stats.Expansions
		if errors.Is(err, planners.ErrNoPath) && w < tp.maxWidth {
			floor = 2 * w
			run.retries++
			continue
		}
		if err != nil {
			return run, fmt.Errorf("AD* in a tunnel of width %g: %w", w, err)
		}
		tp.path, run.cost = r.Path, r.Cost
		k = last + 1
	}
	run.elapsed = time.Since(began)
	return run, nil
}

// centreLine sets tp.line to the coarse path from the scenario's start to
// its goal and adds the coarse A*'s expansions to run.
func (tp *tunnelPlanner) centreLine(ctx context.Context, s planners.Scenario, run *tunnelRun) error {
	sk, gk := tunnelKey(s.Start), tunnelKey(s.Goal)
	sp, gp := [3]float64{float64(sk.X), float64(sk.Y), float64(sk.Z)}, [3]float64{float64(gk.X), float64(gk.Y), float64(gk.Z)}
	from, to := tp.mesh.Locate(sk), tp.mesh.Locate(gk)
	if from == planners.None || to == planners.None {
		return fmt.Errorf("start %v or goal %v in no mesh region", sk, gk)
	}
	var r planners.Result
	var err error
	if tp.f.route == "portals" {
		g := tp.portals
		g.SetQuery(sp, gp, from, to)
		r, err = tp.byPortal.Plan(ctx, g.Start(), g.Goal(), tp.route)
		tp.route = r.Path
		tp.regions = g.Regions(r.Path, tp.regions)
		r.Path = tp.regions
	} else {
		r, err = tp.byRegion.Plan(ctx, from, to, tp.route)
		tp.route = r.Path
	}
	run.expansions += r.Stats.Expansions
	if err != nil {
		return fmt.Errorf("coarse route: %w", err)
	}
	if tp.f.line == "portal" {
		tp.line = tp.mesh.RoutePolyline(sp, gp, r.Path, tp.line)
		return nil
	}
	tp.line, err = tp.mesh.StraightPath(sp, gp, r.Path, tp.line)
	return err
}

func tunnelKey(c [3]int32) voxel.Key { return voxel.Key{X: c[0], Y: c[1], Z: c[2]} }

// retunnel makes the mask the tunnel of width w around tp.line, plus,
// under a schedule that keeps them, the cells of the old tunnel AD* has
// reached. With track, it lists in tp.changed the nodes AD* must be told
// of (see planners.Masked): each node that entered, each that left after
// AD* reached it, and their neighbours. A node AD* has not reached leaves
// unlisted: no g or rhs came through it (ADStar.Reached).
func (tp *tunnelPlanner) retunnel(w float64, track bool) {
	nb := tp.spare
	tp.fresh = tp.fresh[:0]
	navmesh.Tunnel(tp.line, w, tp.bounds, func(k voxel.Key) {
		if n := tp.l.ID(k.X, k.Y, k.Z); !bitSet(nb, n) {
			nb[n>>6] |= 1 << (n & 63)
			tp.fresh = append(tp.fresh, n)
		}
	})
	old := tp.mask.Allowed
	tp.changed = tp.changed[:0]
	if track {
		keep := tunnelKeeps[tp.f.schedule]
		for _, n := range tp.cells {
			switch {
			case bitSet(nb, n) || !tp.ad.Reached(n): // stays, or leaves untold
			case keep:
				nb[n>>6] |= 1 << (n & 63)
				tp.fresh = append(tp.fresh, n)
			default:
				tp.flipped(n)
			}
		}
		for _, n := range tp.fresh {
			if !bitSet(old, n) {
				tp.flipped(n)
			}
		}
		for _, n := range tp.changed {
			tp.listed[n>>6] = 0 // every bit set in the word is a listed node
		}
	}
	for _, n := range tp.cells {
		old[n>>6] = 0
	}
	tp.mask.Allowed, tp.spare = nb, old
	tp.cells, tp.fresh = tp.fresh, tp.cells
}

// flipped lists n and its neighbours in tp.changed, once each.
func (tp *tunnelPlanner) flipped(n planners.NodeID) {
	at := len(tp.changed)
	tp.changed = tp.l.Around(n, tp.changed)
	k := at
	for _, v := range tp.changed[at:] {
		if !bitSet(tp.listed, v) {
			tp.listed[v>>6] |= 1 << (v & 63)
			tp.changed[k] = v
			k++
		}
	}
	tp.changed = tp.changed[:k]
}

func bitSet(b []uint64, n planners.NodeID) bool { return b[n>>6]&(1<<(n&63)) != 0 }

// tunnelSummary gathers the per-scenario comparisons.
type tunnelSummary struct {
	count              int
	wholeExp, tunExp   int
	wholeTime, tunTime time.Duration
	expRatio, tRatio   []float64 // unrestricted over tunnel, per scenario
	excess             []float64 // tunnel cost over the optimum, %
	retries            int
}

func (s *tunnelSummary) add(optimal float64, exp int, elapsed time.Duration, t tunnelRun) {
	s.count++
	s.wholeExp += exp
	s.tunExp += t.expansions
	s.wholeTime += elapsed
	s.tunTime += t.elapsed
	s.expRatio = append(s.expRatio, float64(exp)/float64(max(1, t.expansions)))
	s.tRatio = append(s.tRatio, float64(elapsed)/float64(max(1, t.elapsed)))
	s.excess = append(s.excess, max(0, 100*(t.cost-optimal)/max(optimal, 1e-9))) // 0, not −0.00, for rounding below the optimum
	s.retries += t.retries
}

func (s *tunnelSummary) print(w io.Writer) {
	if s.count == 0 {
		fmt.Fprintln(w, "# summary: 0 scenarios")
		return
	}
	within := 0
	for _, e := range s.excess {
		if e <= 5 {
			within++
		}
	}
	fmt.Fprintf(w, "# summary: %d scenarios; expansions unrestricted/tunnel: total %.2f×, median %.2f×; time: total %.2f×, median %.2f×\n",
		s.count, float64(s.wholeExp)/float64(max(1, s.tunExp)), median(s.expRatio),
		float64(s.wholeTime)/float64(max(1, s.tunTime)), median(s.tRatio))
	fmt.Fprintf(w, "# summary: tunnel cost over optimal: median %.2f%%, max %.2f%%; within 5%%: %d of %d (%.0f%%); retries %d\n",
		median(s.excess), slices.Max(s.excess), within, s.count, 100*float64(within)/float64(s.count), s.retries)
}

func tunnelMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
