// Command navreport reads a mission log that navsim wrote (sim.ReadLog)
// and tells what happened:
//
//	navreport -log mission.log [-svg out.svg] [-title T] [-root DIR]
//
// It prints a summary table: the outcome, time, distance travelled
// against the optimal path in the final world, the /plan messages
// received, navnode's replans and repair times (its last status line),
// the obstacle events, collisions and hostile inputs, then one line per
// obstacle event: when, which obstacle, how long until the next plan
// reached the robot and how far that plan strays from the one before.
//
// With -svg it draws the mission: a top view (x–y) and a side view (x–z,
// or y–z when the robot travels more along y), both to the same scale:
// the world (its shapes, and the walls of a map_server map or the voxels
// of a Moving AI map, found from the path the log gives), the dynamic
// obstacles over their lifetimes, the plans as navnode repaired them
// coloured from early to late, the robot's trajectory, the start, the
// goals and the collisions.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/navnode/navnode/sim"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "navreport:", err)
		os.Exit(1)
	}
}

// errEmptyLog: a log holding no record navreport knows.
var errEmptyLog = errors.New("empty mission log: no world, mission, pose, plan or outcome line")

// run is navreport with its command-line arguments.
func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("navreport", flag.ContinueOnError)
	fs.SetOutput(stdout)
	logPath := fs.String("log", "", "mission log (JSON lines) written by navsim; required")
	svgPath := fs.String("svg", "", "SVG picture to write; none if empty")
	title := fs.String("title", "", "the picture's title (default: the scenario and the world)")
	root := fs.String("root", "", "directory a relative map path in the log is taken from (default: the current directory, then the log's directory and its parent)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: navreport -log mission.log [-svg out.svg] [-title T] [-root DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	case *logPath == "":
		return errors.New("-log is required: the mission log navsim wrote")
	}
	l, err := readLog(*logPath)
	if err != nil {
		return err
	}
	s := summarize(l)
	if err := s.print(stdout); err != nil {
		return err
	}
	if *svgPath == "" {
		return nil
	}
	dirs := []string{*root}
	if *root == "" {
		dirs = []string{".", filepath.Dir(*logPath), filepath.Join(filepath.Dir(*logPath), "..")}
	}
	p := newPicture(l, s, *title, dirs)
	n, err := p.writeFile(*svgPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nwrote %s (%d bytes): %d of %d plans drawn\n", *svgPath, n, len(p.drawn), len(l.Plans))
	for _, w := range p.warns {
		fmt.Fprintln(stdout, "note:", w)
	}
	return nil
}

// readLog reads the mission log at path.
func readLog(path string) (*sim.Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := sim.ReadLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if l.World.Type == "" && l.Mission.Type == "" && len(l.Poses) == 0 && len(l.Plans) == 0 && l.Outcome == nil {
		return nil, fmt.Errorf("%s: %w", path, errEmptyLog)
	}
	return l, nil
}
