package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// planner is what every planner offers.
type planner interface {
	Plan(ctx context.Context, start, goal planners.NodeID, dst []planners.NodeID) (planners.Result, error)
}

// plannerNames are the planners `navbench voxel -planner` knows.
var plannerNames = []string{"astar", "theta", "lpastar", "dstarlite", "arastar", "adstar"}

// newPlanner returns the named planner over l. Anytime planners run
// their ε schedule down to 1.
func newPlanner(name string, l *planners.Lattice) (planner, error) {
	switch name {
	case "astar":
		return planners.NewAStar(l), nil
	case "theta":
		return planners.NewLazyTheta(l), nil
	case "lpastar":
		return planners.NewLPAStar(l), nil
	case "dstarlite":
		return planners.NewDStarLite(l), nil
	case "arastar":
		return planners.NewARAStar(l), nil
	case "adstar":
		return planners.NewADStar(l), nil
	}
	return nil, fmt.Errorf("unknown planner %q: want one of %v", name, plannerNames)
}

// loadMovingAI reads a Moving AI voxel map as a lattice and its scenarios.
func loadMovingAI(mapPath, scenPath string) (*planners.Lattice, []planners.Scenario, error) {
	s, err := voxel.LoadMovingAI(mapPath)
	if err != nil {
		return nil, nil, err
	}
	l, err := planners.NewLattice(int(s.Box.Max.X+1), int(s.Box.Max.Y+1), int(s.Box.Max.Z+1), false)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range s.Blocked {
		l.SetBlocked(l.ID(k.X, k.Y, k.Z), true)
	}
	f, err := os.Open(scenPath)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	scen, err := planners.ReadScenarios(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", scenPath, err)
	}
	return l, scen, nil
}

// endpoints returns a scenario's start and goal nodes.
func endpoints(l *planners.Lattice, s planners.Scenario) (planners.NodeID, planners.NodeID) {
	return l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2])
}

// runVoxel is `navbench voxel`: one planner on Moving AI scenarios. It
// prints "index cost expansions microseconds" per scenario, then the
// median and p95 time, expansions per second, the largest deviation from
// the file's optimal cost and the process's peak memory.
func runVoxel(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("voxel", flag.ContinueOnError)
	fs.SetOutput(stdout)
	mapPath := fs.String("map", "", "Moving AI .3dmap file")
	scenPath := fs.String("scen", "", "its .3dscen file (default: the map's name + .3dscen)")
	name := fs.String("planner", "astar", fmt.Sprintf("planner, one of %v", plannerNames))
	n := fs.Int("n", 0, "scenarios to run (0: all)")
	every := fs.Int("every", 1, "run every k-th scenario")
	profile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stop, err := startProfile(*profile)
	if err != nil {
		return err
	}
	defer stop()
	if *mapPath == "" {
		return fmt.Errorf("voxel: -map is required")
	}
	if *scenPath == "" {
		*scenPath = *mapPath + ".3dscen"
	}
	if *every < 1 || *n < 0 {
		return fmt.Errorf("voxel: -every %d, -n %d: want every ≥ 1, n ≥ 0", *every, *n)
	}
	l, scen, err := loadMovingAI(*mapPath, *scenPath)
	if err != nil {
		return err
	}
	p, err := newPlanner(*name, l)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# navbench voxel: %s on %s (%d×%d×%d), every %d-th scenario\n", *name, *mapPath, l.W, l.H, l.D, *every)
	fmt.Fprintln(stdout, "index\tcost\texpansions\tmicroseconds")
	var (
		times     []float64
		expanded  int
		busy      time.Duration
		deviation float64
		path      []planners.NodeID
	)
	for i := 0; i < len(scen) && (*n == 0 || len(times) < *n); i += *every {
		start, goal := endpoints(l, scen[i])
		r, err := p.Plan(context.Background(), start, goal, path)
		if err != nil {
			return fmt.Errorf("voxel: scenario %d: %w", i, err)
		}
		path = r.Path
		us := float64(r.Stats.Elapsed) / float64(time.Microsecond)
		fmt.Fprintf(stdout, "%d\t%.6f\t%d\t%.1f\n", i, r.Cost, r.Stats.Expansions, us)
		times = append(times, us)
		expanded += r.Stats.Expansions
		busy += r.Stats.Elapsed
		if *name == "theta" {
			// Any-angle paths are never longer than the lattice optimum,
			// and shorter by design: the summary gives the largest gain.
			if r.Cost > scen[i].Optimal+1e-6 {
				return fmt.Errorf("voxel: scenario %d: Lazy Theta* cost %v is above the lattice optimum %v", i, r.Cost, scen[i].Optimal)
			}
			deviation = max(deviation, scen[i].Optimal-r.Cost)
		} else {
			deviation = max(deviation, math.Abs(r.Cost-scen[i].Optimal))
		}
	}
	if len(times) == 0 {
		return fmt.Errorf("voxel: no scenarios selected")
	}
	slices.Sort(times)
	label := "max |cost − optimal|"
	if *name == "theta" {
		label = "max optimal − cost"
	}
	fmt.Fprintf(stdout, "# summary: %d scenarios, median %.1f µs, p95 %.1f µs, %.2f M expansions/s, %s %.2g, peak memory %d MB\n",
		len(times), median(times), quantile(times, 0.95), float64(expanded)/busy.Seconds()/1e6, label, deviation, peakRSS()>>20)
	return nil
}

// quantile returns the q-quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
