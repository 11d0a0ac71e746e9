package tf

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/msgs/geometry_msgs"
)

// Transform is a rigid motion: Apply(p) = Rotation.Rotate(p) + Translation.
// Stored for a child frame C under parent P, it takes points in C to P,
// and equals the pose of C in P. The zero value is not a transform; use
// Identity.
type Transform struct {
	Translation r3.Vector // metres
	Rotation    Quat      // unit quaternion
}

// Identity is the transform that moves nothing.
var Identity = Transform{Rotation: NoRotation}

// MaxTranslation is the longest translation a transform may have, in
// metres: far beyond any robot's world, and short enough that MaxDepth
// links composed, or two interpolated, stay finite.
const MaxTranslation = 1e12

// FromMsg converts a geometry_msgs/Transform, normalising its rotation.
// It refuses, with ErrInvalid, a translation that is not finite or is
// longer than MaxTranslation, or a rotation NewQuat refuses.
func FromMsg(m *geometry_msgs.Transform) (Transform, error) {
	v := r3.Vector{X: m.Translation.X, Y: m.Translation.Y, Z: m.Translation.Z}
	if !Finite(v) || v.Norm() > MaxTranslation {
		return Transform{}, fmt.Errorf("%w: translation (%g, %g, %g) is not finite or longer than %g m", ErrInvalid, v.X, v.Y, v.Z, float64(MaxTranslation))
	}
	q, err := QuatFromMsg(m.Rotation)
	if err != nil {
		return Transform{}, err
	}
	return Transform{Translation: v, Rotation: q}, nil
}

// Msg returns t as a geometry_msgs/Transform.
func (t Transform) Msg() geometry_msgs.Transform {
	v := t.Translation
	return geometry_msgs.Transform{
		Translation: geometry_msgs.Vector3{X: v.X, Y: v.Y, Z: v.Z},
		Rotation:    t.Rotation.Msg(),
	}
}

// Pose returns t as a costmap pose: a frame placed by t in t's target
// frame has position Translation and orientation Rotation.
func (t Transform) Pose() voxel.Pose {
	return voxel.Pose{Position: t.Translation, Orientation: t.Rotation.Voxel()}
}

// Apply returns point p moved by t.
func (t Transform) Apply(p r3.Vector) r3.Vector {
	return t.Rotation.Rotate(p).Add(t.Translation)
}

// Rotate returns direction v rotated by t, without the translation (for
// vectors such as velocities and normals).
func (t Transform) Rotate(v r3.Vector) r3.Vector { return t.Rotation.Rotate(v) }

// Compose returns t∘u, the transform applying u first and then t: if u
// takes points in A to B and t takes points in B to C, t.Compose(u) takes
// points in A to C.
func (t Transform) Compose(u Transform) Transform {
	return Transform{
		Translation: t.Rotation.Rotate(u.Translation).Add(t.Translation),
		Rotation:    t.Rotation.Mul(u.Rotation),
	}
}

// Inverse returns the transform undoing t: t.Inverse().Apply(t.Apply(p)) = p.
func (t Transform) Inverse() Transform {
	inv := t.Rotation.Inverse()
	return Transform{Translation: inv.Rotate(t.Translation).Mul(-1), Rotation: inv}
}

// Interpolate returns the transform a fraction r of the way from a
// (r = 0) to b (r = 1): linear in translation, slerp in rotation.
func Interpolate(a, b Transform, r float64) Transform {
	return Transform{
		Translation: a.Translation.Add(b.Translation.Sub(a.Translation).Mul(r)),
		Rotation:    Slerp(a.Rotation, b.Rotation, r),
	}
}

// Finite reports whether every coordinate of v is finite.
func Finite(v r3.Vector) bool {
	return !math.IsNaN(v.X) && !math.IsNaN(v.Y) && !math.IsNaN(v.Z) &&
		!math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0) && !math.IsInf(v.Z, 0)
}
