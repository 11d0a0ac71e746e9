package sim

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"
)

// Kind names a shape's geometry.
type Kind string

// The shapes worlds and scenarios are made of.
const (
	KindBox      Kind = "box"      // an upright box turned by Yaw about its vertical axis
	KindCylinder Kind = "cylinder" // an upright cylinder
	KindSphere   Kind = "sphere"
)

// maxExtent bounds every coordinate and size a world or scenario may
// give, metres: far beyond any simulated world, small enough that no
// product of two of them overflows.
const maxExtent = 1e5

// Shape is a solid obstacle in the map frame. Boxes and cylinders stand
// upright (their axis is z); only boxes turn, about z.
type Shape struct {
	Kind   Kind
	Center r3.Vector // centre of the solid (a box's or cylinder's mid-height), metres
	Size   r3.Vector // box: full edge lengths along its own x, y, z, metres
	Yaw    float64   // box: rotation about z, radians
	Radius float64   // cylinder, sphere: metres
	Height float64   // cylinder: metres
}

// Check reports a shape that cannot be simulated: an unknown kind, a
// non-finite centre or yaw, a size that is not in (0, 1e5] metres.
func (s Shape) Check() error {
	pos := func(v float64) bool { return v > 0 && v <= maxExtent }
	ok := finiteVec(s.Center) && math.Abs(s.Center.X)+math.Abs(s.Center.Y)+math.Abs(s.Center.Z) <= 3*maxExtent
	switch s.Kind {
	case KindBox:
		ok = ok && pos(s.Size.X) && pos(s.Size.Y) && pos(s.Size.Z) && finite(s.Yaw)
	case KindCylinder:
		ok = ok && pos(s.Radius) && pos(s.Height)
	case KindSphere:
		ok = ok && pos(s.Radius)
	default:
		return fmt.Errorf("shape kind %q: want box, cylinder or sphere", s.Kind)
	}
	if !ok {
		return fmt.Errorf("%s at %v: sizes must be in (0, %g] m and the centre and yaw finite", s.Kind, fmtVec(s.Center), float64(maxExtent))
	}
	return nil
}

// Bounds returns the shape's axis-aligned bounding box.
func (s Shape) Bounds() Bounds {
	var h r3.Vector
	switch s.Kind {
	case KindBox:
		c, sn := math.Abs(math.Cos(s.Yaw)), math.Abs(math.Sin(s.Yaw))
		h = r3.Vector{X: (c*s.Size.X + sn*s.Size.Y) / 2, Y: (sn*s.Size.X + c*s.Size.Y) / 2, Z: s.Size.Z / 2}
	case KindCylinder:
		h = r3.Vector{X: s.Radius, Y: s.Radius, Z: s.Height / 2}
	default:
		h = r3.Vector{X: s.Radius, Y: s.Radius, Z: s.Radius}
	}
	return Bounds{Min: s.Center.Sub(h), Max: s.Center.Add(h)}
}

// Bounds is an axis-aligned box in the map frame, metres.
type Bounds struct{ Min, Max r3.Vector }

// Contains reports whether p lies in b, faces included.
func (b Bounds) Contains(p r3.Vector) bool {
	return p.X >= b.Min.X && p.Y >= b.Min.Y && p.Z >= b.Min.Z && p.X <= b.Max.X && p.Y <= b.Max.Y && p.Z <= b.Max.Z
}

// Size returns the box's edge lengths.
func (b Bounds) Size() r3.Vector { return b.Max.Sub(b.Min) }

// solid is a Shape prepared for many queries: its rotation and bounds
// computed once.
type solid struct {
	Shape
	id       string  // dynamic obstacle id; "" for static geometry
	cos, sin float64 // of Yaw
	half     r3.Vector
	box      Bounds
}

func prepare(s Shape, id string) solid {
	p := solid{Shape: s, id: id, cos: 1, box: s.Bounds()}
	if s.Kind == KindBox {
		p.cos, p.sin = math.Cos(s.Yaw), math.Sin(s.Yaw)
		p.half = s.Size.Mul(0.5)
	}
	return p
}

// local returns p relative to a box's centre, in the box's own axes.
func (s *solid) local(p r3.Vector) r3.Vector {
	d := p.Sub(s.Center)
	return r3.Vector{X: s.cos*d.X + s.sin*d.Y, Y: -s.sin*d.X + s.cos*d.Y, Z: d.Z}
}

