// Command navbench runs navnode's planner experiments:
//
//	navbench voxel  -map F.3dmap -scen F.3dmap.3dscen -planner NAME [-n N] [-every K]
//	navbench replan -map F.3dmap -scen F.3dmap.3dscen [-every K] [-events N] ...
//	navbench dpa    [-map depot.yaml] [-n N] [-obstacles N] ...
//	navbench meshdpa -world depot|warehouse|aerial [-n N] [-obstacles N] ...
//	navbench tunnel -map F.3dmap -scen F.3dmap.3dscen [-width W] ...
//	navbench meshsvg [-o docs/navmesh-depot.svg] ...
//
// voxel solves Moving AI voxel scenarios with one planner and prints one
// line per scenario; replan walks a robot through a Moving AI map while
// obstacles appear on its path and compares repairs with A* from scratch;
// dpa is Table I of the DPA* paper on a grid, meshdpa on navigation
// meshes; tunnel compares AD* focused in a tunnel around the mesh route
// with AD* on the whole lattice; meshsvg draws a mesh before and after an
// obstacle. Each prints its table, then a summary; `navbench CMD -h`
// lists a command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "navbench:", err)
		os.Exit(1)
	}
}

// commands are navbench's subcommands by name.
var commands = map[string]func(args []string, stdout io.Writer) error{
	"voxel":   runVoxel,
	"replan":  runReplan,
	"dpa":     runDPA,
	"meshdpa": runMeshDPA,
	"tunnel":  runTunnel,
	"meshsvg": runMeshSVG,
}

// run dispatches to a subcommand.
func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: navbench voxel|replan|dpa|meshdpa|tunnel|meshsvg [flags] (navbench CMD -h for a command's flags)")
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("unknown command %q: want voxel, replan, dpa, meshdpa, tunnel or meshsvg", args[0])
	}
	return cmd(args[1:], stdout)
}

// startProfile starts a CPU profile into path, if path is set, and
// returns what stops it.
func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
