package sim

import (
	"math"
	"slices"

	"github.com/golang/geo/r3"
)

// StepDT is the simulation's fixed step, seconds.
const StepDT = 0.02

// ObstacleChange is a change of a dynamic obstacle, for /obstacles.
type ObstacleChange struct {
	ID     string
	Action string // Add, Delete or Move
	Shape  Shape  // after the change; not for Delete
}

// StepResult is what happened in one Step that the world outside must
// hear of.
type StepResult struct {
	Goal      *r3.Vector // a goal to send navnode now
	Obstacles []ObstacleChange
	Hostile   []string // hostile inputs to send now (HostileKinds)
	Lidar     bool     // a LiDAR scan is due
	Laser     bool     // a laser scan is due
	Done      bool     // the mission is over: see Outcome
}

// NavStatus is what navnode's diagnostics report ("navnode: planner").
type NavStatus struct {
	Status    string  // idle, planning, following, blocked, unreachable, reached
	Replans   int     // searches so far
	RepairP50 float64 // ms
	RepairP99 float64 // ms
	Malformed int     // malformed input messages navnode counted, all topics
}

// Mission steps a scenario in a world at a fixed step (StepDT) and
// records its outcome: the robot follows the plans it is given
// (SetPlan), goals and obstacle events happen on the scenario's
// timeline, and the mission ends when the robot reaches the final goal,
// collides, times out, or navnode reports the final goal unreachable. It
// knows nothing of ROS: the caller publishes what each Step returns and
// feeds in what navnode says. A Mission belongs to one goroutine.
type Mission struct {
	Scenario *Scenario
	World    *World

	robot    *Robot
	ctrl     *Controller
	body     Body
	log      *LogWriter
	rnd      *randomizer
	zlo, zhi float64   // the band the robot plans in
	sp       lazySpace // the robot's configuration space
	navSp    lazySpace // navnode's: the robot grown to robot_radius

	t                    float64
	goal                 *r3.Vector // the current goal
	goalFrom             r3.Vector  // where the robot was when it came
	goalAt               float64
	goalDist             float64 // distance travelled when it came
	nextGoal, nextObst   int
	nextHostile          int
	moves                []motion
	nav                  NavStatus
	statuses             []string // every status navnode reported, once each, in order
	unreachableSince     float64  // −1 while navnode does not say unreachable
	distance             float64
	collisions, plans    int
	touching             bool
	nextPose             float64
	nextLidar, nextLaser float64
	interactive          bool // no scripted goals: goals come from SetGoal and only Stop ends it
	outcome              *Outcome
	swept                []sweptObstacle // obstacles animate moved this step, from where
}

// sweptObstacle is an obstacle in motion and where it was before this step.
type sweptObstacle struct {
	id   string
	from r3.Vector
}

// motion is an obstacle moving over some seconds.
type motion struct {
	id       string
	from, to r3.Vector
	t0, t1   float64
	nextPub  float64
}

// NewMission prepares scenario sc in world w, writing its log to log
// (nil: none). With random endpoints it draws the start and goal here.
func NewMission(sc *Scenario, w *World, log *LogWriter) (*Mission, error) {
	cp := *sc
	sc = &cp
	sc.Goals = slices.Clone(sc.Goals)
	m := &Mission{Scenario: sc, World: w, body: sc.Robot.Body(), log: log, unreachableSince: -1}
	m.zlo, m.zhi = sc.Band(w)
	m.sp.body, m.navSp.body = m.body, navnodeBody(sc, w)
	if sc.Random != nil {
		m.rnd = newRandomizer(sc.Random)
		if sc.Random.Endpoints {
			a, b, err := m.rnd.endpoints(m)
			if err != nil {
				return nil, err
			}
			sc.Robot.Start, sc.Goals, sc.goalEntry = a, []Goal{{At: 0.5, Pose: b}}, nil
		}
	}
	if err := sc.CheckIn(w); err != nil {
		return nil, err
	}
	m.robot, m.ctrl = NewRobot(sc.Robot), NewController(sc.Controller, &sc.Robot)
	m.interactive = len(sc.Goals) == 0
	m.logHeader()
	return m, nil
}

