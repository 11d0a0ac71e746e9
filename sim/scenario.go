package sim

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/golang/geo/r3"
)

// Scenario is one mission: a world, a robot, goals and obstacle events on
// a timeline, and what a test expects of it. sim/doc.go describes the
// YAML it is read from; LoadScenario checks every value and fills in the
// defaults, so a Scenario it returns is ready to run.
type Scenario struct {
	Path       string // the file it came from; "" for DefaultScenario
	World      string // built-in world name, or world file relative to Path's directory
	Robot      RobotSpec
	Controller ControllerSpec
	Goals      []Goal          // in time order; a goal replaces the one before
	Obstacles  []ObstacleEvent // in time order
	Random     *Random         // randomized obstacles (and endpoints); nil for none
	Hostile    []Hostile       // in time order
	Lidar      *Lidar          // nil: none
	Laser      *Laser          // nil: none

	Timeout          float64 // seconds from the start; 0: none
	GoalTolerance    float64 // the final goal is reached within this distance (ground robots: in the plane), metres
	OnCollision      string  // "stop" (the mission ends in a collision) or "continue" (collisions are counted; see Expect)
	UnreachableAfter float64 // seconds navnode must report the final goal unreachable for the mission to end so
	Expect           Expect
	// Navnode holds navnode parameters the scenario sets beyond those
	// derived from it (NavnodeParams): name → bool, float64 or string
	// (ParseScenario makes integers float64).
	Navnode map[string]any

	goalEntry []int // each goal's index in the file's goals, before sortEvents
}

// Goal is a goal sent to navnode at a time.
type Goal struct {
	At   float64   // seconds from the start
	Pose r3.Vector // metres, map frame
}

// Obstacle event actions.
const (
	Add    = "add"    // a new obstacle (or a replacement, if the id exists)
	Delete = "delete" // the obstacle goes
	Move   = "move"   // the obstacle moves, at once or over some seconds
)

// ObstacleEvent is a scripted change of a dynamic obstacle.
type ObstacleEvent struct {
	At     float64 // seconds from the start
	ID     string
	Action string // Add, Delete or Move
	Shape  Shape  // Add: the obstacle
	// Ahead > 0 places the obstacle (Add) or its destination (Move) on the
	// latest plan, this many metres ahead of the robot along it (along the
	// straight line to the goal, at the robot's height, before any plan;
	// at the plan's end if it is shorter). Ground robots' obstacles stand
	// on the floor (the world's lowest height) there.
	Ahead float64
	To    r3.Vector // Move without Ahead: the new centre
	Over  float64   // Move: seconds the motion takes; 0 jumps
}

// Hostile is malformed input navsim sends navnode at a time, to check
// that it survives: one of HostileKinds.
type Hostile struct {
	At   float64
	Kind string
}

// HostileKinds lists the kinds of hostile input; cmd/navsim documents
// the messages each sends.
var HostileKinds = []string{"garbage_obstacles", "nan_goal", "unknown_frame_goal", "garbage_points", "garbage_scan", "nan_odom"}

// Mission results.
const (
	Reached     = "reached"     // the robot came within GoalTolerance of the final goal
	Timeout     = "timeout"     // Timeout passed first
	Collision   = "collision"   // the robot touched an obstacle with OnCollision "stop"
	Unreachable = "unreachable" // navnode reported the final goal unreachable for UnreachableAfter
	Stopped     = "stopped"     // stopped from outside (SIGINT) before any of those
)

// Expect is what a test expects of a mission. A mission in which the
// robot touched an obstacle meets only Result Collision, whether it ended
// there (OnCollision "stop") or went on ("continue").
type Expect struct {
	Result     string   // one of the mission results; default Reached
	SawStatus  []string // navnode statuses that must have been reported at some time
	MinReplans int      // at least this many replans in navnode's diagnostics
}

// LoadScenario reads and checks a scenario file.
func LoadScenario(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScenario, err)
	}
	defer f.Close()
	return ParseScenario(f, path)
}

// ParseScenario reads and checks a scenario; path names it in errors and
// anchors its relative world file name.
func ParseScenario(r io.Reader, path string) (*Scenario, error) {
	var d scenarioDoc
	if err := decodeStrict(r, &d); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrScenario, path, err)
	}
	sc, err := d.scenario()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrScenario, path, err)
	}
	sc.Path = path
	return sc, nil
}

// WorldDir returns the directory relative world file names are taken
// from: the scenario file's.
func (sc *Scenario) WorldDir() string {
	if sc.Path == "" {
		return "."
	}
	return filepath.Dir(sc.Path)
}

