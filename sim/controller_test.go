package sim

import (
	"math"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// follow steps a robot along plan in w until it stops or time runs out,
// checking at every step that it touches nothing; it returns the robot
// and the largest distance it strayed from the plan.
func follow(t *testing.T, w *World, spec RobotSpec, plan []r3.Vector, seconds float64) (*Robot, float64) {
	t.Helper()
	r := NewRobot(spec)
	c := NewController(ControllerSpec{}, &spec)
	c.SetPlan(plan)
	stray := 0.0
	for i := range int(seconds / StepDT) {
		r.Step(c.Command(r), StepDT)
		what, hit := w.Collides(spec.Body(), r.State.Pos)
		require.False(t, hit, "step %d: robot at %v touches %s", i, r.State.Pos, what)
		stray = max(stray, distToPolyline(r.State.Pos, plan, spec.Type == Ground))
	}
	return r, stray
}

func distToPolyline(p r3.Vector, plan []r3.Vector, planar bool) float64 {
	best := math.Inf(1)
	for i := 1; i < len(plan); i++ {
		a, b := plan[i-1], plan[i]
		if planar {
			p.Z, a.Z, b.Z = 0, 0, 0
		}
		q, _ := closestOnSegment(p, a, b)
		best = min(best, q.Sub(p).Norm())
	}
	return best
}

func spec(typ string, start r3.Vector) RobotSpec {
	s := robotDefaults[typ]
	s.Type, s.Start = typ, start
	return s
}

func TestControllerStraight(t *testing.T) {
	for _, typ := range []string{Aerial, Ground} {
		t.Run(typ, func(t *testing.T) {
			z := 0.0
			if typ == Aerial {
				z = 1.5
			}
			start, end := r3.Vector{Z: z}, r3.Vector{X: 10, Z: z}
			s := spec(typ, start)
			r, stray := follow(t, &World{}, s, []r3.Vector{start, end}, 25)
			require.InDelta(t, 0, r.State.Pos.Sub(end).Norm(), 0.03, "it stops at the end of the plan")
			require.InDelta(t, 0, r.State.Speed, 1e-9)
			require.Less(t, stray, 0.01)
		})
	}
}

// TestControllerCorner follows an L-shaped plan round a block that the
// plan passes 5 cm from the robot's radius: cutting the corner the way a
// plain carrot a metre ahead would hits the block.
func TestControllerCorner(t *testing.T) {
	for _, typ := range []string{Aerial, Ground} {
		t.Run(typ, func(t *testing.T) {
			z := 0.0
			if typ == Aerial {
				z = 1
			}
			w := &World{}
			require.NoError(t, w.Put("block", Shape{Kind: KindBox, Center: r3.Vector{X: 2.5, Y: 2.7, Z: 1}, Size: r3.Vector{X: 5, Y: 4.6, Z: 4}}))
			s := spec(typ, r3.Vector{X: -2, Y: 0.1, Z: z})
			// The block spans x ≤ 5, y ≥ 0.4; a robot of radius r at 0.05 m more.
			corner := r3.Vector{X: 5 + s.Radius + 0.05, Y: 0.4 - s.Radius - 0.05, Z: z}
			end := r3.Vector{X: corner.X, Y: 6, Z: z}
			plan := []r3.Vector{s.Start, corner, end}
			r, stray := follow(t, w, s, plan, 40)
			require.InDelta(t, 0, r.State.Pos.Sub(end).Norm(), 0.03)
			require.Less(t, stray, 0.05+0.02, "it cuts the corner by at most the tolerance (and a little overshoot)")

			// A plain pure pursuit a metre ahead would have hit the block.
			carrot := NewController(ControllerSpec{Lookahead: 1, Tolerance: 10}, &s)
			carrot.SetPlan(plan)
			bot, hit := NewRobot(s), false
			for range int(40 / StepDT) {
				bot.Step(carrot.Command(bot), StepDT)
				_, h := w.Collides(s.Body(), bot.State.Pos)
				hit = hit || h
			}
			require.True(t, hit, "the test's corner is too easy")
		})
	}
}

func TestControllerNoPlan(t *testing.T) {
	s := spec(Aerial, r3.Vector{Z: 1})
	r := NewRobot(s)
	c := NewController(ControllerSpec{}, &s)
	for range 50 {
		r.Step(c.Command(r), StepDT)
	}
	require.Equal(t, s.Start, r.State.Pos, "no plan: it stays")
	c.SetPlan([]r3.Vector{s.Start, {X: 10, Z: 1}})
	for range 100 {
		r.Step(c.Command(r), StepDT)
	}
	require.Greater(t, r.State.Speed, 1.0)
	c.SetPlan(nil)
	for range 100 {
		r.Step(c.Command(r), StepDT)
	}
	require.Zero(t, r.State.Speed, "an empty plan stops it")
	require.Zero(t, c.Progress())
}

// TestGroundBrakesBeforeTurning: a ground robot at full speed given a
// plan that turns back (navnode's repair when an obstacle lands ahead)
// brakes in a straight line along its old course, then turns on the spot
// and follows the new plan. It used to turn while braking and slide along
// an arc 0.3 m off both plans: in the soak (seed 40, a navnode with its
// robot_radius) into a depot wall.
func TestGroundBrakesBeforeTurning(t *testing.T) {
	m := emptyWorldMission(t, "", `robot: {type: ground, start: [2, 5, 0], max_speed: 1, max_accel: 1}
goals: [{at: 0.02, pose: [18, 5, 0]}]
timeout: 30
`)
	m.SetPlan([]r3.Vector{{X: 2, Y: 5}, {X: 18, Y: 5}})
	for m.Robot().Pos.X < 8 {
		m.Step()
	}
	require.InDelta(t, 1, m.Robot().Speed, 0.01)
	p := m.Robot().Pos
	end := r3.Vector{X: p.X - 4, Y: p.Y + 0.5}
	m.SetPlan([]r3.Vector{p, {X: p.X, Y: p.Y + 0.5}, end})
	for m.Robot().Speed > 0 {
		m.Step()
		require.InDelta(t, 5, m.Robot().Pos.Y, 1e-9, "braking, it stays on its old course")
		require.InDelta(t, 0, m.Robot().Yaw, 1e-9, "braking, it does not turn")
	}
	for range 800 {
		m.Step()
	}
	q := m.Robot().Pos
	require.InDelta(t, 0, q.Sub(end).Norm(), 0.05, "then it follows the new plan to its end: at %v", q)
}