// Band returns the heights the robot plans between: for aerial robots
// navnode's min_altitude and max_altitude (NavnodeParams), for ground
// robots its start's height twice.
func (sc *Scenario) Band(w *World) (zlo, zhi float64) {
	if sc.Robot.Type == Ground {
		if sc.Random != nil && sc.Random.Endpoints {
			return w.Bounds.Min.Z, w.Bounds.Min.Z
		}
		return sc.Robot.Start.Z, sc.Robot.Start.Z
	}
	p := NavnodeParams(sc, w)
	lo, _ := p.Get("min_altitude").(float64)
	hi, _ := p.Get("max_altitude").(float64)
	return lo, hi
}

// navnodeGoal returns where navnode aims for goal p: an aerial goal below
// the lowest voxel layer navnode plans in is lifted to that layer's
// centre, as navnode does with RViz's 2D Goal Pose (z = 0). The mission
// judges the robot against this goal.
func (sc *Scenario) navnodeGoal(w *World, p r3.Vector) r3.Vector {
	if sc.Robot.Type != Aerial {
		return p
	}
	params := NavnodeParams(sc, w)
	oz, _ := params.Get("origin_z").(float64)
	res, _ := params.Get("resolution").(float64)
	lo, _ := params.Get("min_altitude").(float64)
	low := max(0, math.Ceil((lo-oz)/res-1e-9))
	if math.Floor((p.Z-oz)/res) < low {
		p.Z = oz + (low+0.5)*res
	}
	return p
}

func (m *Mission) logHeader() {
	sc := m.Scenario
	s := &sc.Robot
	rec := MissionRecord{Type: "mission", Scenario: sc.Path, Start: arr(s.Start), Timeout: sc.Timeout,
		GoalTolerance: sc.GoalTolerance, Expect: sc.Expect.Result,
		Robot: RobotRecord{Type: s.Type, Radius: s.Radius, Height: s.Height, MaxSpeed: s.MaxSpeed, MaxAccel: s.MaxAccel, MaxYawRate: s.MaxYawRate}}
	if sc.Random != nil {
		rec.Seed = &sc.Random.Seed
	}
	m.log.Write(worldRecord(m.World))
	m.log.Write(rec)
}

// Time returns the seconds simulated so far.
func (m *Mission) Time() float64 { return m.t }

// Robot returns the robot's state.
func (m *Mission) Robot() State { return m.robot.State }

// Goal returns the current goal, if any.
func (m *Mission) Goal() (r3.Vector, bool) {
	if m.goal == nil {
		return r3.Vector{}, false
	}
	return *m.goal, true
}

// Outcome returns the mission's outcome once it has ended.
func (m *Mission) Outcome() (Outcome, bool) {
	if m.outcome == nil {
		return Outcome{}, false
	}
	return *m.outcome, true
}

// SetPlan gives the robot a new plan to follow (navnode's /plan, in the
// map frame, robot first); an empty plan stops it.
func (m *Mission) SetPlan(p []r3.Vector) {
	m.plans++
	m.ctrl.SetPlan(p)
	rec := PlanRecord{Type: "plan", T: round4(m.t), Poses: make([][3]float64, 0, len(p))}
	for _, q := range p {
		rec.Poses = append(rec.Poses, arr(q))
	}
	m.log.Write(rec)
}

// SetStatus records what navnode's diagnostics say.
func (m *Mission) SetStatus(s NavStatus) {
	old := m.nav
	m.nav = s
	if s.Status != "" && !slices.Contains(m.statuses, s.Status) {
		m.statuses = append(m.statuses, s.Status)
	}
	switch {
	case s.Status != Unreachable:
		m.unreachableSince = -1
	case m.unreachableSince < 0:
		m.unreachableSince = m.t
	}
	if s.Status != old.Status || s.Replans != old.Replans || s.Malformed != old.Malformed {
		m.log.Write(StatusRecord{Type: "status", T: round4(m.t), Status: s.Status, Replans: s.Replans,
			RepairP50: round4(s.RepairP50), RepairP99: round4(s.RepairP99), Malformed: s.Malformed})
	}
}

