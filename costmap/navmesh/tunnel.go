package navmesh

import (
	"fmt"
	"math"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// RoutePolyline appends to dst[:0] a polyline, in cell coordinates, that
// follows a route of regions from start to goal: start, then for each
// consecutive pair of the route the point of their portal nearest the
// previous point, then goal. Each piece lies in one convex region of the
// route when start and goal lie in its first and last, so the polyline
// stays in free space; it is the centre line of a tunnel (Tunnel). A
// pair that is not a pair of live neighbours (a route gone stale by an
// Update) adds no point.
func (m *Mesh) RoutePolyline(start, goal [3]float64, route []planners.NodeID, dst [][3]float64) [][3]float64 {
	dst = append(dst[:0], start)
	prev := start
	for i := 1; i < len(route); i++ {
		lo, hi, ok := m.Portal(route[i-1], route[i])
		if !ok {
			continue
		}
		for k := range 3 {
			prev[k] = min(max(prev[k], lo[k]), hi[k])
		}
		dst = append(dst, prev)
	}
	return append(dst, goal)
}

// Tunnel calls fn for every cell of bounds whose centre lies within width
// (cells, ≥ 0) of the polyline route (cell coordinates: a cell's centre is
// at its integer key): the tunnel τ(Σ, Π, t_w) of Kapadia et al.,
// section 6.3, the states a fine search may visit around a coarse path
// Π. A single point is a sphere; no point, no cells. A cell near several
// segments is reported once per segment.
//
// Each segment costs O(rows of its bounding box grown by width + cells
// reported): on each row (y, z) the cells within width of a segment form
// one run (the set is a convex capsule), found by solving for the row's
// crossing with the capsule and confirmed cell by cell with the distance
// test. It panics on a width that is negative, NaN or infinite or a
// point that is not finite.
func Tunnel(route [][3]float64, width float64, bounds voxel.Box, fn func(voxel.Key)) {
	if !(width >= 0) || math.IsInf(width, 1) {
		panic(fmt.Sprintf("navmesh: Tunnel width %v: want finite and ≥ 0", width))
	}
	for _, p := range route {
		for _, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				panic(fmt.Sprintf("navmesh: Tunnel point %v: want finite coordinates", p))
			}
		}
	}
	if bounds.Empty() {
		return
	}
	if len(route) == 1 {
		capsule(route[0], route[0], width, bounds, fn)
	}
	for i := 1; i < len(route); i++ {
		capsule(route[i-1], route[i], width, bounds, fn)
	}
}

// capsule reports the cells of bounds within w of the segment a-b.
func capsule(a, b [3]float64, w float64, bounds voxel.Box, fn func(voxel.Key)) {
	lo, hi := [3]int32{}, [3]int32{}
	bmin := [3]int32{bounds.Min.X, bounds.Min.Y, bounds.Min.Z}
	bmax := [3]int32{bounds.Max.X, bounds.Max.Y, bounds.Max.Z}
	for k := range 3 {
		l := math.Ceil(min(a[k], b[k]) - w)
		h := math.Floor(max(a[k], b[k]) + w)
		if l > float64(bmax[k]) || h < float64(bmin[k]) {
			return
		}
		lo[k], hi[k] = int32(max(l, float64(bmin[k]))), int32(min(h, float64(bmax[k])))
	}
	s := segment{a: a, w2: w * w}
	for k := range 3 {
		s.d[k] = b[k] - a[k]
	}
	s.l2 = s.d[0]*s.d[0] + s.d[1]*s.d[1] + s.d[2]*s.d[2]
	// The row interval is found for a capsule a little wider than w, so
	// that rows it only touches are still tried; the distance test then
	// decides every cell exactly.
	wc := w*(1+1e-9) + 1e-6
	for z := int64(lo[2]); z <= int64(hi[2]); z++ { // int64: bounds may end at MaxInt32
		for y := int64(lo[1]); y <= int64(hi[1]); y++ {
			t0, t1, ok := s.row(float64(y), float64(z), wc*wc, b)
			if !ok {
				continue
			}
			x0 := max(float64(lo[0]), math.Floor(t0))
			x1 := min(float64(hi[0]), math.Ceil(t1))
			for x := int64(x0); float64(x) <= x1; x++ {
				if s.near([3]float64{float64(x), float64(y), float64(z)}) {
					fn(voxel.Key{X: int32(x), Y: int32(y), Z: int32(z)})
				}
			}
		}
	}
}

// segment is a segment a → a+d with its squared length l2, and the squared
// tunnel width w2.
type segment struct {
	a, d   [3]float64
	l2, w2 float64
}

// near reports whether p lies within the width of the segment: its
// distance to the nearest point a + s·d, s clamped to [0, 1].
func (s *segment) near(p [3]float64) bool {
	u := [3]float64{p[0] - s.a[0], p[1] - s.a[1], p[2] - s.a[2]}
	t := 0.0
	if s.l2 > 0 {
		t = min(max((u[0]*s.d[0]+u[1]*s.d[1]+u[2]*s.d[2])/s.l2, 0), 1)
	}
	e0, e1, e2 := u[0]-t*s.d[0], u[1]-t*s.d[1], u[2]-t*s.d[2]
	return e0*e0+e1*e1+e2*e2 <= s.w2
}

// row returns the x interval [t0, t1] where the row (·, y, z) crosses
// the capsule of squared radius r2 around the segment (whose far end is
// b), and false when it misses: the hull of its crossings with the two
// end spheres and with the cylinder between them.
func (s *segment) row(y, z, r2 float64, b [3]float64) (t0, t1 float64, ok bool) {
	t0, t1 = math.Inf(1), math.Inf(-1)
	add := func(l, h float64) {
		if l <= h {
			t0, t1 = min(t0, l), max(t1, h)
		}
	}
	for _, c := range [2][3]float64{s.a, b} {
		if q := r2 - (y-c[1])*(y-c[1]) - (z-c[2])*(z-c[2]); q >= 0 {
			add(c[0]-math.Sqrt(q), c[0]+math.Sqrt(q))
		}
	}
	if s.l2 > 0 {
		// With τ = x − a.x and u = (τ, y − a.y, z − a.z): the projection
		// u·d = τ·d.x + c must lie in [0, l2], and the squared distance to
		// the line, |u|² − (u·d)²/l2 = A·τ² + B·τ + C + r2, at most r2.
		py, pz := y-s.a[1], z-s.a[2]
		c := py*s.d[1] + pz*s.d[2]
		A := (s.d[1]*s.d[1] + s.d[2]*s.d[2]) / s.l2
		B := -2 * s.d[0] * c / s.l2
		C := py*py + pz*pz - c*c/s.l2 - r2
		lo, hi := math.Inf(-1), math.Inf(1) // τ from the projection
		if s.d[0] != 0 {
			lo, hi = -c/s.d[0], (s.l2-c)/s.d[0]
			if lo > hi {
				lo, hi = hi, lo
			}
		} else if c < 0 || c > s.l2 {
			lo, hi = 1, 0
		}
		if A == 0 { // along x: the distance to the line is the same all along
			if C > 0 {
				lo, hi = 1, 0
			}
		} else if disc := B*B - 4*A*C; disc >= 0 {
			q := -(B + math.Copysign(math.Sqrt(disc), B)) / 2 // stable roots q/A and C/q
			r0, r1 := q/A, 0.0
			if q != 0 {
				r1 = C / q
			}
			lo, hi = max(lo, min(r0, r1)), min(hi, max(r0, r1))
		} else {
			lo, hi = 1, 0
		}
		add(s.a[0]+lo, s.a[0]+hi)
	}
	return t0, t1, t0 <= t1
}
