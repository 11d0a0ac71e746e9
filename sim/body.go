package sim

import (
	"math"

	"github.com/golang/geo/r3"
)

// Body is the robot's shape for collisions: a sphere of Radius about the
// robot's position (aerial robots), or an upright cylinder of Radius and
// Height standing on it, the position being the centre of its base
// (ground robots). Touching counts: a body at exactly Radius from an
// obstacle collides.
type Body struct {
	Cylinder bool
	Radius   float64 // metres
	Height   float64 // cylinder only, metres
}

// reach returns how far the body extends from its position along each
// axis, below (lo) and above (hi).
func (b Body) reach() (lo, hi r3.Vector) {
	r := r3.Vector{X: b.Radius, Y: b.Radius, Z: b.Radius}
	if b.Cylinder {
		return r3.Vector{X: b.Radius, Y: b.Radius}, r3.Vector{X: b.Radius, Y: b.Radius, Z: b.Height}
	}
	return r, r
}

// bounds returns the body's bounding box at pos.
func (b Body) bounds(pos r3.Vector) Bounds {
	lo, hi := b.reach()
	return Bounds{Min: pos.Sub(lo), Max: pos.Add(hi)}
}

// touchesBox reports whether the body at pos touches the axis-aligned box
// [lo, hi]. Both solids may be turned together about z first (boxes with
// a yaw), since the body is symmetric about its vertical axis.
func (b Body) touchesBox(pos, lo, hi r3.Vector) bool {
	if !b.Cylinder {
		return boxDistance(pos, lo, hi) <= b.Radius
	}
	if pos.Z > hi.Z || pos.Z+b.Height < lo.Z {
		return false
	}
	dx := max(lo.X-pos.X, 0, pos.X-hi.X)
	dy := max(lo.Y-pos.Y, 0, pos.Y-hi.Y)
	return dx*dx+dy*dy <= b.Radius*b.Radius
}

// touches reports whether the body at pos touches solid s.
func (b Body) touches(pos r3.Vector, s *solid) bool {
	if !b.bounds(pos).overlaps(s.box) {
		return false
	}
	switch s.Kind {
	case KindBox:
		return b.touchesBox(s.local(pos), s.half.Mul(-1), s.half)
	case KindCylinder:
		if !b.Cylinder {
			return s.distance(pos) <= b.Radius
		}
		bottom, top := s.Center.Z-s.Height/2, s.Center.Z+s.Height/2
		return pos.Z <= top && pos.Z+b.Height >= bottom &&
			math.Hypot(pos.X-s.Center.X, pos.Y-s.Center.Y) <= b.Radius+s.Radius
	default:
		if !b.Cylinder {
			return pos.Sub(s.Center).Norm() <= b.Radius+s.Radius
		}
		dxy := max(0, math.Hypot(pos.X-s.Center.X, pos.Y-s.Center.Y)-b.Radius)
		dz := max(0, pos.Z-s.Center.Z, s.Center.Z-pos.Z-b.Height)
		return math.Hypot(dxy, dz) <= s.Radius
	}
}

// overlaps reports whether two boxes share a point.
func (b Bounds) overlaps(o Bounds) bool {
	return b.Min.X <= o.Max.X && o.Min.X <= b.Max.X && b.Min.Y <= o.Max.Y && o.Min.Y <= b.Max.Y &&
		b.Min.Z <= o.Max.Z && o.Min.Z <= b.Max.Z
}