// SetGoal adopts a goal sent by someone else (RViz's 2D Goal Pose) as
// the mission's goal; only missions without scripted goals take them.
func (m *Mission) SetGoal(p r3.Vector) {
	if m.interactive && m.outcome == nil && finiteVec(p) {
		m.setGoal(p)
	}
}

func (m *Mission) setGoal(p r3.Vector) {
	p = m.Scenario.navnodeGoal(m.World, p)
	m.goal, m.goalFrom, m.goalAt, m.goalDist = &p, m.robot.State.Pos, m.t, m.distance
	m.log.Write(GoalRecord{Type: "goal", T: round4(m.t), P: arr(p)})
}

// Stop ends the mission from outside (Stopped), unless it has ended.
func (m *Mission) Stop() {
	if m.outcome == nil {
		m.finish(Stopped)
	}
}

// timeSlack is how far short of an event's time the mission's clock may
// be and still take it as due: the clock sums steps of StepDT, which
// float64 cannot hold exactly (300 steps make 5.99999999999996 s).
const timeSlack = 1e-9

// Step advances the mission by StepDT.
func (m *Mission) Step() StepResult {
	var res StepResult
	if m.outcome != nil {
		res.Done = true
		return res
	}
	m.t += StepDT
	sc := m.Scenario
	now := m.t + timeSlack // m.t sums steps, and falls short of their exact time
	for ; m.nextGoal < len(sc.Goals) && sc.Goals[m.nextGoal].At <= now; m.nextGoal++ {
		p := sc.Goals[m.nextGoal].Pose
		m.setGoal(p)
		res.Goal = &p
	}
	for ; m.nextObst < len(sc.Obstacles) && sc.Obstacles[m.nextObst].At <= now; m.nextObst++ {
		if ch, ok := m.apply(sc.Obstacles[m.nextObst]); ok {
			res.Obstacles = append(res.Obstacles, ch)
		}
	}
	res.Obstacles = m.animate(res.Obstacles)
	for m.rnd != nil && m.rnd.next < len(m.rnd.times) && m.rnd.times[m.rnd.next] <= now {
		m.rnd.next++
		if ch, ok := m.rnd.event(m); ok {
			res.Obstacles = append(res.Obstacles, ch)
		}
	}
	for _, ch := range res.Obstacles {
		rec := ObstacleRecord{Type: "obstacle", T: round4(m.t), ID: ch.ID, Action: ch.Action}
		if ch.Action != Delete {
			rec.Shape = shapeRecord(ch.Shape)
		}
		m.log.Write(rec)
	}
	for ; m.nextHostile < len(sc.Hostile) && sc.Hostile[m.nextHostile].At <= now; m.nextHostile++ {
		k := sc.Hostile[m.nextHostile].Kind
		res.Hostile = append(res.Hostile, k)
		m.log.Write(HostileRecord{Type: "hostile", T: round4(m.t), Kind: k})
	}
	before := m.robot.State.Pos
	m.robot.Step(m.ctrl.Command(m.robot), StepDT)
	pos := m.robot.State.Pos
	m.distance += pos.Sub(before).Norm()
	if m.t >= m.nextPose-timeSlack {
		m.nextPose = m.t + 0.1
		m.log.Write(PoseRecord{Type: "pose", T: round4(m.t), P: arr(pos), Yaw: round4(m.robot.State.Yaw), Speed: round4(m.robot.State.Speed)})
	}
	res.Lidar = sc.Lidar != nil && due(&m.nextLidar, m.t, sc.Lidar.Rate)
	res.Laser = sc.Laser != nil && due(&m.nextLaser, m.t, sc.Laser.Rate)
	m.check(before)
	res.Done = m.outcome != nil
	return res
}

