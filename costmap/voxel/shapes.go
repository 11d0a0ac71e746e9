package voxel

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"
)

// Shapes are obstacles given by geometry (visualization_msgs/Marker boxes,
// spheres and cylinders, for instance), each under an id. A shape makes
// every voxel it touches occupied, conservatively: a voxel whose interior
// shares any volume with the shape. Voxels count how many shapes cover
// them, so deleting a shape restores exactly what the other layers hold.

// ShapeID names a shape, e.g. a marker's "namespace/id".
type ShapeID string

// Solid is a shape: *BoxShape, *SphereShape or *CylinderShape.
type Solid interface {
	// prepare validates the solid and returns it ready to test voxels, in
	// voxel units of frame f.
	prepare(f Frame) (tester, error)
}

// BoxShape is an oriented box.
type BoxShape struct {
	Pose Pose      // centre and orientation
	Size r3.Vector // full edge lengths along the box's own axes, metres
}

// SphereShape is a ball.
type SphereShape struct {
	Center r3.Vector
	Radius float64 // metres
}

// CylinderShape is an oriented cylinder; its axis is the pose's z axis.
type CylinderShape struct {
	Pose   Pose    // centre and orientation
	Radius float64 // metres
	Height float64 // along the axis, metres
}

// PutShape adds shape ID, or replaces it if it exists.
type PutShape struct {
	ID    ShapeID
	Solid Solid
}

// DeleteShape removes shape ID.
type DeleteShape struct{ ID ShapeID }

// ClearShapes removes every shape.
type ClearShapes struct{}

// maxShapeVoxels bounds the voxels one shape may cover (its box of voxels).
const maxShapeVoxels = 1 << 24

// maxShapes bounds the shapes a map holds, so that a flood of new ids
// cannot grow it without bound (a record is a few dozen bytes).
const maxShapes = 1 << 15 // below 2^16: a voxel counts its shapes in a uint16

// shapeRecord is a shape the map holds: its prepared solid and the box of
// voxels it may touch. The voxels it covers are worked out again when it
// goes, so a record takes no memory per voxel; a shape is held only when
// all of its voxels were covered (see PutShape.apply).
type shapeRecord struct {
	t   tester
	box Box
}

// HasShape reports whether the map holds shape id.
func (m *Map) HasShape(id ShapeID) bool { return m.shapes[id] != nil }

// apply covers the shape's voxels, replacing the shape of the same id.
// When the memory limit refuses any of them, the shape is taken off the
// ones it covered and not held (ErrMemory): a replaced shape is then gone
// too.
func (u PutShape) apply(m *Map) error {
	if u.Solid == nil {
		return fmt.Errorf("%w: shape %q has no solid", ErrInput, u.ID)
	}
	t, err := u.Solid.prepare(m.frame)
	if err != nil {
		return fmt.Errorf("shape %q: %w", u.ID, err)
	}
	box := t.bounds()
	if box.Volume() > maxShapeVoxels || !box.Min.valid() || !box.Max.valid() {
		return fmt.Errorf("%w: shape %q spans %d voxels (limit %d)", ErrInput, u.ID, box.Volume(), maxShapeVoxels)
	}
	old := m.shapes[u.ID]
	if old == nil && len(m.shapes) >= maxShapes {
		return fmt.Errorf("%w: %d shapes held, adding %q", ErrMemory, len(m.shapes), u.ID)
	}
	if old != nil {
		m.uncover(old)
		delete(m.shapes, u.ID)
	}
	rec := &shapeRecord{t: t, box: box}
	if !m.cover(rec) {
		m.uncover(rec)
		return nil // m.memFull: Apply reports ErrMemory
	}
	m.shapes[u.ID] = rec
	return nil
}

// cover adds one shape to its voxels and reports whether every one of
// them had room.
func (m *Map) cover(rec *shapeRecord) bool {
	all := true
	rec.each(func(k Key) {
		b := m.get(k)
		if b == nil {
			m.cs.Input.Refused++
			all = false
			return
		}
		if b.shapes == nil {
			b.shapes = new([brickVoxels]uint16)
		}
		i := index(k)
		if b.shapes[i] == 0 {
			b.shaped++
		}
		b.shapes[i]++
		m.recombine(b, i)
	})
	return all
}

// each calls f for every voxel the shape touches.
func (rec *shapeRecord) each(f func(Key)) {
	box := rec.box
	for z := box.Min.Z; z <= box.Max.Z; z++ {
		for y := box.Min.Y; y <= box.Max.Y; y++ {
			for x := box.Min.X; x <= box.Max.X; x++ {
				if k := (Key{x, y, z}); rec.t.touches(k) {
					f(k)
				}
			}
		}
	}
}

