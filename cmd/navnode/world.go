package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/planners"
	"github.com/navnode/navnode/replanner"
)

// world is what the planning goroutine owns: the costmap, the planning
// loop, and what diagnostics report about them.
type world struct {
	p    params
	vm   *voxel.Map
	loop *replanner.Loop
	cs   voxel.ChangeSet

	markers rosconv.MarkerState // shapes from /obstacles, by namespace

	// Scratch for the outputs.
	keys    []voxel.Key
	centres []r3.Vector
	costs   []voxel.Cost

	out       replanner.Output // the last tick's
	published []r3.Vector      // the last plan published
	route     []r3.Vector      // the tunnel planner's mesh route, for its marker
	sent      bool             // whether a plan was published yet
	lastStat  replanner.Status
	robot     r3.Vector // the robot's position, when poseAt is set
	poseAt    time.Time // when the robot's pose last arrived
	hasGoal   bool
	goalRot   tf.Quat     // the goal's orientation in the map frame, for the path's last pose
	replans   int         // searches that answered a change of the world or the goal
	expanded  int         // expansions of the last tick that searched
	repairs   repairTimes // their durations
	scenario  string      // DPA*: how its last search went
}

func newWorld(p params) (*world, error) {
	vm, err := voxel.New(p.voxelConfig())
	if err != nil {
		return nil, fmt.Errorf("costmap: %w", err)
	}
	loop, err := replanner.New(vm, p.replannerConfig())
	if err != nil {
		return nil, fmt.Errorf("planner: %w", err)
	}
	return &world{p: p, vm: vm, loop: loop}, nil
}

// plannerName names the strategy in use.
func (w *world) plannerName() string {
	switch {
	case w.p.Planner != "auto":
		return w.p.Planner
	case w.p.Budget > 0:
		return "adstar"
	}
	return "dstarlite"
}

// apply applies a costmap update and tells the planning loop what
// changed. It returns the points the update skipped. An update that hit
// the costmap's memory cap is applied as far as it got, and its error
// returned to be counted.
func (w *world) apply(u voxel.Update) (skipped int, err error) {
	err = w.vm.ApplyInto(&w.cs, u)
	if err != nil && !errors.Is(err, voxel.ErrMemory) {
		return 0, err
	}
	in := w.cs.Input
	w.loop.Changed(&w.cs)
	return in.NonFinite + in.TooClose + in.Outside + in.Refused, err
}

// setPose records the robot's position.
func (w *world) setPose(p r3.Vector) error {
	if err := w.loop.SetPose(p); err != nil {
		return err
	}
	w.robot, w.poseAt = p, time.Now()
	return nil
}

// setGoal starts planning to p, with no orientation asked for.
func (w *world) setGoal(p r3.Vector) error { return w.setGoalPose(p, tf.Quat{}) }

// setGoalPose starts planning to p, ending the path facing rot (the zero
// Quat: facing along its last step).
func (w *world) setGoalPose(p r3.Vector, rot tf.Quat) error {
	if err := w.loop.SetGoal(p); err != nil {
		return err
	}
	w.hasGoal, w.goalRot = true, rot
	return nil
}

// endFacing turns the last pose of path (rosconv.Path of points, a pose
// per point), when it ends at the goal, to the goal's orientation, as
// Nav2's planners do: a controller turns the robot to it at the goal
// (RViz's 2D Goal Pose arrow).
func (w *world) endFacing(path []geometry_msgs.PoseStamped, points []r3.Vector) {
	if !w.hasGoal || w.goalRot == (tf.Quat{}) || len(points) == 0 {
		return
	}
	if points[len(points)-1].Sub(w.out.Goal).Norm() > w.p.GoalTolerance+w.p.Resolution {
		return // a detour or a path cut short: it does not end at the goal
	}
	path[len(path)-1].Pose.Orientation = w.goalRot.Msg()
}

// start is where the plan's markers show the start: the path's first
// point, else the robot, else nowhere (nil).
func (w *world) start() *r3.Vector {
	switch {
	case len(w.out.Path) > 0:
		return &w.out.Path[0]
	case !w.poseAt.IsZero():
		return &w.robot
	}
	return nil
}

// goal is where the plan's markers show the goal: the goal set, else
// nowhere (nil).
func (w *world) goal() *r3.Vector {
	if w.hasGoal {
		return &w.out.Goal
	}
	return nil
}

// cancel drops the goal.
func (w *world) cancel() {
	w.loop.Cancel()
	w.hasGoal = false
}

// tick runs the planning loop and reports whether the plan to publish
// changed: a new search, another status, or other points (the path
// starts at the robot, so it changes as the robot moves). The loop keeps
// to budget_ms itself (replanner.Config.Budget), and gives each tick some
// expansions even when setting up took the budget: a deadline of the
// node's own here would take those away.
func (w *world) tick(ctx context.Context) (replanner.Output, bool) {
	out := w.loop.Tick(ctx)
	if out.Stats.Expansions > 0 {
		w.expanded = out.Stats.Expansions
	}
	if out.Replanned && out.Repair && !out.Detour { // one per change answered, with all its search time
		w.replans++
		w.repairs.add(out.RepairTime)
	}
	if out.Replanned && w.loop.Config().Strategy == replanner.DPAStar {
		w.scenario = "planned afresh"
		if out.Scenario != planners.NoScenario {
			w.scenario = out.Scenario.String()
		}
	}
	changed := !w.sent || out.Replanned || out.Status != w.lastStat || !slices.Equal(out.Path, w.published)
	w.out, w.lastStat = out, out.Status
	if changed {
		w.published, w.sent = append(w.published[:0], out.Path...), true
	}
	return out, changed
}

// diagnostics fills what the planner status reports.
func (w *world) diagnostics() *diagState {
	s := &diagState{status: w.out.Status.String(), planner: w.plannerName(), epsilon: w.out.Epsilon,
		expansions: w.expanded, replans: w.replans, repairs: &w.repairs,
		voxels: w.vm.Stats().Observed, pathLen: len(w.out.Path), held: w.out.Held, tfAge: -1, scenario: w.scenario}
	if t, ok := w.loop.TunnelStats(); ok {
		s.tunnel = &t
	}
	if !w.poseAt.IsZero() {
		s.tfAge = time.Since(w.poseAt)
	}
	if w.hasGoal {
		g := w.out.Goal
		s.goal = fmt.Sprintf("(%.2f, %.2f, %.2f)", g.X, g.Y, g.Z)
	}
	switch w.out.Status {
	case replanner.Blocked, replanner.Unreachable:
		s.level, s.message = diagnostic_msgs.DiagnosticStatus_WARN, w.out.Status.String()
	default:
		s.level, s.message = diagnostic_msgs.DiagnosticStatus_OK, w.out.Status.String()
	}
	if s.tfAge < 0 || s.tfAge > 2*time.Second+w.p.TFTimeout {
		s.level = max(s.level, diagnostic_msgs.DiagnosticStatus_WARN)
		s.message += "; no recent robot pose"
	}
	return s
}
