package sim

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// These tests came from a review of the simulator (2026-11-22): each
// failed before its fix.

// emptyWorldMission returns a mission in an empty 20 × 10 × 4 m world
// (plus the world file text given) for the scenario text.
func emptyWorldMission(t *testing.T, world, text string) *Mission {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, writeFile(filepath.Join(dir, "w.yaml"), "bounds: {min: [0, 0, 0], max: [20, 10, 4]}\n"+world))
	sc, err := ParseScenario(strings.NewReader("world: w.yaml\n"+text), filepath.Join(dir, "s.yaml"))
	require.NoError(t, err)
	m, err := NewMission(sc, w(t, sc), nil)
	require.NoError(t, err)
	return m
}

// TestAddEndsMotion: adding an obstacle under the id of one in motion
// replaces it where the add puts it; the old motion ends.
func TestAddEndsMotion(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [2, 5, 2]}
obstacles:
  - {at: 1, id: crate, action: add, box: {center: [10, 2, 2], size: [1, 1, 1]}}
  - {at: 1, id: crate, action: move, to: [10, 8, 2], over: 4}
  - {at: 2, id: crate, action: add, sphere: {center: [15, 5, 2], radius: 0.5}}
`)
	var moves []ObstacleChange
	for m.Time() < 4-1e-9 {
		for _, ch := range m.Step().Obstacles {
			if ch.Action == Move && m.Time() > 2-1e-9 {
				moves = append(moves, ch)
			}
		}
	}
	s, ok := m.World.Obstacle("crate")
	require.True(t, ok)
	require.Equal(t, KindSphere, s.Kind)
	require.Equal(t, r3.Vector{X: 15, Y: 5, Z: 2}, s.Center)
	require.Empty(t, moves, "no moves reported after the replacement")
}

// TestSensorRates: a sensor scans at its rate up to one scan a step.
func TestSensorRates(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [2, 5, 2]}
sensors:
  laser: {rate: 50}
  lidar: {rate: 12.5}
`)
	lasers, lidars := 0, 0
	for m.Time() < 2-1e-9 {
		res := m.Step()
		lasers += btoi(res.Laser)
		lidars += btoi(res.Lidar)
	}
	require.Equal(t, 100, lasers, "one a step")
	require.Equal(t, 26, lidars, "at the first step, then every 80 ms to 2 s")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCollisionContinue: with on_collision: continue, a mission in which
// the robot touched an obstacle meets expect: collision, and does not
// meet expect: reached, though it reached its goal.
func TestCollisionContinue(t *testing.T) {
	const text = `robot: {type: aerial, start: [2, 5, 2]}
goals: [{at: 0.1, pose: [2.1, 5, 2]}]
obstacles:
  - {at: 0.04, id: b, action: add, box: {center: [2, 5, 2], size: [0.2, 0.2, 0.2]}}
  - {at: 0.3, id: b, action: delete}
on_collision: continue
`
	for _, expect := range []string{Collision, Reached} {
		m := emptyWorldMission(t, "", text+"expect: "+expect+"\n")
		m.SetPlan([]r3.Vector{{X: 2, Y: 5, Z: 2}, {X: 2.1, Y: 5, Z: 2}})
		for !m.Step().Done {
		}
		o, _ := m.Outcome()
		require.Equal(t, 1, o.Collisions)
		require.Equal(t, Reached, o.Result, "continue: the mission goes on to its end")
		require.Equal(t, expect == Collision, o.OK, "expect %s: %s", expect, o.Why)
		if expect == Reached {
			require.Contains(t, o.Why, "1 collisions")
		}
	}
}

// TestFastRobotHitsThinWall: a robot moving further in a step than a wall
// is thick still hits it.
func TestFastRobotHitsThinWall(t *testing.T) {
	m := emptyWorldMission(t, "boxes: [{center: [5.05, 5, 2], size: [0.05, 10, 4]}]\n",
		`robot: {type: aerial, radius: 0.1, max_speed: 15, max_accel: 50, start: [1, 5, 2]}
goals: [{at: 0.02, pose: [15, 5, 2]}]
timeout: 10
expect: collision
`)
	m.SetPlan([]r3.Vector{{X: 1, Y: 5, Z: 2}, {X: 15, Y: 5, Z: 2}})
	for !m.Step().Done {
	}
	o, _ := m.Outcome()
	require.Equal(t, Collision, o.Result)
	require.True(t, o.OK, o.Why)
	require.Less(t, m.Robot().Pos.X, 5.3, "the mission ended at the wall")
}

// TestAtRestAfterEnd: once the mission has ended the robot is at rest.
func TestAtRestAfterEnd(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [2, 5, 2]}
goals: [{at: 0.02, pose: [15, 5, 2]}]
timeout: 1.5
expect: timeout
`)
	m.SetPlan([]r3.Vector{{X: 2, Y: 5, Z: 2}, {X: 15, Y: 5, Z: 2}})
	for !m.Step().Done {
	}
	at := m.Robot()
	require.Greater(t, at.Pos.X, 2.5, "the robot was moving")
	require.Zero(t, at.Vel.Norm())
	m.Step()
	require.Equal(t, at, m.Robot())
}

// TestNoFalseCollisionWithMovingObstacle: part-way through a step a
// moving obstacle is where it was at that point, not at its end place. A
// robot at 10 m/s with a ball 1 cm behind it, never touching, was counted
// a collision (review, 2026-11-23).
func TestNoFalseCollisionWithMovingObstacle(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [5, 5, 2], max_speed: 10, max_accel: 50}
goals: [{at: 0.02, pose: [15, 5, 2]}]
`)
	before, pos := r3.Vector{X: 5, Y: 5, Z: 2}, r3.Vector{X: 5.2, Y: 5, Z: 2}  // 10 m/s for 20 ms
	from, to := r3.Vector{X: 4.49, Y: 5, Z: 2}, r3.Vector{X: 4.69, Y: 5, Z: 2} // radius 0.2: 0.01 m behind, all along
	require.NoError(t, m.World.Put("ball", Shape{Kind: KindSphere, Center: to, Radius: 0.2}))
	m.swept = []sweptObstacle{{id: "ball", from: from}}
	for f := 0.0; f <= 1; f += 1.0 / 64 { // they never touch
		r, b := before.Add(pos.Sub(before).Mul(f)), from.Add(to.Sub(from).Mul(f))
		require.Greater(t, r.Sub(b).Norm(), 0.5)
	}
	what, at, hit := m.collides(before, pos)
	require.False(t, hit, "collision with %s reported at %v", what, at)

	m.swept = nil // a ball standing where the robot passes is hit
	require.NoError(t, m.World.Put("ball", Shape{Kind: KindSphere, Center: r3.Vector{X: 5.1, Y: 5.3, Z: 2}, Radius: 0.2}))
	what, _, hit = m.collides(before, pos)
	require.True(t, hit)
	require.Equal(t, "ball", what)
}
