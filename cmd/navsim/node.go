package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/golang/geo/r3"
	"go.uber.org/zap"

	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/sim"
)

// simNode is navsim on the wire. Subscriptions hand what they receive to
// the one goroutine that owns the mission (serve), through inbox.
type simNode struct {
	node *ros.Node
	log  *zap.Logger
	m    *sim.Mission
	sc   *sim.Scenario

	inbox chan func()

	grid      *ros.Publisher[nav_msgs.OccupancyGrid, *nav_msgs.OccupancyGrid]
	points    *ros.Publisher[sensor_msgs.PointCloud2, *sensor_msgs.PointCloud2]
	scan      *ros.Publisher[sensor_msgs.LaserScan, *sensor_msgs.LaserScan]
	odom      *ros.Publisher[nav_msgs.Odometry, *nav_msgs.Odometry]
	tf        *ros.Publisher[tf2_msgs.TFMessage, *tf2_msgs.TFMessage]
	tfStatic  *ros.Publisher[tf2_msgs.TFMessage, *tf2_msgs.TFMessage]
	obstacles *ros.Publisher[visualization_msgs.MarkerArray, *visualization_msgs.MarkerArray]
	goal      *ros.Publisher[geometry_msgs.PoseStamped, *geometry_msgs.PoseStamped]
	plans     *ros.Subscription[nav_msgs.Path, *nav_msgs.Path]

	markers markerIDs
	badPlan atomic.Bool // a bad plan was logged: the next are not
	cloud   []r3.Vector // scratch
	ranges  []float32   // scratch
}

func newSimNode(node *ros.Node, m *sim.Mission) (*simNode, error) {
	s := &simNode{node: node, log: node.Logger(), m: m, sc: m.Scenario, inbox: make(chan func(), 64)}
	static := ros.QoSMap
	var errs []error
	pub := func(err error) { errs = append(errs, err) }
	var err error
	s.grid, err = ros.NewPublisher[nav_msgs.OccupancyGrid](node, "map", ros.QoSMap)
	pub(err)
	s.points, err = ros.NewPublisher[sensor_msgs.PointCloud2](node, "points", ros.QoSSensorData)
	pub(err)
	s.scan, err = ros.NewPublisher[sensor_msgs.LaserScan](node, "scan", ros.QoSSensorData)
	pub(err)
	s.odom, err = ros.NewPublisher[nav_msgs.Odometry](node, "odom", ros.QoSDefault)
	pub(err)
	s.tf, err = ros.NewPublisher[tf2_msgs.TFMessage](node, "tf", ros.QoSDefault)
	pub(err)
	s.tfStatic, err = ros.NewPublisher[tf2_msgs.TFMessage](node, "tf_static", static)
	pub(err)
	s.obstacles, err = ros.NewPublisher[visualization_msgs.MarkerArray](node, "obstacles", ros.QoSDefault)
	pub(err)
	s.goal, err = ros.NewPublisher[geometry_msgs.PoseStamped](node, "goal_pose", ros.QoSDefault)
	pub(err)
	s.plans, err = ros.Subscribe[nav_msgs.Path](node, "plan", ros.QoSDefault, s.onPlan)
	pub(err)
	_, err = ros.Subscribe[diagnostic_msgs.DiagnosticArray](node, "/diagnostics", ros.QoSDefault, s.onDiagnostics)
	pub(err)
	if len(s.sc.Goals) == 0 {
		_, err = ros.Subscribe[geometry_msgs.PoseStamped](node, "goal_pose", ros.QoSDefault, s.onGoal)
		pub(err)
	}
	return s, errors.Join(errs...)
}

// send hands f to the mission's goroutine, unless the node is closing.
func (s *simNode) send(f func()) {
	select {
	case s.inbox <- f:
	case <-s.node.Done():
	}
}