func (u DeleteShape) apply(m *Map) error {
	rec := m.shapes[u.ID]
	if rec == nil {
		return fmt.Errorf("%w: %q", ErrUnknownShape, u.ID)
	}
	m.uncover(rec)
	delete(m.shapes, u.ID)
	return nil
}

func (ClearShapes) apply(m *Map) error {
	for id, rec := range m.shapes {
		m.uncover(rec)
		delete(m.shapes, id)
	}
	return nil
}

// uncover takes one shape off its voxels. A voxel with no brick was never
// covered: cover refused it, and the shape was uncovered at once.
func (m *Map) uncover(rec *shapeRecord) {
	rec.each(func(k Key) {
		b := m.lookup(k)
		if b == nil || b.shapes == nil {
			return
		}
		i := index(k)
		if b.shapes[i] == 0 {
			return
		}
		if b.shapes[i]--; b.shapes[i] == 0 {
			if b.shaped--; b.shaped == 0 {
				b.shapes = nil
			}
		}
		m.recombine(b, i)
	})
}

// Shapes returns the number of shapes held.
func (m *Map) Shapes() int { return len(m.shapes) }

// tester decides which voxels a prepared solid touches.
type tester interface {
	bounds() Box
	touches(k Key) bool
}

// All geometry below is in voxel units: voxel k is the cube [k, k+1).

type sphereTester struct {
	c r3.Vector
	r float64
}

func (s *SphereShape) prepare(f Frame) (tester, error) {
	if !finite(s.Center) || !(s.Radius > 0) || math.IsInf(s.Radius, 0) {
		return nil, fmt.Errorf("%w: sphere at %v radius %v", ErrInput, s.Center, s.Radius)
	}
	return &sphereTester{c: f.local(s.Center), r: s.Radius / f.Resolution}, nil
}

func (s *sphereTester) bounds() Box {
	return spanBox(s.c.Sub(r3.Vector{X: s.r, Y: s.r, Z: s.r}), s.c.Add(r3.Vector{X: s.r, Y: s.r, Z: s.r}))
}

// touches: the closest point of the cube is strictly inside the ball.
func (s *sphereTester) touches(k Key) bool {
	d2 := 0.0
	for a, c := range [3]float64{s.c.X, s.c.Y, s.c.Z} {
		lo := float64([3]int32{k.X, k.Y, k.Z}[a])
		if c < lo {
			d2 += (lo - c) * (lo - c)
		} else if c > lo+1 {
			d2 += (c - lo - 1) * (c - lo - 1)
		}
	}
	return d2 < s.r*s.r
}

// convexTester is a convex solid described by its support along axes:
// the separating axis test over the axes it lists. For boxes the test is
// exact; for cylinders it is conservative (it may count a voxel that only
// comes close).
type convexTester struct {
	c      r3.Vector    // centre
	axes   [3]r3.Vector // the solid's own axes (unit)
	half   r3.Vector    // box: half extents along axes
	cyl    bool         // a cylinder along axes[2]: radius half.X, half height half.Z
	upward bool         // cylinder axis is the map's z: exact test
	box    Box
}

func (s *BoxShape) prepare(f Frame) (tester, error) {
	rot, err := poseRotation(s.Pose)
	if err != nil {
		return nil, err
	}
	if !finite(s.Size) || !(s.Size.X > 0 && s.Size.Y > 0 && s.Size.Z > 0) {
		return nil, fmt.Errorf("%w: box size %v", ErrInput, s.Size)
	}
	t := &convexTester{c: f.local(s.Pose.Position), half: s.Size.Mul(0.5 / f.Resolution)}
	t.axes = [3]r3.Vector{{X: rot[0][0], Y: rot[1][0], Z: rot[2][0]}, {X: rot[0][1], Y: rot[1][1], Z: rot[2][1]},
		{X: rot[0][2], Y: rot[1][2], Z: rot[2][2]}}
	t.box = spanBox(t.c.Sub(t.extent()), t.c.Add(t.extent()))
	return t, nil
}