// due reports whether a sensor at rate is due at t, and schedules the
// next scan.
func due(next *float64, t, rate float64) bool {
	if t < *next-timeSlack {
		return false
	}
	*next += 1 / rate
	if *next < t {
		*next = t + 1/rate
	}
	return true
}

// check looks for the end of the mission, after a step from before.
func (m *Mission) check(before r3.Vector) {
	sc, pos := m.Scenario, m.robot.State.Pos
	what, at, hit := m.collides(before, pos)
	if !hit && !m.World.Bounds.Contains(pos) {
		what, at, hit = "bounds", pos, true
	}
	if hit && !m.touching {
		m.collisions++
		m.log.Write(CollisionRecord{Type: "collision", T: round4(m.t), P: arr(at), With: what})
	}
	m.touching = hit
	final := !m.interactive && m.goal != nil && m.nextGoal == len(sc.Goals)
	switch {
	case hit && sc.OnCollision == "stop":
		m.finish(Collision)
	case final && m.reached(pos):
		m.finish(Reached)
	case final && m.unreachableSince >= 0 && m.t-max(m.unreachableSince, m.goalAt) >= sc.UnreachableAfter:
		m.finish(Unreachable)
	case sc.Timeout > 0 && m.t >= sc.Timeout-timeSlack:
		m.finish(Timeout)
	}
}

// collides reports whether the robot touched an obstacle on its move
// from before to pos, what and where. A fast robot moves further in a
// step than a thin wall is thick, so the move is checked at points at
// most a quarter of the body's radius apart (at most maxSweepSamples):
// the body sweeps nothing thicker unchecked, and a contact between two
// points is missed only when it is shallower than radius/128.
func (m *Mission) collides(before, pos r3.Vector) (what string, at r3.Vector, hit bool) {
	move := pos.Sub(before)
	n := m.samples(move)
	for i := 1; i < n; i++ {
		p := before.Add(move.Mul(float64(i) / float64(n)))
		// Obstacles that moved this step stand at their end places:
		// crossesMoving checks them where they were at this point.
		if what, hit := m.World.collidesExcept(m.body, p, m.moved); hit {
			return what, p, true
		}
	}
	if what, hit = m.World.Collides(m.body, pos); hit {
		return what, pos, hit
	}
	return m.crossesMoving(before, move)
}

// moved reports whether obstacle id moved this step.
func (m *Mission) moved(id string) bool {
	for _, sw := range m.swept {
		if sw.id == id {
			return true
		}
	}
	return false
}

// crossesMoving reports whether an obstacle that moved this step passed
// through the robot on its move from before by move: the two are checked
// together at points of the step no more than a quarter of the body's
// radius apart in their relative motion.
func (m *Mission) crossesMoving(before, move r3.Vector) (what string, at r3.Vector, hit bool) {
	for _, sw := range m.swept {
		s, ok := m.World.Obstacle(sw.id)
		if !ok {
			continue
		}
		to := s.Center
		n := m.samples(move.Sub(to.Sub(sw.from)))
		for i := 1; i < n; i++ {
			f := float64(i) / float64(n)
			s.Center = sw.from.Add(to.Sub(sw.from).Mul(f))
			o := prepare(s, sw.id)
			if p := before.Add(move.Mul(f)); m.body.touches(p, &o) {
				return sw.id, p, true
			}
		}
	}
	return "", before.Add(move), false
}

// samples is the number of steps that cut a move d into pieces no longer
// than a quarter of the body's radius (at most maxSweepSamples).
func (m *Mission) samples(d r3.Vector) int {
	return min(int(math.Ceil(d.Norm()/(m.body.Radius/4))), maxSweepSamples)
}

// maxSweepSamples bounds the points collides checks on one move.
const maxSweepSamples = 4096

// reached reports whether pos is within the goal tolerance of the goal
// (ground robots: in the plane).
func (m *Mission) reached(pos r3.Vector) bool {
	d := pos.Sub(*m.goal)
	if m.Scenario.Robot.Type == Ground {
		d.Z = 0
	}
	return d.Norm() <= m.Scenario.GoalTolerance
}