// turn rotates direction d into a box's own axes.
func (s *solid) turn(d r3.Vector) r3.Vector {
	return r3.Vector{X: s.cos*d.X + s.sin*d.Y, Y: -s.sin*d.X + s.cos*d.Y, Z: d.Z}
}

// raycast returns the distance along the ray o + t·d (d a unit vector)
// at which it first meets the solid, for t in [0, tmax]; 0 when o is
// inside.
func (s *solid) raycast(o, d r3.Vector, tmax float64) (float64, bool) {
	if _, ok := slab(o, d, s.box.Min, s.box.Max, tmax); !ok {
		return 0, false
	}
	switch s.Kind {
	case KindBox:
		return slab(s.local(o), s.turn(d), s.half.Mul(-1), s.half, tmax)
	case KindCylinder:
		lo, hi := 0.0, tmax
		if !clipSlab(o.Z-s.Center.Z, d.Z, -s.Height/2, s.Height/2, &lo, &hi) {
			return 0, false
		}
		fx, fy := o.X-s.Center.X, o.Y-s.Center.Y
		a := d.X*d.X + d.Y*d.Y
		c := fx*fx + fy*fy - s.Radius*s.Radius
		if a < 1e-18 {
			if c > 0 {
				return 0, false
			}
		} else {
			b := fx*d.X + fy*d.Y
			disc := b*b - a*c
			if disc < 0 {
				return 0, false
			}
			r := math.Sqrt(disc)
			lo, hi = max(lo, (-b-r)/a), min(hi, (-b+r)/a)
		}
		return lo, lo <= hi
	default:
		f := o.Sub(s.Center)
		b := f.Dot(d)
		c := f.Dot(f) - s.Radius*s.Radius
		if c <= 0 {
			return 0, true
		}
		disc := b*b - c
		if b > 0 || disc < 0 {
			return 0, false
		}
		t := -b - math.Sqrt(disc)
		return t, t <= tmax
	}
}

// distance returns how far p is from the solid, 0 inside it.
func (s *solid) distance(p r3.Vector) float64 {
	switch s.Kind {
	case KindBox:
		return boxDistance(s.local(p), s.half.Mul(-1), s.half)
	case KindCylinder:
		dxy := max(0, math.Hypot(p.X-s.Center.X, p.Y-s.Center.Y)-s.Radius)
		dz := max(0, math.Abs(p.Z-s.Center.Z)-s.Height/2)
		return math.Hypot(dxy, dz)
	default:
		return max(0, p.Sub(s.Center).Norm()-s.Radius)
	}
}

// slab intersects the ray o + t·d, t in [0, tmax], with the box [lo, hi]
// (Kay and Kajiya's slab test) and returns where it enters (0 when o is
// inside).
func slab(o, d, lo, hi r3.Vector, tmax float64) (float64, bool) {
	t0, t1 := 0.0, tmax
	if !clipSlab(o.X, d.X, lo.X, hi.X, &t0, &t1) || !clipSlab(o.Y, d.Y, lo.Y, hi.Y, &t0, &t1) ||
		!clipSlab(o.Z, d.Z, lo.Z, hi.Z, &t0, &t1) {
		return 0, false
	}
	return t0, true
}

// clipSlab narrows [t0, t1] to where o + t·d lies in [lo, hi] on one axis
// and reports whether anything is left.
func clipSlab(o, d, lo, hi float64, t0, t1 *float64) bool {
	if math.Abs(d) < 1e-12 {
		return o >= lo && o <= hi
	}
	a, b := (lo-o)/d, (hi-o)/d
	if a > b {
		a, b = b, a
	}
	*t0, *t1 = max(*t0, a), min(*t1, b)
	return *t0 <= *t1
}

// boxDistance is the distance from p to the box [lo, hi], 0 inside.
func boxDistance(p, lo, hi r3.Vector) float64 {
	dx := max(lo.X-p.X, 0, p.X-hi.X)
	dy := max(lo.Y-p.Y, 0, p.Y-hi.Y)
	dz := max(lo.Z-p.Z, 0, p.Z-hi.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func finiteVec(v r3.Vector) bool { return finite(v.X) && finite(v.Y) && finite(v.Z) }

func fmtVec(v r3.Vector) string { return fmt.Sprintf("[%g, %g, %g]", v.X, v.Y, v.Z) }
