package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/sim"
)

// errOutcome: the mission ended otherwise than its scenario expects.
var errOutcome = errors.New("the outcome is not what the scenario expects")

// options are navsim's flags.
type options struct {
	world, scenario, log, writeParams string
	realtime, exit                    bool
	seed                              int64
	seedSet, seedEnv                  bool // -seed given; its value from NAVSIM_SEED
	wait                              time.Duration
}

// parseFlags reads navsim's flags from the arguments outside --ros-args.
func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	_, rest, err := ros.ParseArgs(args)
	if err != nil {
		return o, err
	}
	fs := flag.NewFlagSet("navsim", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.world, "world", "", "world: a built-in name ("+strings.Join(sim.Builtin, ", ")+") or a world file; overrides the scenario's (default depot without a scenario)")
	fs.StringVar(&o.scenario, "scenario", "", "scenario file; empty: the world's default (a robot at its start, goals from goal_pose, no timeout)")
	fs.StringVar(&o.log, "log", os.Getenv("NAVSIM_LOG"), "mission log to write (JSON lines, see sim/log.go); default $NAVSIM_LOG")
	fs.BoolVar(&o.realtime, "realtime", true, "step in real time; false steps as fast as it can (navnode runs on wall time: for tests of navsim alone)")
	fs.BoolVar(&o.exit, "exit", true, "exit when the mission ends; false keeps publishing the robot at rest")
	fs.StringVar(&o.writeParams, "write-params", "", "write the navnode parameters the scenario needs to this file (- for stdout) and exit")
	fs.Int64Var(&o.seed, "seed", 0, "seed for the scenario's random block (the soak test); default $NAVSIM_SEED, else the scenario's")
	fs.DurationVar(&o.wait, "wait", time.Minute, "how long to wait for navnode (goal_pose subscribed, plan advertised) before starting; 0 starts at once")
	fs.Usage = func() {
		fmt.Fprint(out, "usage: navsim [flags] [--ros-args ...]\n\n")
		fs.PrintDefaults()
	}
	rest = slices.DeleteFunc(rest, func(a string) bool { return a == "" }) // an empty launch substitution
	if err := fs.Parse(rest); err != nil {
		return o, err
	}
	fs.Visit(func(f *flag.Flag) { o.seedSet = o.seedSet || f.Name == "seed" })
	if env := os.Getenv("NAVSIM_SEED"); env != "" && !o.seedSet {
		if o.seed, err = strconv.ParseInt(env, 10, 64); err != nil {
			return o, fmt.Errorf("NAVSIM_SEED=%q: not an integer", env)
		}
		o.seedSet, o.seedEnv = true, true
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (navsim -h for usage)", fs.Arg(0))
	}
	if o.wait < 0 {
		return o, fmt.Errorf("-wait %v: want ≥ 0", o.wait)
	}
	return o, nil
}

// load reads the scenario and its world.
func load(o options) (*sim.Scenario, *sim.World, error) {
	if o.scenario == "" {
		ref := o.world
		if ref == "" {
			ref = "depot"
		}
		w, err := sim.ResolveWorld(ref, ".")
		if err != nil {
			return nil, nil, err
		}
		sc, err := sim.DefaultScenario(w)
		if o.seedSet && !o.seedEnv && err == nil {
			err = errors.New("-seed: the default scenario has no random block")
		}
		return sc, w, err
	}
	sc, err := sim.LoadScenario(o.scenario)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case o.seedSet && sc.Random != nil:
		sc.Random.Seed = o.seed
	case o.seedSet && !o.seedEnv: // NAVSIM_SEED applies to random scenarios only
		return nil, nil, fmt.Errorf("-seed: %s has no random block", o.scenario)
	}
	ref, dir := sc.World, sc.WorldDir()
	if o.world != "" {
		ref, dir = o.world, "."
		sc.World = o.world
	}
	w, err := sim.ResolveWorld(ref, dir)
	if err != nil {
		return nil, nil, err
	}
	return sc, w, sc.CheckIn(w)
}

// run is navsim: it simulates until the mission ends or ctx does.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	o, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	sc, w, err := load(o)
	if err != nil {
		return err
	}
	if o.writeParams != "" {
		return writeParams(o, sc, w, stdout)
	}
	var logw *sim.LogWriter
	if o.log != "" {
		f, err := os.Create(o.log)
		if err != nil {
			return err
		}
		defer f.Close()
		logw = sim.NewLogWriter(f)
	}
	m, err := sim.NewMission(sc, w, logw)
	if err != nil {
		return err
	}
	node, err := ros.NewNode(ctx, "navsim", ros.WithArgs(args))
	if err != nil {
		return err
	}
	defer node.Close()
	if _, err := ros.Declare(node, "use_sim_time", false, "accepted for launch files; navsim stamps with the wall clock either way"); err != nil {
		return err
	}
	if err := node.CheckParams(); err != nil {
		return err
	}
	s, err := newSimNode(node, m)
	if err != nil {
		return err
	}
	if err := s.serve(ctx, o); err != nil {
		return err
	}
	out, _ := m.Outcome()
	fmt.Fprintf(stdout, "navsim: %s\n", out.Summary())
	if err := logw.Err(); err != nil {
		return fmt.Errorf("mission log %s: %w", o.log, err)
	}
	if !out.OK && out.Result != sim.Stopped {
		return fmt.Errorf("%w: %s", errOutcome, out.Why)
	}
	return nil
}

// writeParams writes the navnode parameters of the scenario.
func writeParams(o options, sc *sim.Scenario, w *sim.World, stdout io.Writer) error {
	what := "the default scenario of world " + w.Name
	if sc.Path != "" {
		what = "scenario " + filepath.Base(sc.Path)
	}
	header := fmt.Sprintf("navnode parameters for %s, written by navsim -write-params.\n"+
		"Load it after config/navnode.yaml: navnode_sim.launch.xml robot_params_file:=<this file>.", what)
	if o.writeParams == "-" {
		return sim.WriteParams(stdout, sim.NavnodeParams(sc, w), header)
	}
	f, err := os.Create(o.writeParams)
	if err != nil {
		return err
	}
	if err := sim.WriteParams(f, sim.NavnodeParams(sc, w), header); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
