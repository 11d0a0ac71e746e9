package voxel

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"
)

// Quat is a rotation as a unit quaternion (geometry_msgs/Quaternion's
// layout). The zero value is not a rotation; use Identity.
type Quat struct{ X, Y, Z, W float64 }

// Identity is no rotation.
var Identity = Quat{W: 1}

// YawQuat returns a rotation of yaw radians about z.
func YawQuat(yaw float64) Quat {
	s, c := math.Sincos(yaw / 2)
	return Quat{Z: s, W: c}
}

// normalized returns q with unit norm, or an error for a quaternion that
// is not finite or is (nearly) zero.
func (q Quat) normalized() (Quat, error) {
	n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
	if !(n > 1e-9) || math.IsInf(n, 0) {
		return Quat{}, fmt.Errorf("%w: rotation %+v is not a quaternion", ErrInput, q)
	}
	return Quat{q.X / n, q.Y / n, q.Z / n, q.W / n}, nil
}

// matrix returns the rotation matrix of a unit quaternion, rows first.
func (q Quat) matrix() [3][3]float64 {
	x, y, z, w := q.X, q.Y, q.Z, q.W
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
}

func mul(m [3][3]float64, v r3.Vector) r3.Vector {
	return r3.Vector{
		X: m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		Y: m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		Z: m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// Pose places a sensor or shape in the map frame.
type Pose struct {
	Position    r3.Vector // metres
	Orientation Quat
}
