package sim

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

const fullScenario = `
world: ../worlds/city.yaml
robot: {type: aerial, radius: 0.35, max_speed: 1.2, start: [1.5, 10, 1.5], yaw: 0.5}
controller: {tolerance: 0.04}
goals:
  - {at: 8, pose: [20, 10, 2]}
  - {at: 0.5, pose: [28, 10, 2]}
obstacles:
  - {at: 9, id: crate, action: move, to: [12, 14, 1.5], over: 2}
  - {at: 5, id: crate, action: add, box: {center: [12, 10, 1.5], size: [2, 2, 2], yaw: 0.1}}
  - {at: 5, id: post, action: add, ahead: 3, cylinder: {radius: 0.5, height: 3}}
  - {at: 14, id: crate, action: delete}
random: {seed: 7, events: 3, period: [1, 2], shapes: [sphere]}
hostile:
  - {at: 6, kind: garbage_obstacles}
sensors:
  lidar: {beams: 32, vertical_fov: 40, z: 0.1, no_return: inf}
timeout: 40
goal_tolerance: 0.4
on_collision: continue
expect: {result: reached, saw_status: [following], min_replans: 2}
navnode: {resolution: 0.25, planner: adstar, budget_ms: 50, unknown_is_free: false}
`

func TestScenarioParse(t *testing.T) {
	sc, err := ParseScenario(strings.NewReader(fullScenario), "scenarios/x.yaml")
	require.NoError(t, err)
	require.Equal(t, "../worlds/city.yaml", sc.World)
	require.Equal(t, "scenarios", sc.WorldDir())
	require.Equal(t, RobotSpec{Type: Aerial, Radius: 0.35, MaxSpeed: 1.2, MaxAccel: 2, MaxYawRate: 2,
		Start: r3.Vector{X: 1.5, Y: 10, Z: 1.5}, Yaw: 0.5}, sc.Robot)
	require.Equal(t, 0.04, sc.Controller.Tolerance)
	require.Equal(t, 0.6, sc.Controller.Brake)
	require.Greater(t, sc.Controller.Lookahead, 0.5)
	require.Equal(t, []Goal{{At: 0.5, Pose: r3.Vector{X: 28, Y: 10, Z: 2}}, {At: 8, Pose: r3.Vector{X: 20, Y: 10, Z: 2}}}, sc.Goals, "sorted by time")
	require.Len(t, sc.Obstacles, 4)
	require.Equal(t, Add, sc.Obstacles[0].Action)
	require.Equal(t, Shape{Kind: KindBox, Center: r3.Vector{X: 12, Y: 10, Z: 1.5}, Size: r3.Vector{X: 2, Y: 2, Z: 2}, Yaw: 0.1}, sc.Obstacles[0].Shape)
	require.Equal(t, 3.0, sc.Obstacles[1].Ahead)
	require.Equal(t, ObstacleEvent{At: 9, ID: "crate", Action: Move, To: r3.Vector{X: 12, Y: 14, Z: 1.5}, Over: 2}, sc.Obstacles[2])
	require.Equal(t, []Kind{KindSphere}, sc.Random.Shapes)
	require.Equal(t, [2]float64{1, 2}, sc.Random.Period)
	require.True(t, sc.Random.KeepReachable)
	require.Equal(t, []Hostile{{At: 6, Kind: "garbage_obstacles"}}, sc.Hostile)
	require.Equal(t, &Lidar{Beams: 32, VerticalFOV: 40, Samples: 360, Range: 12, Rate: 10, Z: 0.1, NoReturn: NoReturnInf}, sc.Lidar)
	require.Nil(t, sc.Laser, "a LiDAR given: no default laser")
	require.Equal(t, Expect{Result: Reached, SawStatus: []string{"following"}, MinReplans: 2}, sc.Expect)
	require.Equal(t, map[string]any{"resolution": 0.25, "planner": "adstar", "budget_ms": 50.0, "unknown_is_free": false}, sc.Navnode)
	require.Equal(t, 0.25, sc.Resolution())
	require.Equal(t, "continue", sc.OnCollision)
	require.Equal(t, 3.0, sc.UnreachableAfter)
}

func TestScenarioDefaults(t *testing.T) {
	sc, err := ParseScenario(strings.NewReader("world: depot\nrobot: {type: ground, start: [1, 2, 0]}\ngoals: [{at: 0, pose: [3, 4, 0]}]"), "s.yaml")
	require.NoError(t, err)
	require.Equal(t, 0.25, sc.Robot.Radius)
	require.Equal(t, 0.4, sc.Robot.Height)
	require.Equal(t, &Laser{Samples: 360, Range: 12, Rate: 10, Z: 0.2}, sc.Laser, "ground robots get a laser at half their height")
	require.Nil(t, sc.Lidar)
	require.Equal(t, 60.0, sc.Timeout)
	require.Equal(t, 0.3, sc.GoalTolerance)
	require.Equal(t, "stop", sc.OnCollision)
	require.Equal(t, Expect{Result: Reached}, sc.Expect)
	require.Equal(t, 0.1, sc.Resolution())

	w, err := ResolveWorld("depot", "")
	require.NoError(t, err)
	def, err := DefaultScenario(w)
	require.NoError(t, err)
	require.Equal(t, Ground, def.Robot.Type)
	require.Equal(t, *w.Start, def.Robot.Start)
	require.Zero(t, def.Timeout, "no goals: no timeout")
	require.NoError(t, def.CheckIn(w))
}

