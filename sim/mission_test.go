package sim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// fakeNavnode plans as navnode would, for closed loops without ROS: the
// shortest any-angle path in the simulated world itself, obstacles grown
// by navnode's robot_radius, replanned when a goal comes or an obstacle
// changes.
type fakeNavnode struct {
	space   *Space
	replans int
}

func newFakeNavnode(t *testing.T, m *Mission) *fakeNavnode {
	sc := m.Scenario
	zlo, zhi := sc.Band(m.World)
	sp, err := NewSpace(m.World, navnodeBody(sc, m.World), sc.Resolution(), zlo, zhi)
	require.NoError(t, err)
	return &fakeNavnode{space: sp}
}

func (f *fakeNavnode) react(m *Mission, res StepResult) {
	if res.Goal == nil && len(res.Obstacles) == 0 {
		return
	}
	goal, ok := m.Goal()
	if !ok {
		return
	}
	_, path, err := f.space.Path(m.Robot().Pos, goal, true)
	if err != nil {
		m.SetPlan(nil)
		m.SetStatus(NavStatus{Status: Unreachable, Replans: f.replans})
		return
	}
	f.replans++
	path[0], path[len(path)-1] = m.Robot().Pos, goal
	m.SetPlan(path)
	m.SetStatus(NavStatus{Status: "following", Replans: f.replans})
}

// runMission runs sc in closed loop with the fake navnode and returns
// the outcome and the log.
func runMission(t *testing.T, sc *Scenario) (Outcome, *Log) {
	t.Helper()
	w, err := ResolveWorld(sc.World, sc.WorldDir())
	require.NoError(t, err)
	var buf bytes.Buffer
	m, err := NewMission(sc, w, NewLogWriter(&buf))
	require.NoError(t, err)
	nav := newFakeNavnode(t, m)
	for range int(sc.Timeout/StepDT) + 10 {
		res := m.Step()
		if res.Done {
			break
		}
		nav.react(m, res)
	}
	o, done := m.Outcome()
	require.True(t, done)
	log, err := ReadLog(&buf)
	require.NoError(t, err)
	return o, log
}

// TestShippedScenarios runs every scenario of scenarios/ with the fake
// navnode: each meets its expectation, without a collision, on a path
// not much longer than the optimal one.
func TestShippedScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "scenarios", "*.yaml"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 6)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			sc, err := LoadScenario(f)
			require.NoError(t, err)
			seeds := []int64{0}
			if sc.Random != nil {
				seeds = []int64{1, 2, 3}
			}
			for _, seed := range seeds {
				if sc.Random != nil {
					sc.Random.Seed = seed
				}
				o, log := runMission(t, sc)
				t.Logf("%s seed %d: %s", name, seed, o.Summary())
				require.True(t, o.OK, "%s", o.Why)
				require.Zero(t, o.Collisions)
				require.NotNil(t, o.Optimal)
				require.GreaterOrEqual(t, o.DistanceToGoal, *o.Optimal*0.99) // the optimum runs between cell centres
				require.LessOrEqual(t, o.DistanceToGoal, *o.Optimal*1.5+1)
				require.Equal(t, &o, log.Outcome)
				require.NotEmpty(t, log.Poses)
				require.Equal(t, w(t, sc).Name, log.World.Name)
			}
		})
	}
}

func w(t *testing.T, sc *Scenario) *World {
	w, err := ResolveWorld(sc.World, sc.WorldDir())
	require.NoError(t, err)
	return w
}