func (s *CylinderShape) prepare(f Frame) (tester, error) {
	rot, err := poseRotation(s.Pose)
	if err != nil {
		return nil, err
	}
	if !(s.Radius > 0 && s.Height > 0) || math.IsInf(s.Radius+s.Height, 0) {
		return nil, fmt.Errorf("%w: cylinder radius %v height %v", ErrInput, s.Radius, s.Height)
	}
	t := &convexTester{c: f.local(s.Pose.Position), cyl: true,
		half: r3.Vector{X: s.Radius / f.Resolution, Y: s.Radius / f.Resolution, Z: s.Height / 2 / f.Resolution}}
	t.axes = [3]r3.Vector{{X: rot[0][0], Y: rot[1][0], Z: rot[2][0]}, {X: rot[0][1], Y: rot[1][1], Z: rot[2][1]},
		{X: rot[0][2], Y: rot[1][2], Z: rot[2][2]}}
	t.upward = math.Abs(t.axes[2].Z) == 1
	t.box = spanBox(t.c.Sub(t.extent()), t.c.Add(t.extent()))
	return t, nil
}

func poseRotation(p Pose) ([3][3]float64, error) {
	if !finite(p.Position) {
		return [3][3]float64{}, fmt.Errorf("%w: position %v", ErrInput, p.Position)
	}
	q, err := p.Orientation.normalized()
	if err != nil {
		return [3][3]float64{}, err
	}
	return q.matrix(), nil
}

// radius returns the solid's half width along unit direction n.
func (t *convexTester) radius(n r3.Vector) float64 {
	if t.cyl {
		a := math.Abs(n.Dot(t.axes[2]))
		return t.half.Z*a + t.half.X*math.Sqrt(max(0, 1-a*a))
	}
	return t.half.X*math.Abs(n.Dot(t.axes[0])) + t.half.Y*math.Abs(n.Dot(t.axes[1])) + t.half.Z*math.Abs(n.Dot(t.axes[2]))
}

// extent is the half size of the solid's axis-aligned bounding box.
func (t *convexTester) extent() r3.Vector {
	return r3.Vector{X: t.radius(r3.Vector{X: 1}), Y: t.radius(r3.Vector{Y: 1}), Z: t.radius(r3.Vector{Z: 1})}
}

func (t *convexTester) bounds() Box { return t.box }

// touches is the separating axis test between the solid and the voxel's
// open cube: they overlap unless some axis separates their projections
// (touching faces do not overlap).
func (t *convexTester) touches(k Key) bool {
	center := r3.Vector{X: float64(k.X) + 0.5, Y: float64(k.Y) + 0.5, Z: float64(k.Z) + 0.5}
	d := center.Sub(t.c)
	if t.cyl && t.upward {
		return t.touchesUpright(k, d)
	}
	cube := [3]r3.Vector{{X: 1}, {Y: 1}, {Z: 1}}
	separated := func(n r3.Vector) bool {
		l := n.Norm()
		if l < 1e-12 {
			return false
		}
		n = n.Mul(1 / l)
		cubeR := 0.5 * (math.Abs(n.X) + math.Abs(n.Y) + math.Abs(n.Z))
		return math.Abs(d.Dot(n)) >= cubeR+t.radius(n)
	}
	for _, n := range cube {
		if separated(n) {
			return false
		}
	}
	own := 3
	if t.cyl {
		own = 1 // a cylinder's only face normal is its axis
		if separated(t.axes[2]) {
			return false
		}
	} else {
		for _, n := range t.axes {
			if separated(n) {
				return false
			}
		}
	}
	for _, a := range t.axes[3-own:] {
		for _, c := range cube {
			if separated(a.Cross(c)) {
				return false
			}
		}
	}
	return true
}

// touchesUpright is exact for a cylinder standing along z: the z spans
// overlap and the disc reaches into the cube's square.
func (t *convexTester) touchesUpright(k Key, d r3.Vector) bool {
	if math.Abs(d.Z) >= 0.5+t.half.Z {
		return false
	}
	dx := max(float64(k.X)-t.c.X, 0, t.c.X-float64(k.X)-1)
	dy := max(float64(k.Y)-t.c.Y, 0, t.c.Y-float64(k.Y)-1)
	return dx*dx+dy*dy < t.half.X*t.half.X
}

// spanBox returns the voxels whose cubes can overlap [lo, hi] (voxel units).
func spanBox(lo, hi r3.Vector) Box {
	clamp := func(v float64) int32 { return int32(max(min(v, MaxCoord+1), -MaxCoord-1)) }
	return Box{
		Min: Key{clamp(math.Floor(lo.X)), clamp(math.Floor(lo.Y)), clamp(math.Floor(lo.Z))},
		Max: Key{clamp(math.Ceil(hi.X) - 1), clamp(math.Ceil(hi.Y) - 1), clamp(math.Ceil(hi.Z) - 1)},
	}
}
