package sim

import (
	"math"

	"github.com/golang/geo/r3"
)

// ControllerSpec tunes the path follower. Zero values take defaults.
type ControllerSpec struct {
	// Lookahead is how far along the plan the carrot runs ahead of the
	// robot, metres. Default: the robot's stopping distance from full
	// speed (see Brake) plus 0.3 m, so that it sees every stop in time.
	Lookahead float64
	// Tolerance is how far the straight line from the robot to the carrot
	// may pass from a corner of the plan, metres: the most the robot cuts
	// a corner by. Default 0.05.
	Tolerance float64
	// Brake is the share of MaxAccel the robot plans its stops with, at
	// corners and at the end of the plan, in (0, 1]. Default 0.6.
	Brake float64
}

// withDefaults fills the zero fields for robot s.
func (c ControllerSpec) withDefaults(s *RobotSpec) ControllerSpec {
	if c.Brake == 0 {
		c.Brake = 0.6
	}
	if c.Tolerance == 0 {
		c.Tolerance = 0.05
	}
	if c.Lookahead == 0 {
		c.Lookahead = max(0.5, s.MaxSpeed*s.MaxSpeed/(2*c.Brake*s.MaxAccel)+0.3)
	}
	return c
}

// turnInPlace is the heading error beyond which a ground robot stops and
// turns on the spot, radians.
const turnInPlace = 0.3

// stopped is the speed below which a ground robot counts as stopped and
// may turn on the spot, m/s.
const stopped = 1e-3

// Controller steers a robot along the latest plan with a carrot (pure
// pursuit) on the plan, Lookahead ahead of the robot's closest point. The
// carrot stops short at a corner when the line to a farther carrot would
// pass more than Tolerance from it, so the robot does not cut corners
// into the obstacles the plan turns around. It slows down to stop at
// such a corner and at the end of the plan, and stops when there is no
// plan. Ground robots turn on the spot when the carrot is more than 0.3
// rad off their heading (braking to a stop in a straight line first), and
// otherwise follow the pure pursuit arc.
type Controller struct {
	Spec   ControllerSpec
	planar bool        // ground robots: the plan's height is ignored
	plan   []r3.Vector // metres, map frame
	cum    []float64   // arc length at each pose [len = len(plan)]
	seg    int         // the robot is along segment plan[seg]..plan[seg+1]
	s      float64     // arc length of the robot's closest point; never falls within one plan
}

// NewController returns a controller for robot s (ground robots follow
// the plan in the plane).
func NewController(spec ControllerSpec, s *RobotSpec) *Controller {
	return &Controller{Spec: spec.withDefaults(s), planar: s.Type == Ground}
}

// SetPlan replaces the plan with a copy of p (robot first, goal last); an
// empty p stops the robot.
func (c *Controller) SetPlan(p []r3.Vector) {
	c.plan, c.cum, c.seg, c.s = c.plan[:0], c.cum[:0], 0, 0
	for _, q := range p {
		if c.planar {
			q.Z = 0
		}
		if n := len(c.plan); n > 0 && q.Sub(c.plan[n-1]).Norm() < 1e-9 {
			continue
		}
		c.plan = append(c.plan, q)
	}
	for i := range c.plan {
		l := 0.0
		if i > 0 {
			l = c.cum[i-1] + c.plan[i].Sub(c.plan[i-1]).Norm()
		}
		c.cum = append(c.cum, l)
	}
}

// HasPlan reports whether there is a plan to follow.
func (c *Controller) HasPlan() bool { return len(c.plan) > 0 }

// Command returns what the robot should do now.
func (c *Controller) Command(r *Robot) Command {
	if len(c.plan) == 0 {
		return Command{}
	}
	pos := r.State.Pos
	if c.planar {
		pos.Z = 0
	}
	carrot, stop := c.carrot(pos)
	d := carrot.Sub(pos)
	dist := d.Norm()
	if stop == atEnd && dist < 0.02 || dist < 1e-6 {
		return Command{}
	}
	s := &r.Spec
	vmax := s.MaxSpeed
	switch stop {
	case atEnd:
		vmax = min(vmax, math.Sqrt(2*c.Spec.Brake*s.MaxAccel*dist))
	case atCorner: // come within Tolerance (where it counts as passed) slowly enough to turn
		vmax = min(vmax, math.Sqrt(2*c.Spec.Brake*s.MaxAccel*max(0, dist-c.Spec.Tolerance/2)))
	}
	if !c.planar {
		return Command{Vel: d.Mul(vmax / dist)}
	}
	alpha := wrapAngle(math.Atan2(d.Y, d.X) - r.State.Yaw)
	// The arc to the carrot bulges about dist·|alpha|/4 from the chord:
	// turn on the spot until that is within Tolerance.
	if math.Abs(alpha) > min(turnInPlace, 4*c.Spec.Tolerance/dist) {
		if math.Abs(r.State.Speed) > stopped {
			return Command{} // brake in a straight line first: turning while braking swings the robot off every plan
		}
		return Command{YawRate: clamp(2*alpha, -s.MaxYawRate, s.MaxYawRate)}
	}
	v := vmax * math.Cos(alpha)
	kappa := 2 * math.Sin(alpha) / dist
	if w := v * kappa; math.Abs(w) > s.MaxYawRate {
		v = s.MaxYawRate / math.Abs(kappa)
	}
	return Command{Speed: v, YawRate: v * kappa}
}

