package sim

import (
	"math"
	"slices"

	"github.com/golang/geo/r3"
)

// apply makes a scripted obstacle event happen.
func (m *Mission) apply(e ObstacleEvent) (ObstacleChange, bool) {
	switch e.Action {
	case Delete:
		m.stopMotion(e.ID)
		return ObstacleChange{ID: e.ID, Action: Delete}, m.World.Delete(e.ID)
	case Add: // replaces the obstacle, and ends its motion
		m.stopMotion(e.ID)
		s := e.Shape
		if e.Ahead > 0 {
			s.Center = m.ahead(e.Ahead, s)
		}
		return ObstacleChange{ID: e.ID, Action: Add, Shape: s}, m.World.Put(e.ID, s) == nil
	}
	s, ok := m.World.Obstacle(e.ID)
	if !ok {
		return ObstacleChange{}, false
	}
	to := e.To
	if e.Ahead > 0 {
		to = m.ahead(e.Ahead, s)
	}
	m.stopMotion(e.ID)
	if e.Over > 0 {
		m.moves = append(m.moves, motion{id: e.ID, from: s.Center, to: to, t0: m.t, t1: m.t + e.Over, nextPub: m.t})
		return ObstacleChange{}, false
	}
	s.Center = to
	return ObstacleChange{ID: e.ID, Action: Move, Shape: s}, m.World.Put(e.ID, s) == nil
}

// stopMotion ends obstacle id's motion, if it has one.
func (m *Mission) stopMotion(id string) {
	m.moves = slices.DeleteFunc(m.moves, func(mv motion) bool { return mv.id == id })
}

// animate moves the obstacles in motion, reporting each at 5 Hz and at
// the end of its motion, and notes where each was before (m.swept).
func (m *Mission) animate(out []ObstacleChange) []ObstacleChange {
	m.swept = m.swept[:0]
	kept := m.moves[:0]
	for _, mv := range m.moves {
		s, ok := m.World.Obstacle(mv.id)
		if !ok {
			continue
		}
		f := clamp((m.t-mv.t0)/(mv.t1-mv.t0), 0, 1)
		m.swept = append(m.swept, sweptObstacle{id: mv.id, from: s.Center})
		s.Center = mv.from.Add(mv.to.Sub(mv.from).Mul(f))
		_ = m.World.Put(mv.id, s)
		if m.t >= mv.nextPub-timeSlack || f == 1 {
			out = append(out, ObstacleChange{ID: mv.id, Action: Move, Shape: s})
			mv.nextPub = m.t + 0.2
		}
		if f < 1 {
			kept = append(kept, mv)
		}
	}
	m.moves = kept
	return out
}

// ahead returns where an obstacle placed d metres ahead of the robot goes
// (see ObstacleEvent.Ahead).
func (m *Mission) ahead(d float64, s Shape) r3.Vector {
	pos := m.robot.State.Pos
	var p r3.Vector
	switch {
	case m.ctrl.HasPlan():
		p = m.ctrl.pointAt(m.ctrl.s + d)
	case m.goal != nil && m.goal.Sub(pos).Norm() > 1e-6:
		p = pos.Add(m.goal.Sub(pos).Mul(d / m.goal.Sub(pos).Norm()))
	default:
		p = pos.Add(r3.Vector{X: math.Cos(m.robot.State.Yaw), Y: math.Sin(m.robot.State.Yaw)}.Mul(d))
	}
	if m.Scenario.Robot.Type == Aerial && !m.ctrl.HasPlan() {
		p.Z = pos.Z
	}
	return m.place(p, s)
}

// place sets the height of an obstacle put at p: ground robots' obstacles
// stand on the floor (the world's lowest height).
func (m *Mission) place(p r3.Vector, s Shape) r3.Vector {
	if m.Scenario.Robot.Type == Ground {
		p.Z = m.World.Bounds.Min.Z + (s.Bounds().Max.Z-s.Bounds().Min.Z)/2
	}
	return p
}

// tooNear reports whether obstacle id comes within clearance of the robot
// or of a goal: the current one or one still to be sent.
func (m *Mission) tooNear(id string, clearance float64) bool {
	i, ok := m.World.find(id)
	if !ok {
		return false
	}
	b := m.body
	b.Radius += clearance
	if b.touches(m.robot.State.Pos, &m.World.dyn[i]) || (m.goal != nil && b.touches(*m.goal, &m.World.dyn[i])) {
		return true
	}
	for _, g := range m.Scenario.Goals[m.nextGoal:] {
		if b.touches(g.Pose, &m.World.dyn[i]) {
			return true
		}
	}
	return false
}

// target is the goal the robot heads for, or the next one to be sent
// when it has none yet; ok is false when there is neither.
func (m *Mission) target() (g r3.Vector, ok bool) {
	switch {
	case m.goal != nil:
		return *m.goal, true
	case m.nextGoal < len(m.Scenario.Goals):
		return m.Scenario.Goals[m.nextGoal].Pose, true
	}
	return g, false
}

// clash reports whether the robot's body grown by grow touches anything
// at p.
func (m *Mission) clash(p r3.Vector, grow float64) bool {
	b := m.body
	b.Radius += grow
	_, hit := m.World.Collides(b, p)
	return hit
}

// band returns the heights the robot plans between.
func (m *Mission) band() (float64, float64) { return m.zlo, m.zhi }

// path is Space.Path in the robot's configuration space, built once.
func (m *Mission) path(a, b r3.Vector, anyAngle bool) (float64, []r3.Vector, error) {
	return m.sp.path(m, a, b, anyAngle)
}

// reachable reports whether navnode can find a path from a to b: in the
// configuration space of the robot grown to navnode's robot_radius
// (navnodeBody), which the exact body's is wider than.
func (m *Mission) reachable(a, b r3.Vector) bool {
	_, _, err := m.navSp.path(m, a, b, false)
	return err == nil
}

// navnodeBody returns the robot's body as navnode plans for it: its
// radius grown to robot_radius (NavnodeParams).
func navnodeBody(sc *Scenario, w *World) Body {
	body := sc.Robot.Body()
	if r, ok := NavnodeParams(sc, w).Get("robot_radius").(float64); ok && r > body.Radius {
		body.Radius = r
	}
	return body
}

// lazySpace is the configuration space of body, built when first used.
type lazySpace struct {
	body Body
	sp   *Space
	err  error
}

// path is Space.Path in the space, built in m's world on the first call.
func (l *lazySpace) path(m *Mission, a, b r3.Vector, anyAngle bool) (float64, []r3.Vector, error) {
	if l.sp == nil && l.err == nil {
		l.sp, l.err = NewSpace(m.World, l.body, m.Scenario.Resolution(), m.zlo, m.zhi)
	}
	if l.err != nil {
		return 0, nil, l.err
	}
	return l.sp.Path(a, b, anyAngle)
}