// TestMissionEnds covers the results other than reached.
func TestMissionEnds(t *testing.T) {
	world := "bounds: {min: [0, 0, 0], max: [20, 10, 4]}\nboxes: [{center: [10, 5, 2], size: [1, 10, 4]}]\n"
	dir := t.TempDir()
	wf := filepath.Join(dir, "wall.yaml")
	require.NoError(t, writeFile(wf, world))
	parse := func(text string) *Scenario {
		sc, err := ParseScenario(strings.NewReader("world: wall.yaml\nrobot: {type: aerial, start: [2, 5, 2]}\n"+text), filepath.Join(dir, "s.yaml"))
		require.NoError(t, err)
		return sc
	}
	// No path through the wall: the fake says unreachable and the mission ends so.
	o, log := runMission(t, parse("goals: [{at: 0.5, pose: [18, 5, 2]}]\nunreachable_after: 1\nexpect: unreachable"))
	require.Equal(t, Unreachable, o.Result)
	require.True(t, o.OK, o.Why)
	require.Nil(t, o.Optimal)
	require.Equal(t, []string{Unreachable}, o.Statuses)
	require.InDelta(t, 1.5, o.Time, 0.05)
	require.Less(t, o.Distance, 1e-9, "without a plan the robot stays")
	require.NotEmpty(t, log.Statuses)

	// A box dropped onto the robot: a collision.
	o, log = runMission(t, parse("goals: [{at: 0.5, pose: [5, 5, 2]}]\nobstacles: [{at: 1, id: b, action: add, box: {center: [2.5, 5, 2], size: [1, 1, 1]}}]\nexpect: collision"))
	require.Equal(t, Collision, o.Result)
	require.True(t, o.OK)
	require.Len(t, log.Collisions, 1)
	require.Equal(t, "b", log.Collisions[0].With)

	// Nothing plans: a timeout, not what was expected.
	sc := parse("goals: [{at: 0.5, pose: [5, 5, 2]}]\ntimeout: 2")
	ww := w(t, sc)
	m, err := NewMission(sc, ww, nil)
	require.NoError(t, err)
	for !m.Step().Done {
	}
	o, _ = m.Outcome()
	require.Equal(t, Timeout, o.Result)
	require.False(t, o.OK)
	require.Contains(t, o.Why, "result timeout, expected reached")
	require.Contains(t, o.Summary(), "NOT as expected")

	// Without scripted goals only Stop ends it, and goals come from outside.
	m, err = NewMission(parse(""), ww, nil)
	require.NoError(t, err)
	m.SetGoal(r3.Vector{X: 5, Y: 5, Z: 2})
	for range 100 {
		require.False(t, m.Step().Done)
	}
	m.Stop()
	o, _ = m.Outcome()
	require.Equal(t, Stopped, o.Result)
	require.NotNil(t, o.Optimal)
	require.InDelta(t, 3, *o.Optimal, 0.3)

	// RViz's 2D Goal Pose sends z = 0; navnode lifts an aerial goal below
	// its lowest layer (min_altitude 0.5, resolution 0.2: the layer from
	// 0.6 to 0.8) to that layer's centre, and the mission judges the
	// robot against the goal navnode aims for. It used to keep z = 0,
	// which the robot could never come within the tolerance of.
	m, err = NewMission(parse(""), ww, nil)
	require.NoError(t, err)
	m.SetGoal(r3.Vector{X: 5, Y: 5, Z: 0})
	require.InDelta(t, 0.7, m.goal.Z, 1e-9)
	m.SetGoal(r3.Vector{X: 5, Y: 5, Z: 0.65})
	require.InDelta(t, 0.65, m.goal.Z, 1e-9, "a goal in the lowest layer stays")
	m.Stop()
	o, _ = m.Outcome()
	require.NotNil(t, o.Optimal)
}

// TestNavnodeGoalLayers: the mission lifts aerial goals to the
// height navnode's liftGoal gives them, whatever the origin, resolution
// and min_altitude (cmd/navnode's goal_lift_test.go covers navnode's side).
func TestNavnodeGoalLayers(t *testing.T) {
	sc := &Scenario{Robot: RobotSpec{Type: Aerial, Radius: 0.25}, Navnode: map[string]any{"resolution": 0.25, "min_altitude": 1.0, "origin_z": -0.1}}
	w := &World{Bounds: Bounds{Min: r3.Vector{Z: -0.1}, Max: r3.Vector{X: 10, Y: 10, Z: 5}}}
	// Layers start at -0.1 every 0.25 m; the lowest at or above 1.0 is
	// layer 5, from 1.15 to 1.4.
	for _, c := range []struct{ z, want float64 }{{0, 1.275}, {1.0, 1.275}, {1.149, 1.275}, {1.15, 1.15}, {3, 3}} {
		require.InDelta(t, c.want, sc.navnodeGoal(w, r3.Vector{Z: c.z}).Z, 1e-9, "z %v", c.z)
	}
	sc.Robot.Type = Ground
	require.Equal(t, r3.Vector{}, sc.navnodeGoal(w, r3.Vector{}))
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }
