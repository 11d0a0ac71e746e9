package sim

import (
	"math"

	"github.com/golang/geo/r3"
)

// Robot types.
const (
	Aerial = "aerial" // holonomic in 3D: a velocity command, limited in speed and acceleration
	Ground = "ground" // differential drive: forward speed and yaw rate
)

// RobotSpec is the simulated robot.
type RobotSpec struct {
	Type       string    // Aerial or Ground
	Radius     float64   // body radius (a sphere, or a ground robot's cylinder), metres
	Height     float64   // ground robots: the cylinder's height, metres
	MaxSpeed   float64   // m/s
	MaxAccel   float64   // m/s², linear
	MaxYawRate float64   // rad/s
	Start      r3.Vector // aerial: the centre; ground: the base's centre, metres
	Yaw        float64   // at the start, radians
}

// Body returns the robot's shape for collisions.
func (s *RobotSpec) Body() Body {
	return Body{Cylinder: s.Type == Ground, Radius: s.Radius, Height: s.Height}
}

// State is where a robot is and how it moves, in the map frame.
type State struct {
	Pos     r3.Vector // metres
	Vel     r3.Vector // m/s, map frame
	Yaw     float64   // radians, in (-π, π]
	YawRate float64   // rad/s
	Speed   float64   // ground robots: signed forward speed, m/s
}

// Command is what a controller asks of a robot: aerial robots take Vel,
// ground robots Speed and YawRate.
type Command struct {
	Vel     r3.Vector // aerial: velocity in the map frame, m/s
	Speed   float64   // ground: forward speed, m/s
	YawRate float64   // ground: rad/s
}

// Robot integrates a robot's motion under its limits.
type Robot struct {
	Spec  RobotSpec
	State State
}

// NewRobot returns a robot at rest at its start.
func NewRobot(s RobotSpec) *Robot {
	return &Robot{Spec: s, State: State{Pos: s.Start, Yaw: wrapAngle(s.Yaw)}}
}

// Step advances the robot by dt seconds under cmd. Aerial robots change
// velocity toward cmd.Vel (capped at MaxSpeed) by at most MaxAccel·dt and
// turn to face their horizontal motion at up to MaxYawRate. Ground robots
// change speed toward cmd.Speed by at most MaxAccel·dt and turn at
// cmd.YawRate, both capped; they stay at their start's height. Non-finite
// commands stop the robot.
func (r *Robot) Step(cmd Command, dt float64) {
	s, st := &r.Spec, &r.State
	if s.Type == Ground {
		v, w := cmd.Speed, cmd.YawRate
		if !finite(v) || !finite(w) {
			v, w = 0, 0
		}
		v = clamp(v, -s.MaxSpeed, s.MaxSpeed)
		st.Speed += clamp(v-st.Speed, -s.MaxAccel*dt, s.MaxAccel*dt)
		st.YawRate = clamp(w, -s.MaxYawRate, s.MaxYawRate)
		mid := st.Yaw + st.YawRate*dt/2
		st.Pos = st.Pos.Add(r3.Vector{X: math.Cos(mid), Y: math.Sin(mid)}.Mul(st.Speed * dt))
		st.Yaw = wrapAngle(st.Yaw + st.YawRate*dt)
		st.Vel = r3.Vector{X: math.Cos(st.Yaw), Y: math.Sin(st.Yaw)}.Mul(st.Speed)
		return
	}
	v := cmd.Vel
	if !finiteVec(v) {
		v = r3.Vector{}
	}
	if n := v.Norm(); n > s.MaxSpeed {
		v = v.Mul(s.MaxSpeed / n)
	}
	dv := v.Sub(st.Vel)
	if n, lim := dv.Norm(), s.MaxAccel*dt; n > lim {
		dv = dv.Mul(lim / n)
	}
	st.Vel = st.Vel.Add(dv)
	st.Pos = st.Pos.Add(st.Vel.Mul(dt))
	st.Speed = st.Vel.Norm()
	st.YawRate = 0
	if h := math.Hypot(st.Vel.X, st.Vel.Y); h > 0.05 {
		turn := clamp(wrapAngle(math.Atan2(st.Vel.Y, st.Vel.X)-st.Yaw), -s.MaxYawRate*dt, s.MaxYawRate*dt)
		st.Yaw = wrapAngle(st.Yaw + turn)
		st.YawRate = turn / dt
	}
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }

// wrapAngle returns a in (-π, π].
func wrapAngle(a float64) float64 {
	if !finite(a) {
		return 0
	}
	a = math.Mod(a, 2*math.Pi)
	switch {
	case a > math.Pi:
		a -= 2 * math.Pi
	case a <= -math.Pi:
		a += 2 * math.Pi
	}
	return a
}