// Progress returns the arc length left from the robot's closest point to
// the end of the plan, metres (0 without a plan).
func (c *Controller) Progress() float64 {
	if len(c.plan) == 0 {
		return 0
	}
	return c.cum[len(c.cum)-1] - c.s
}

// advance moves the robot's closest point forward: the nearest point of
// the segments within reach ahead, and past corners the robot is within
// Tolerance of.
func (c *Controller) advance(pos r3.Vector) {
	n := len(c.plan)
	limit := c.s + c.Spec.Lookahead + 1
	bestD, bestS, bestSeg := math.Inf(1), c.s, c.seg
	for k := c.seg; k < n-1 && c.cum[k] <= limit; k++ {
		q, u := closestOnSegment(pos, c.plan[k], c.plan[k+1])
		if d := pos.Sub(q).Norm(); d < bestD-1e-12 {
			bestD, bestS, bestSeg = d, c.cum[k]+u*(c.cum[k+1]-c.cum[k]), k
		}
	}
	if bestS >= c.s {
		c.s, c.seg = bestS, bestSeg
	}
	for c.seg < n-2 && pos.Sub(c.plan[c.seg+1]).Norm() <= c.Spec.Tolerance {
		c.seg++
		c.s = max(c.s, c.cum[c.seg])
	}
}

// Where the robot must stop, or not, at the carrot.
const (
	goOn     = iota // the carrot runs a full Lookahead ahead
	atCorner        // a corner the robot may not cut
	atEnd           // the end of the plan
)

// carrot returns the point to steer to and whether the robot must stop
// there.
func (c *Controller) carrot(pos r3.Vector) (r3.Vector, int) {
	n := len(c.plan)
	if n == 1 {
		return c.plan[0], atEnd
	}
	c.advance(pos)
	end := c.cum[n-1]
	target := min(c.s+c.Spec.Lookahead, end)
	first := c.seg + 1
	best, stop := c.plan[first], atCorner
	for k := first; ; k++ {
		q, last := c.plan[min(k, n-1)], false
		if k >= n || c.cum[k] >= target {
			q, last = c.pointAt(target), true
		}
		if !c.chordClear(pos, q, first, k) {
			break
		}
		best, stop = q, atCorner
		if last {
			stop = goOn
			if target >= end {
				stop = atEnd
			}
			break
		}
	}
	return best, stop
}

// chordClear reports whether every pose from index from up to (not
// including) to lies within Tolerance of the segment a..b.
func (c *Controller) chordClear(a, b r3.Vector, from, to int) bool {
	for j := from; j < to && j < len(c.plan); j++ {
		q, _ := closestOnSegment(c.plan[j], a, b)
		if q.Sub(c.plan[j]).Norm() > c.Spec.Tolerance {
			return false
		}
	}
	return true
}

// pointAt returns the point of the plan at arc length s.
func (c *Controller) pointAt(s float64) r3.Vector {
	n := len(c.plan)
	for k := max(c.seg, 0); k < n-1; k++ {
		if s <= c.cum[k+1] {
			l := c.cum[k+1] - c.cum[k]
			return c.plan[k].Add(c.plan[k+1].Sub(c.plan[k]).Mul(clamp((s-c.cum[k])/l, 0, 1)))
		}
	}
	return c.plan[n-1]
}

// closestOnSegment returns the point of segment a..b nearest p and its
// position along it in [0, 1].
func closestOnSegment(p, a, b r3.Vector) (r3.Vector, float64) {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 < 1e-18 {
		return a, 0
	}
	u := clamp(p.Sub(a).Dot(ab)/l2, 0, 1)
	return a.Add(ab.Mul(u)), u
}
