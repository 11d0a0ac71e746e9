package tf

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/msgs/geometry_msgs"
)

// Quat is a rotation as a unit quaternion, in ROS's x, y, z, w layout
// (geometry_msgs/Quaternion), Hamilton convention: q.Rotate(v) = q·v·q*.
// The zero value is not a rotation; use NoRotation.
type Quat struct{ X, Y, Z, W float64 }

// NoRotation is the identity rotation.
var NoRotation = Quat{W: 1}

// minQuatNorm is the smallest quaternion norm NewQuat normalises; below it
// the direction is noise.
const minQuatNorm = 1e-9

// NewQuat returns (x, y, z, w) normalised to unit length. It refuses, with
// ErrInvalid, a quaternion with a non-finite component or a norm below
// 1e-9 (or so large that it overflows).
func NewQuat(x, y, z, w float64) (Quat, error) {
	n := math.Sqrt(x*x + y*y + z*z + w*w)
	if !(n >= minQuatNorm) || math.IsInf(n, 0) {
		return Quat{}, fmt.Errorf("%w: quaternion (%v, %v, %v, %v) is not finite or has zero norm", ErrInvalid, x, y, z, w)
	}
	return Quat{x / n, y / n, z / n, w / n}, nil
}

// QuatFromMsg converts and normalises a geometry_msgs/Quaternion; see
// NewQuat for what it refuses.
func QuatFromMsg(m geometry_msgs.Quaternion) (Quat, error) { return NewQuat(m.X, m.Y, m.Z, m.W) }

// YawQuat returns the rotation of yaw radians about the z axis
// (counter-clockwise seen from above, REP 103).
func YawQuat(yaw float64) Quat {
	s, c := math.Sincos(yaw / 2)
	return Quat{Z: s, W: c}
}

// Msg returns q as a geometry_msgs/Quaternion.
func (q Quat) Msg() geometry_msgs.Quaternion {
	return geometry_msgs.Quaternion{X: q.X, Y: q.Y, Z: q.Z, W: q.W}
}

// Voxel returns q as the costmap's quaternion type.
func (q Quat) Voxel() voxel.Quat { return voxel.Quat{X: q.X, Y: q.Y, Z: q.Z, W: q.W} }

// Mul returns the rotation q·r: r first, then q.
func (q Quat) Mul(r Quat) Quat {
	return Quat{
		X: q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		Y: q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		Z: q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
		W: q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
	}
}

// Inverse returns the opposite rotation (the conjugate of a unit quaternion).
func (q Quat) Inverse() Quat { return Quat{-q.X, -q.Y, -q.Z, q.W} }

// Dot returns the 4D dot product of q and r: ±1 for the same rotation.
func (q Quat) Dot(r Quat) float64 { return q.X*r.X + q.Y*r.Y + q.Z*r.Z + q.W*r.W }

// Rotate returns v rotated by q (q·v·q*), for a unit q.
func (q Quat) Rotate(v r3.Vector) r3.Vector {
	u := r3.Vector{X: q.X, Y: q.Y, Z: q.Z}
	t := u.Cross(v).Mul(2)
	return v.Add(t.Mul(q.W)).Add(u.Cross(t))
}

// Yaw returns the rotation's heading about z, radians in (−π, π]: the
// angle of the rotated x axis projected on the x-y plane.
func (q Quat) Yaw() float64 {
	return math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
}

// Tilt returns the angle between the rotated z axis and the z axis,
// radians in [0, π]: 0 for a pure yaw.
func (q Quat) Tilt() float64 {
	c := 1 - 2*(q.X*q.X+q.Y*q.Y)
	return math.Acos(max(-1, min(1, c)))
}

// Slerp interpolates between rotations a (r = 0) and b (r = 1) at constant
// angular speed, along the shorter arc. Nearly equal rotations are
// interpolated linearly and normalised.
func Slerp(a, b Quat, r float64) Quat {
	d := a.Dot(b)
	if d < 0 { // b and −b are the same rotation: take the shorter arc
		b, d = Quat{-b.X, -b.Y, -b.Z, -b.W}, -d
	}
	var wa, wb float64
	if d > 0.9995 {
		wa, wb = 1-r, r
	} else {
		theta := math.Acos(d)
		s := math.Sin(theta)
		wa, wb = math.Sin((1-r)*theta)/s, math.Sin(r*theta)/s
	}
	q := Quat{wa*a.X + wb*b.X, wa*a.Y + wb*b.Y, wa*a.Z + wb*b.Z, wa*a.W + wb*b.W}
	n := math.Sqrt(q.Dot(q))
	return Quat{q.X / n, q.Y / n, q.Z / n, q.W / n}
}
