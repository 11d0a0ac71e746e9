package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// scenarioDoc is a scenario file as YAML (sim/doc.go describes it).
type scenarioDoc struct {
	World            string         `yaml:"world"`
	Robot            robotDoc       `yaml:"robot"`
	Controller       ControllerSpec `yaml:"controller"`
	Goals            []goalDoc      `yaml:"goals"`
	Obstacles        []obstacleDoc  `yaml:"obstacles"`
	Random           *randomDoc     `yaml:"random"`
	Hostile          []hostileDoc   `yaml:"hostile"`
	Sensors          sensorsDoc     `yaml:"sensors"`
	Timeout          *float64       `yaml:"timeout"`
	GoalTolerance    *float64       `yaml:"goal_tolerance"`
	OnCollision      string         `yaml:"on_collision"`
	UnreachableAfter *float64       `yaml:"unreachable_after"`
	Expect           expectDoc      `yaml:"expect"`
	Navnode          map[string]any `yaml:"navnode"`
}

type robotDoc struct {
	Type       string    `yaml:"type"`
	Radius     float64   `yaml:"radius"`
	Height     float64   `yaml:"height"`
	MaxSpeed   float64   `yaml:"max_speed"`
	MaxAccel   float64   `yaml:"max_accel"`
	MaxYawRate float64   `yaml:"max_yaw_rate"`
	Start      []float64 `yaml:"start"`
	Yaw        float64   `yaml:"yaw"`
}

type goalDoc struct {
	At   float64   `yaml:"at"`
	Pose []float64 `yaml:"pose"`
}

type obstacleDoc struct {
	At       float64   `yaml:"at"`
	ID       string    `yaml:"id"`
	Action   string    `yaml:"action"`
	Box      *shapeDoc `yaml:"box"`
	Cylinder *shapeDoc `yaml:"cylinder"`
	Sphere   *shapeDoc `yaml:"sphere"`
	Ahead    float64   `yaml:"ahead"`
	To       []float64 `yaml:"to"`
	Over     float64   `yaml:"over"`
}

type hostileDoc struct {
	At   float64 `yaml:"at"`
	Kind string  `yaml:"kind"`
}

type sensorsDoc struct {
	Lidar *struct {
		Beams       int      `yaml:"beams"`
		VerticalFOV *float64 `yaml:"vertical_fov"`
		Samples     int      `yaml:"samples"`
		Range       float64  `yaml:"range"`
		Rate        float64  `yaml:"rate"`
		Z           *float64 `yaml:"z"`
		NoReturn    string   `yaml:"no_return"`
	} `yaml:"lidar"`
	Laser *struct {
		Samples int      `yaml:"samples"`
		Range   float64  `yaml:"range"`
		Rate    float64  `yaml:"rate"`
		Z       *float64 `yaml:"z"`
	} `yaml:"laser"`
}

// expectDoc is `expect: reached` or `expect: {result: ..., saw_status:
// [...], min_replans: n}`.
type expectDoc struct {
	Result     string   `yaml:"result"`
	SawStatus  []string `yaml:"saw_status"`
	MinReplans int      `yaml:"min_replans"`
}

// UnmarshalYAML reads the short or the long form.
func (e *expectDoc) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&e.Result)
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i].Value; k != "result" && k != "saw_status" && k != "min_replans" {
				return fmt.Errorf("line %d: expect has no field %q", n.Content[i].Line, k)
			}
		}
	}
	type plain expectDoc
	return n.Decode((*plain)(e))
}

// navnodeStatuses are the statuses navnode reports.
var navnodeStatuses = []string{"idle", "planning", "following", "blocked", "unreachable", "reached"}

// scenario checks the document and builds the scenario with defaults.
func (d *scenarioDoc) scenario() (*Scenario, error) {
	sc := &Scenario{World: d.World, OnCollision: d.OnCollision, Controller: d.Controller}
	var err error
	if sc.Robot, err = d.Robot.spec(d.Random != nil && d.Random.Endpoints); err != nil {
		return nil, fmt.Errorf("robot: %v", err)
	}
	c := &sc.Controller
	if !(c.Lookahead >= 0 && c.Lookahead <= 20) || !(c.Tolerance >= 0 && c.Tolerance <= 1) || !(c.Brake >= 0 && c.Brake <= 1) {
		return nil, fmt.Errorf("controller: lookahead %v (0 to 20 m), tolerance %v (0 to 1 m), brake %v (0 to 1)", c.Lookahead, c.Tolerance, c.Brake)
	}
	sc.Controller = c.withDefaults(&sc.Robot)
	if len(d.Goals)+len(d.Obstacles)+len(d.Hostile) > maxShapes {
		return nil, fmt.Errorf("more than %d goals and events", maxShapes)
	}
	for i, g := range d.Goals {
		p, err := vec3("pose", g.Pose)
		if err == nil {
			err = checkTime(g.At)
		}
		if err != nil {
			return nil, fmt.Errorf("goals[%d]: %v", i, err)
		}
		sc.Goals = append(sc.Goals, Goal{At: g.At, Pose: p})
	}
	for i := range d.Obstacles {
		e, err := d.Obstacles[i].event()
		if err != nil {
			return nil, fmt.Errorf("obstacles[%d]: %v", i, err)
		}
		sc.Obstacles = append(sc.Obstacles, e)
	}
	for i, h := range d.Hostile {
		if err := checkTime(h.At); err != nil {
			return nil, fmt.Errorf("hostile[%d]: %v", i, err)
		}
		if !slices.Contains(HostileKinds, h.Kind) {
			return nil, fmt.Errorf("hostile[%d]: kind %q: want one of %s", i, h.Kind, strings.Join(HostileKinds, ", "))
		}
		sc.Hostile = append(sc.Hostile, Hostile(h))
	}
	sc.sortEvents()
	if err := checkObstacleTimeline(sc.Obstacles); err != nil {
		return nil, err
	}
	if d.Random != nil {
		if sc.Random, err = d.Random.random(); err != nil {
			return nil, fmt.Errorf("random: %v", err)
		}
	}
	if err := d.Sensors.fill(sc); err != nil {
		return nil, fmt.Errorf("sensors: %v", err)
	}
	if err := d.limits(sc); err != nil {
		return nil, err
	}
	return sc, nil
}

