package sim

import (
	"math"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// These tests came from a review (2026-11-22): each failed before its fix.

// TestRobotLeavesWorld: a robot that leaves the world's bounds collides
// with them. A plan that dived 1 m below the floor, under a 4 m wall, was
// judged "reached" with no collision: a navnode bug (a plan outside its
// volume) would have passed CI.
func TestRobotLeavesWorld(t *testing.T) {
	m := emptyWorldMission(t, "boxes: [{center: [8, 4, 2], size: [1, 8, 4]}]\n", `robot: {type: aerial, start: [2, 5, 2]}
goals: [{at: 0.02, pose: [14, 5, 2]}]
timeout: 40
`)
	m.SetPlan([]r3.Vector{{X: 2, Y: 5, Z: 2}, {X: 5, Y: 5, Z: -1}, {X: 11, Y: 5, Z: -1}, {X: 14, Y: 5, Z: 2}})
	minZ := math.Inf(1)
	for !m.Step().Done {
		minZ = min(minZ, m.Robot().Pos.Z)
	}
	o, _ := m.Outcome()
	t.Logf("lowest: %.2f m", minZ)
	require.False(t, o.Result == Reached && o.Collisions == 0,
		"a robot %.2f m below the world's floor, under a wall, must not count as reached without collision: %s", m.World.Bounds.Min.Z-minZ, o.Summary())
}

// TestOptimalVsGoalTolerance: a perfect run (straight line, no obstacle)
// scores travelled/optimal >= 1. The mission ends as soon as the robot is
// within goal_tolerance (0.3 m) of the goal, and Optimal used to run all
// the way to the goal: 0.97 here.
func TestOptimalVsGoalTolerance(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [2, 5, 2]}
goals: [{at: 0.02, pose: [12, 5, 2]}]
`)
	m.SetPlan([]r3.Vector{{X: 2, Y: 5, Z: 2}, {X: 12, Y: 5, Z: 2}})
	for !m.Step().Done {
	}
	o, _ := m.Outcome()
	require.Equal(t, Reached, o.Result)
	require.NotNil(t, o.Optimal)
	require.GreaterOrEqual(t, o.DistanceToGoal, *o.Optimal-1e-3,
		"a straight run scores below the optimum: %s", o.Summary())
}

// TestFastObstacleThroughRobot: an obstacle in motion is swept with the
// robot along each step. Checked only where each step left it, one that
// crossed the robot between two steps was never a collision.
func TestFastObstacleThroughRobot(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [5, 5, 2]}
goals: [{at: 0.02, pose: [15, 5, 2]}]
obstacles:
  - {at: 0.1, id: ball, action: add, sphere: {center: [1, 5, 2], radius: 0.2}}
  - {at: 0.2, id: ball, action: move, to: [13.5, 5, 2], over: 0.1}
timeout: 1
expect: timeout
`)
	for !m.Step().Done {
	}
	o, _ := m.Outcome()
	require.Equal(t, Collision, o.Result, "the ball went from x 3.5 to 6 through the robot at x 5: %s", o.Summary())
}

// TestGroundArcLeavesPlan: a ground robot stays within 0.15 m (the res +
// tolerance navnode adds to robot_radius) of the plan after a 135° turn
// at max_speed 4. It used to turn on the spot only until the carrot was
// within 0.3 rad of its heading, and the pure-pursuit arc to a carrot 4.7
// m ahead then bulged 0.17 m off the plan.
func TestGroundArcLeavesPlan(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: ground, start: [1, 1, 0], max_speed: 4, max_accel: 3}
goals: [{at: 0.02, pose: [6.34, 6.66, 0]}]
goal_tolerance: 0.05
`)
	c := r3.Vector{X: 12, Y: 1}
	end := c.Add(r3.Vector{X: -8 * math.Sqrt2 / 2, Y: 8 * math.Sqrt2 / 2})
	m.Scenario.Goals[0].Pose = end
	m.SetPlan([]r3.Vector{{X: 1, Y: 1}, c, end})
	worst := 0.0
	for !m.Step().Done {
		p := m.Robot().Pos
		q1, _ := closestOnSegment(p, r3.Vector{X: 1, Y: 1}, c)
		q2, _ := closestOnSegment(p, c, end)
		worst = max(worst, min(p.Sub(q1).Norm(), p.Sub(q2).Norm()))
	}
	o, _ := m.Outcome()
	require.Equal(t, Reached, o.Result)
	require.LessOrEqual(t, worst, 0.15, "the robot left the plan by %.3f m", worst)
}