// onPlan takes a plan in the map frame (navnode's map_frame must be
// "map", as the simulated TF tree has it); others are ignored, the first
// one logged.
func (s *simNode) onPlan(p *nav_msgs.Path) {
	bad := func(why string) {
		if !s.badPlan.Swap(true) {
			s.log.Warn("plan ignored (further ones are not logged)", zap.String("why", why))
		}
	}
	if f := p.Header.FrameID; f != frameMap && f != "/"+frameMap {
		bad(fmt.Sprintf("frame %q is not %q", f, frameMap))
		return
	}
	pts := make([]r3.Vector, 0, len(p.Poses))
	for _, q := range p.Poses {
		v := r3.Vector{X: q.Pose.Position.X, Y: q.Pose.Position.Y, Z: q.Pose.Position.Z}
		if !finite(v) {
			bad("a pose is not finite")
			return
		}
		pts = append(pts, v)
	}
	s.send(func() { s.m.SetPlan(pts) })
}

func (s *simNode) onDiagnostics(d *diagnostic_msgs.DiagnosticArray) {
	if st, ok := navStatus(d); ok {
		s.send(func() { s.m.SetStatus(st) })
	}
}

func (s *simNode) onGoal(g *geometry_msgs.PoseStamped) {
	p := r3.Vector{X: g.Pose.Position.X, Y: g.Pose.Position.Y, Z: g.Pose.Position.Z}
	if f := g.Header.FrameID; (f == frameMap || f == "/"+frameMap) && finite(p) {
		s.send(func() { s.m.SetGoal(p) })
	}
}

// drain runs what the subscriptions sent.
func (s *simNode) drain() {
	for {
		select {
		case f := <-s.inbox:
			f()
		default:
			return
		}
	}
}

// serve publishes the static transforms and the map, waits for navnode,
// then steps the mission at StepDT of wall time (catching up when a tick
// comes late) and publishes, until the mission ends (with o.exit) or ctx
// does.
func (s *simNode) serve(ctx context.Context, o options) error {
	s.publishStatic()
	tick := time.NewTicker(time.Duration(sim.StepDT * float64(time.Second)))
	defer tick.Stop()
	if o.wait > 0 && len(s.sc.Goals) > 0 {
		if err := s.waitForNavnode(ctx, tick.C, o.wait); err != nil {
			return err
		}
	}
	start := time.Now()
	for {
		if o.realtime {
			select {
			case <-ctx.Done():
				s.m.Stop()
				return nil
			case <-tick.C:
			}
		} else if ctx.Err() != nil {
			s.m.Stop()
			return nil
		}
		s.drain()
		var res sim.StepResult
		due := time.Since(start).Seconds()
		for n := 0; n == 0 || (n < 10 && o.realtime && s.m.Time()+sim.StepDT <= due); n++ {
			merge(&res, s.m.Step())
		}
		s.publish(res)
		if res.Done && o.exit {
			return nil
		}
	}
}

// merge adds what a step did to what earlier steps of the same tick did.
func merge(acc *sim.StepResult, r sim.StepResult) {
	if r.Goal != nil {
		acc.Goal = r.Goal
	}
	acc.Obstacles = append(acc.Obstacles, r.Obstacles...)
	acc.Hostile = append(acc.Hostile, r.Hostile...)
	acc.Lidar, acc.Laser, acc.Done = acc.Lidar || r.Lidar, acc.Laser || r.Laser, acc.Done || r.Done
}

// waitForNavnode publishes the robot at rest until navnode subscribes to
// goal_pose and advertises plan.
func (s *simNode) waitForNavnode(ctx context.Context, tick <-chan time.Time, wait time.Duration) error {
	deadline := time.After(wait)
	s.log.Info("waiting for navnode (goal_pose subscribed, plan advertised)", zap.Duration("wait", wait))
	for s.goal.Matched() == 0 || s.plans.Matched() == 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			return fmt.Errorf("navnode did not appear within %v (no subscriber on goal_pose or no publisher on plan)", wait)
		case <-tick:
			s.drain()
			s.publishPose(stampNow())
		}
	}
	s.log.Info("navnode is up: the mission starts")
	return nil
}