// Resolution returns the voxel size navnode plans at (the navnode
// parameter resolution, default 0.1 m for ground robots and 0.2 m for
// aerial ones), which the optimal path is measured at too.
func (sc *Scenario) Resolution() float64 {
	if v, ok := sc.Navnode["resolution"].(float64); ok && v > 0 {
		return v
	}
	if sc.Robot.Type == Ground {
		return 0.1
	}
	return 0.2
}

// DefaultScenario is the mission navsim runs without a scenario file: a
// robot at the world's start (ground in a world with a map, aerial
// otherwise), its default sensors, no goals (goals come from /goal_pose)
// and no timeout.
func DefaultScenario(w *World) (*Scenario, error) {
	d := scenarioDoc{Robot: robotDoc{Type: Aerial}}
	if w.Grid != nil {
		d.Robot.Type = Ground
	}
	start := w.Bounds.Min.Add(w.Bounds.Max).Mul(0.5)
	if w.Start != nil {
		start = *w.Start
	}
	if d.Robot.Type == Ground {
		start.Z = w.Bounds.Min.Z
	}
	d.Robot.Start = []float64{start.X, start.Y, start.Z}
	sc, err := d.scenario()
	if err != nil {
		return nil, fmt.Errorf("%w: default scenario for %s: %v", ErrScenario, w.Name, err)
	}
	sc.World = w.Name
	return sc, nil
}

// CheckIn checks what the scenario needs of world w: the robot's start
// and the goals inside its bounds, the start free and, for a ground
// robot, on the floor (the bounds' lowest height), and aerial goals
// within the altitude band navnode plans in (Band).
func (sc *Scenario) CheckIn(w *World) error {
	if sc.Random == nil || !sc.Random.Endpoints {
		if !w.Bounds.Contains(sc.Robot.Start) {
			return fmt.Errorf("%w: robot start %v is outside the world's bounds", ErrScenario, fmtVec(sc.Robot.Start))
		}
		if what, hit := w.Collides(sc.Robot.Body(), sc.Robot.Start); hit {
			return fmt.Errorf("%w: robot start %v touches %s", ErrScenario, fmtVec(sc.Robot.Start), what)
		}
		if sc.Robot.Type == Ground && math.Abs(sc.Robot.Start.Z-w.Bounds.Min.Z) > floorSlack {
			return fmt.Errorf("%w: robot start %v: a ground robot starts on the floor, at the world's lowest height %v",
				ErrScenario, fmtVec(sc.Robot.Start), w.Bounds.Min.Z)
		}
	}
	zlo, zhi := sc.Band(w)
	for i, g := range sc.Goals {
		if i < len(sc.goalEntry) {
			i = sc.goalEntry[i] // its place in the file
		}
		if !w.Bounds.Contains(g.Pose) {
			return fmt.Errorf("%w: goals[%d] %v is outside the world's bounds", ErrScenario, i, fmtVec(g.Pose))
		}
		if sc.Robot.Type == Aerial && !(g.Pose.Z >= zlo && g.Pose.Z <= zhi) {
			// navnode lifts a goal below min_altitude into its band, so
			// the robot could never come within the tolerance of this one.
			return fmt.Errorf("%w: goals[%d] %v: an aerial goal must lie between the heights navnode plans in, %v and %v m",
				ErrScenario, i, fmtVec(g.Pose), zlo, zhi)
		}
	}
	return nil
}

// floorSlack is how far from the world's lowest height a ground robot's
// start may be and still count as on the floor, metres.
const floorSlack = 1e-3

// sortEvents orders the timelines by time, keeping the file's order for
// equal times, and notes each goal's place in the file for errors.
func (sc *Scenario) sortEvents() {
	entry := make([]int, len(sc.Goals))
	for i := range entry {
		entry[i] = i
	}
	slices.SortStableFunc(entry, func(a, b int) int { return cmpTime(sc.Goals[a].At, sc.Goals[b].At) })
	goals := make([]Goal, len(entry))
	for k, i := range entry {
		goals[k] = sc.Goals[i]
	}
	sc.Goals, sc.goalEntry = goals, entry
	slices.SortStableFunc(sc.Obstacles, func(a, b ObstacleEvent) int { return cmpTime(a.At, b.At) })
	slices.SortStableFunc(sc.Hostile, func(a, b Hostile) int { return cmpTime(a.At, b.At) })
}

func cmpTime(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
