package sim

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Review (rev2): scenario timelines and checks.

// TestReviewEventsOnTime: an obstacle event, a goal or a hostile input
// at 6 s happens at the step that reaches 6 s (the 300th), as the
// timeout does. Step compares At with m.t, a sum of 0.02 s steps that
// falls short of 6 (5.99999999999996), so all three come one step late,
// at 6.02 s.
func TestReviewEventsOnTime(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: aerial, start: [2, 5, 2]}
goals: [{at: 6, pose: [15, 5, 2]}]
obstacles: [{at: 6, id: crate, action: add, box: {center: [10, 5, 2], size: [1, 1, 1]}}]
hostile: [{at: 6, kind: nan_goal}]
timeout: 20
`)
	var goalAt, obstAt, hostileAt int
	for step := 1; step <= 310; step++ {
		res := m.Step()
		if res.Goal != nil && goalAt == 0 {
			goalAt = step
		}
		if len(res.Obstacles) > 0 && obstAt == 0 {
			obstAt = step
		}
		if len(res.Hostile) > 0 && hostileAt == 0 {
			hostileAt = step
		}
	}
	require.Equal(t, []int{300, 300, 300}, []int{goalAt, obstAt, hostileAt}, "steps at which the goal, the obstacle and the hostile input at 6 s came (step 300 ends at 6 s)")
}

// TestReviewGoalErrorNamesItsEntry: an error about a goal names the
// file's entry. CheckIn runs after the goals were sorted by time, so it
// names the index in time order: here goals[0], which is in the world.
func TestReviewGoalErrorNamesItsEntry(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeFile(filepath.Join(dir, "w.yaml"), "bounds: {min: [0, 0, 0], max: [20, 10, 4]}\n"))
	sc, err := ParseScenario(strings.NewReader(`world: w.yaml
robot: {type: aerial, start: [2, 5, 2]}
goals:
  - {at: 5, pose: [15, 5, 2]}
  - {at: 1, pose: [50, 5, 2]}
`), filepath.Join(dir, "s.yaml"))
	require.NoError(t, err)
	err = sc.CheckIn(w(t, sc))
	require.ErrorIs(t, err, ErrScenario)
	require.Contains(t, err.Error(), "goals[1]", "the goal outside the world is the file's goals[1]: %v", err)
}

// TestReviewRandomClearOfGoal: random obstacles never come nearer the
// goal than clearance (sim/doc.go). With random endpoints the goal is
// drawn before the mission starts but sent only at 0.5 s; tooNear checks
// only the goal already sent, so obstacles placed before 0.5 s may land
// on it.
func TestReviewRandomClearOfGoal(t *testing.T) {
	for seed := 1; seed <= 40; seed++ {
		m := emptyWorldMission(t, "", `robot: {type: aerial}
random: {seed: `+itoa(seed)+`, endpoints: true, min_distance: 3, events: 4, start: 0, period: [0.1, 0.1], on_path: 0, clearance: 2, keep_reachable: false}
`)
		goal := m.Scenario.Goals[0].Pose
		b := m.body
		b.Radius += 2
		for m.Time() < 0.5-1e-9 {
			m.Step()
		}
		for _, o := range m.World.Obstacles() {
			s := prepare(o.Shape, o.ID)
			require.False(t, b.touches(goal, &s), "seed %d: random obstacle %s %v is within 2 m of the goal %v", seed, o.ID, o.Shape, goal)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
