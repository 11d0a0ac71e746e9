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
// does not allocate.
func InCorridor(a, b Point, boxes []Box) bool { return covered(a, b, boxes, 3) }

// covered is InCorridor on the first axes axes.
func covered(a, b Point, boxes []Box, axes int) bool {
	d := Point{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	reach := 0.0 // [0, reach] is covered
	for {
		grew := false
		for i := range boxes {
			t0, t1 := clip(a, d, &boxes[i], axes)
			if t0 <= reach+paramTol && t1 > reach {
				reach, grew = t1, true
				if reach >= 1-paramTol {
					return true
				}
			}
		}
		if !grew {
			return false
		}
	}
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
