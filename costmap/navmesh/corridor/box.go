package corridor

import (
	"fmt"
	"math"
)

// Point is a position in cell coordinates (x, y, z; one unit is one voxel
// edge).
type Point = [3]float64

// Box is a closed axis-aligned box in cell coordinates: the points p with
// Min[i] <= p[i] <= Max[i] on every axis i. A region has Min < Max on the
// axes it spans; a portal is a Box with at least one degenerate axis
// (Min[i] == Max[i]).
type Box struct{ Min, Max [3]float64 }

// paramTol is the slack InCorridor allows in segment parameter space
// (0 at a, 1 at b): gaps between boxes' intervals and shortfalls at the
// ends up to this size count as covered. It absorbs rounding when a
// segment passes exactly through a box corner, where two slabs compute the
// same crossing with different rounding.
const paramTol = 1e-9

// InCorridor reports whether the segment a→b lies in the union of the
// closed boxes. It clips the segment's parameter interval [0, 1] against
// each box (slab method; touching a face, edge or corner counts as
// inside) and checks that the union of the clipped intervals covers
// [0, 1], up to gaps of 1e-9 in parameter space (1e-9 of the segment's
// length). A degenerate segment (a == b) is a point test.
//
// It is O(len(boxes)) when the boxes are listed in the order the segment
// meets them, as a route's regions are, and O(len(boxes)²) at worst. It
// allocates only for more than 512 boxes.
func InCorridor(a, b Point, boxes []Box) bool { return covered(a, b, boxes, 3, false) }

// inRoute is InCorridor on the first axes axes for a stretch of a route's
// regions, listed in route order, with one more rule: the segment may pass
// from one region to another only where the two are joined, consecutive
// regions through their portal and any two through a face they share
// (joined). So it never goes from region to region through a point or
// an edge where they merely touch: between two blocked voxels set
// corner to corner, a pinch no robot passes and the voxel lattice
// forbids too. A region the segment touches at one point can still bridge
// two others it shares faces with.
func inRoute(a, b Point, regions []Box, axes int) bool { return covered(a, b, regions, axes, true) }

// covered is InCorridor on the first axes axes, and inRoute when route is
// set. It grows a set of reached boxes: first those holding a, then any
// box whose interval meets a reached box's (within paramTol) and, for a
// route, is joined to it. The reached intervals then cover [0, reach],
// and the segment is covered when reach gets to 1.
func covered(a, b Point, boxes []Box, axes int, route bool) bool {
	d := Point{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	var small [8]uint64
	seen := small[:]
	if n := (len(boxes) + 63) / 64; n > len(seen) {
		seen = make([]uint64, n)
	}
	reach := -1.0
	for i := range boxes {
		if t0, t1 := clip(a, d, &boxes[i], axes); t0 <= paramTol && t1 >= t0-paramTol {
			seen[i/64] |= 1 << (i % 64)
			reach = max(reach, t1)
		}
	}
	for reach >= 0 {
		if reach >= 1-paramTol {
			return true
		}
		grew := false
		for j := range boxes {
			if seen[j/64]&(1<<(j%64)) != 0 {
				continue
			}
			t0, t1 := clip(a, d, &boxes[j], axes)
			if t0 > reach+paramTol || t1 < t0-paramTol ||
				route && !joinsSeen(a, d, boxes, seen, j, t0, t1, axes) {
				continue
			}
			seen[j/64] |= 1 << (j % 64)
			reach, grew = max(reach, t1), true
		}
		if !grew {
			return false
		}
	}
	return false
}

// joinsSeen reports whether box j, which the segment a + t·d meets over
// [t0, t1], is joined to a box already seen whose interval meets that
// one. It tries j's neighbours in the route first.
func joinsSeen(a, d Point, boxes []Box, seen []uint64, j int, t0, t1 float64, axes int) bool {
	try := func(i int) bool {
		if i < 0 || i >= len(boxes) || seen[i/64]&(1<<(i%64)) == 0 {
			return false
		}
		s0, s1 := clip(a, d, &boxes[i], axes)
		return s0 <= t1+paramTol && t0 <= s1+paramTol &&
			(i == j-1 || i == j+1 || joined(&boxes[i], &boxes[j], axes))
	}
	if try(j-1) || try(j+1) {
		return true
	}
	for i := range boxes {
		if i != j-1 && i != j+1 && try(i) {
			return true
		}
	}
	return false
}

// joined reports whether boxes p and q share a face: their intersection
// has at most one dimension fewer than the thinner of the two (a face of
// two solid boxes, an edge of two flat ones).
func joined(p, q *Box, axes int) bool {
	dim, dp, dq := 0, 0, 0
	for i := range axes {
		lo, hi := max(p.Min[i], q.Min[i]), min(p.Max[i], q.Max[i])
		if lo > hi {
			return false
		}
		if lo < hi {
			dim++
		}
		if p.Min[i] < p.Max[i] {
			dp++
		}
		if q.Min[i] < q.Max[i] {
			dq++
		}
	}
	return dim >= min(dp, dq)-1
}

// clip returns the part [t0, t1] of [0, 1] for which a + t·d lies in box
// b on the first axes axes; t0 > t1 when there is none.
func clip(a, d Point, b *Box, axes int) (t0, t1 float64) {
	t0, t1 = 0, 1
	for i := range axes {
		if d[i] == 0 {
			if a[i] < b.Min[i] || a[i] > b.Max[i] {
				return 1, 0
			}
			continue
		}
		lo, hi := (b.Min[i]-a[i])/d[i], (b.Max[i]-a[i])/d[i]
		if lo > hi {
			lo, hi = hi, lo
		}
		t0, t1 = max(t0, lo), min(t1, hi)
	}
	return t0, t1
}

// Length returns the length of the polyline path in cell units (0 for
// fewer than two points).
func Length(path []Point) float64 {
	var l float64
	for i := 1; i < len(path); i++ {
		l += dist(&path[i-1], &path[i])
	}
	return l
}

// dist is the Euclidean distance between a and b in cell units.
func dist(a, b *Point) float64 {
	x, y, z := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	return math.Sqrt(x*x + y*y + z*z)
}

// clamp returns the point of b nearest p.
func clamp(p Point, b *Box) Point {
	for i := range 3 {
		p[i] = min(max(p[i], b.Min[i]), b.Max[i])
	}
	return p
}

// checkRoute panics unless there is one more region than portals.
func checkRoute(regions, portals []Box) {
	if len(regions) != len(portals)+1 {
		panic(fmt.Sprintf("corridor: %d regions for %d portals, want %d",
			len(regions), len(portals), len(portals)+1))
	}
}