// TestBadScenarios checks that broken scenarios are errors naming the
// entry at fault, never panics.
func TestBadScenarios(t *testing.T) {
	const robot = "robot: {type: aerial, start: [1, 1, 1]}\n"
	for text, want := range map[string]string{
		"":                                      "empty",
		"- 1":                                   "cannot unmarshal",
		"world: [":                              "yaml",
		"robot: {type: boat, start: [0, 0, 0]}": "type",
		"robot: {type: aerial}":                 "start",
		"robot: {type: aerial, start: [0, 0]}":  "start",
		"robot: {type: aerial, start: [.nan, 0, 0]}":               "start",
		"robot: {type: aerial, start: [0, 0, 0], radius: -1}":      "radius",
		"robot: {type: aerial, start: [0, 0, 0], height: 1}":       "height",
		"robot: {type: ground, start: [0, 0, 0], height: 1e9}":     "height",
		"robot: {type: aerial, start: [0, 0, 0], max_speed: .inf}": "max_speed",
		"robot: {type: aerial, start: [0, 0, 0], yaw: .nan}":       "yaw",
		robot + "wings: 2":                                                                                "wings",
		robot + "goals: [{at: -1, pose: [0, 0, 0]}]":                                                      "goals[0]",
		robot + "goals: [{at: 1, pose: [0, 0, 1e9]}]":                                                     "goals[0]",
		robot + "goals: [{at: 1}]":                                                                        "goals[0]",
		robot + "obstacles: [{at: 1, id: a, action: add}]":                                                "obstacles[0]",
		robot + "obstacles: [{at: 1, action: add, sphere: {center: [0, 0, 0], radius: 1}}]":               "id",
		robot + "obstacles: [{at: 1, id: random-1, action: add, sphere: {center: [0, 0, 0], radius: 1}}]": "random-",
		robot + "obstacles: [{at: 1, id: a, action: add, sphere: {radius: 1}}]":                           "center",
		robot + "obstacles: [{at: 1, id: a, action: add, sphere: {center: [0, 0, 0], radius: 0}}]":        "sphere",
		robot + "obstacles: [{at: 1, id: a, action: add, box: {center: [0, 0, 0], size: [1, 1, 1]}, sphere: {center: [0, 0, 0], radius: 1}}]": "one shape",
		robot + "obstacles: [{at: 1, id: a, action: fly}]":                                                                "action",
		robot + "obstacles: [{at: 1, id: a, action: delete}]":                                                             "no such obstacle",
		robot + "obstacles: [{at: 1, id: a, action: move, to: [1, 1, 1]}]":                                                "no such obstacle",
		robot + "obstacles: [{at: 2, id: a, action: add, ahead: 1, sphere: {radius: 1}}, {at: 1, id: a, action: delete}]": "no such obstacle",
		robot + "obstacles: [{at: 1, id: a, action: add, ahead: 1, sphere: {radius: 1}}, {at: 2, id: a, action: move}]":   "either to",
		robot + "hostile: [{at: 1, kind: flood}]":                                                                         "hostile[0]",
		robot + "sensors: {lidar: {beams: 1000}}":                                                                         "beams",
		robot + "sensors: {lidar: {range: -3}}":                                                                           "range",
		robot + "sensors: {lidar: {no_return: maybe}}":                                                                    "no_return",
		robot + "sensors: {laser: {rate: 1e9}}":                                                                           "rate",
		robot + "sensors: {lidar: {rate: 100}}":                                                                           "steps every 0.02 s",
		robot + "sensors: {sonar: {}}":                                                                                    "sonar",
		robot + "timeout: -1":                                                                                             "timeout",
		robot + "goal_tolerance: 0.0001e9":                                                                                "goal_tolerance",
		robot + "on_collision: bounce":                                                                                    "on_collision",
		robot + "expect: flying":                                                                                          "expect",
		robot + "expect: {result: reached, saw_status: [dancing]}":                                                        "saw_status",
		robot + "expect: {result: reached, extra: 1}":                                                                     "extra",
		robot + "navnode: {resolution: [1, 2]}":                                                                           "navnode.resolution",
		robot + "navnode: {'bad name': 1}":                                                                                "parameter name",
		robot + "navnode: {inflation_radius: .nan}":                                                                       "navnode.inflation_radius: NaN: want a finite number",
		robot + "navnode: {cost_weight: -.inf}":                                                                           "navnode.cost_weight",
		robot + "random: {period: [5, 1]}":                                                                                "period",
		robot + "random: {shapes: [cone]}":                                                                                "cone",
		robot + "random: {on_path: 2}":                                                                                    "on_path",
		robot + "random: {events: -1}":                                                                                    "events",
		robot + "controller: {tolerance: 5}":                                                                              "controller",
	} {
		_, err := ParseScenario(strings.NewReader(text), "bad.yaml")
		require.ErrorIs(t, err, ErrScenario, "%q", text)
		require.ErrorContains(t, err, want, "%q", text)
		require.ErrorContains(t, err, "bad.yaml")
	}
}

// TestScenarioGarbage feeds random mutations of a valid scenario: every
// one parses or fails with ErrScenario.
func TestScenarioGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	src := []byte(fullScenario)
	for range 2000 {
		b := append([]byte(nil), src...)
		for range 1 + rng.IntN(4) {
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[i] = byte(rng.IntN(128))
			case 1:
				b = append(b[:i], b[min(len(b), i+1+rng.IntN(8)):]...)
			default:
				b = append(b[:i], append([]byte("-1e999:[{"), b[i:]...)...)
			}
			if len(b) == 0 {
				break
			}
		}
		if _, err := ParseScenario(strings.NewReader(string(b)), "x.yaml"); err != nil {
			require.ErrorIs(t, err, ErrScenario)
		}
	}
}