// limits checks and defaults the mission's limits and expectation.
func (d *scenarioDoc) limits(sc *Scenario) error {
	hasGoal := len(sc.Goals) > 0 || sc.Random != nil && sc.Random.Endpoints
	switch {
	case d.Timeout != nil:
		sc.Timeout = *d.Timeout
	case hasGoal:
		sc.Timeout = 60
	}
	if err := checkTime(sc.Timeout); err != nil {
		return fmt.Errorf("timeout: %v", err)
	}
	sc.GoalTolerance = orDefault(d.GoalTolerance, 0.3)
	if !(sc.GoalTolerance > 0 && sc.GoalTolerance <= 10) {
		return fmt.Errorf("goal_tolerance %v m: want (0, 10]", sc.GoalTolerance)
	}
	if sc.OnCollision == "" {
		sc.OnCollision = "stop"
	}
	if sc.OnCollision != "stop" && sc.OnCollision != "continue" {
		return fmt.Errorf("on_collision %q: want stop or continue", sc.OnCollision)
	}
	sc.UnreachableAfter = orDefault(d.UnreachableAfter, 3)
	if !(sc.UnreachableAfter > 0 && sc.UnreachableAfter <= 600) {
		return fmt.Errorf("unreachable_after %v s: want (0, 600]", sc.UnreachableAfter)
	}
	if err := sc.checkTimeline(); err != nil {
		return err
	}
	e := d.Expect
	sc.Expect = Expect{Result: e.Result, SawStatus: e.SawStatus, MinReplans: e.MinReplans}
	if sc.Expect.Result == "" {
		sc.Expect.Result = Reached
	}
	if !slices.Contains([]string{Reached, Timeout, Collision, Unreachable}, sc.Expect.Result) {
		return fmt.Errorf("expect %q: want reached, timeout, collision or unreachable", sc.Expect.Result)
	}
	for _, s := range e.SawStatus {
		if !slices.Contains(navnodeStatuses, s) {
			return fmt.Errorf("expect.saw_status %q: want one of %s", s, strings.Join(navnodeStatuses, ", "))
		}
	}
	if e.MinReplans < 0 {
		return fmt.Errorf("expect.min_replans %d: want ≥ 0", e.MinReplans)
	}
	if len(d.Navnode) > 100 {
		return errors.New("navnode: more than 100 parameters")
	}
	sc.Navnode = map[string]any{}
	for k, v := range d.Navnode {
		switch v := v.(type) {
		case int:
			sc.Navnode[k] = float64(v) // navnode's numeric parameters are all doubles
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				// No parameters file reads it back as a double, and none
				// of navnode's parameters takes it.
				return fmt.Errorf("navnode.%s: %v: want a finite number", k, v)
			}
			sc.Navnode[k] = v
		case string, bool:
			sc.Navnode[k] = v
		default:
			return fmt.Errorf("navnode.%s: want a number, string or boolean, not %T", k, v)
		}
		if !validParamName(k) {
			return fmt.Errorf("navnode: %q is not a parameter name", k)
		}
	}
	return nil
}

// validParamName accepts names of letters, digits, _ and . (ROS 2
// parameter names), starting with a letter.
func validParamName(s string) bool {
	if s == "" || len(s) > 100 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// orDefault returns *v, or def when v is nil (the field left out).
func orDefault[T any](v *T, def T) T {
	if v == nil {
		return def
	}
	return *v
}

// checkTimeline refuses goals and events that come after the timeout,
// which could never happen, and scripted goals beside random endpoints,
// which would replace them.
func (sc *Scenario) checkTimeline() error {
	if sc.Random != nil && sc.Random.Endpoints && len(sc.Goals) > 0 {
		return errors.New("goals: random.endpoints draws the goal; give no goals")
	}
	if sc.Timeout == 0 {
		return nil
	}
	late := func(what string, at float64) error {
		return fmt.Errorf("%s at %v s: after the timeout (%v s), it would never happen", what, at, sc.Timeout)
	}
	for _, g := range sc.Goals {
		if g.At > sc.Timeout {
			return late("a goal", g.At)
		}
	}
	for _, e := range sc.Obstacles {
		if e.At > sc.Timeout {
			return late(fmt.Sprintf("obstacles: %s of %q", e.Action, e.ID), e.At)
		}
	}
	for _, h := range sc.Hostile {
		if h.At > sc.Timeout {
			return late("hostile "+h.Kind, h.At)
		}
	}
	return nil
}

func checkTime(t float64) error {
	if !(t >= 0 && t <= 1e6) {
		return fmt.Errorf("time %v s: want [0, 1e6]", t)
	}
	return nil
}
