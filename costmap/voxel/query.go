package voxel

import (
	"math"

	"github.com/golang/geo/r3"
)

// CostAt returns the cost of the voxel holding world point p, and false
// when p is not finite or outside the world.
func (m *Map) CostAt(p r3.Vector) (Cost, bool) {
	k, ok := m.frame.KeyOf(p)
	if !ok {
		return Unknown, false
	}
	return m.Cost(k), true
}

// LineOfSight reports whether every voxel the segment from a to b touches
// (Frame.Supercover) costs at most maxCost; Unknown voxels count as cost
// 255. Any-angle planners and path smoothing ask it.
func (m *Map) LineOfSight(a, b r3.Vector, maxCost Cost) bool {
	if !finite(a) || !finite(b) {
		return false
	}
	clear := true
	m.frame.Supercover(a, b, func(k Key) bool {
		clear = m.Cost(k) <= maxCost
		return clear
	})
	return clear
}

// NearestFree returns the voxel nearest to p (by distance between voxel
// centres, ties broken by Key order: z, then y, then x) within radius
// metres whose cost is at most maxCost, and false if there is none. A goal
// inside an obstacle is moved with it.
func (m *Map) NearestFree(p r3.Vector, radius float64, maxCost Cost) (Key, bool) {
	c, ok := m.frame.KeyOf(p)
	if !ok || !(radius >= 0) {
		return Key{}, false
	}
	r, r2 := RadiusVoxels(radius, m.frame.Resolution, maxRadiusVoxels)
	best, bestD2, found := Key{}, int32(0), false
	// Shells of growing Chebyshev distance s: every voxel of shell s is at
	// least s away, so the search ends once the best is nearer than s+1.
	for s := int32(0); s <= r; s++ {
		for z := -s; z <= s; z++ {
			for y := -s; y <= s; y++ {
				for x := -s; x <= s; x++ {
					if max(abs32(x), abs32(y), abs32(z)) != s {
						continue
					}
					d2 := x*x + y*y + z*z
					if float64(d2) > r2 || (found && d2 > bestD2) {
						continue
					}
					k := c.Add(x, y, z)
					if found && d2 == bestD2 && compareKeys(k, best) >= 0 {
						continue
					}
					if m.Cost(k) <= maxCost {
						best, bestD2, found = k, d2, true
					}
				}
			}
		}
		if found && bestD2 < (s+1)*(s+1) {
			break
		}
	}
	return best, found
}

// RadiusVoxels converts a search radius of radius metres into voxels of
// edge res: the largest whole number of voxels within it, at most limit,
// and the radius squared, to compare with squared distances between voxel
// centres. It allows a relative 1e-9, so that a voxel centre exactly at
// the radius counts as within it: 0.3 m is 2.9999999999999996 voxels of
// 0.1 m in floating point, and truncating it lost the voxels 3 away.
func RadiusVoxels(radius, res float64, limit int32) (r int32, r2 float64) {
	v := math.Min(radius/res*(1+1e-9), float64(limit))
	return int32(v), v * v
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

func compareKeys(a, b Key) int {
	switch {
	case a.Z != b.Z:
		return int(a.Z) - int(b.Z)
	case a.Y != b.Y:
		return int(a.Y) - int(b.Y)
	}
	return int(a.X) - int(b.X)
}

// ForEachOccupied calls fn for every occupied voxel, in no fixed order,
// until fn returns false.
func (m *Map) ForEachOccupied(fn func(Key) bool) {
	for _, b := range m.bricks {
		for i, s := range b.occ {
			if s == occupied && !fn(b.keyAt(i)) {
				return
			}
		}
	}
	stop := false
	m.static.eachObstacle(func(k Key) {
		if !stop && m.lookup(k) == nil && !fn(k) {
			stop = true
		}
	})
}

// Project writes, for every column (x, y) of box b, the highest cost over
// b's z range into dst (x fastest), ignoring unknown voxels unless the
// whole column is unknown: the 2D view for an OccupancyGrid display.
func (m *Map) Project(b Box, dst []Cost) []Cost {
	if b.Empty() {
		return dst[:0]
	}
	w, h := int(b.Max.X-b.Min.X+1), int(b.Max.Y-b.Min.Y+1)
	dst = resize(dst, w*h)
	for y := range h {
		for x := range w {
			best, known := Free, false
			for z := b.Min.Z; z <= b.Max.Z; z++ {
				if c := m.Cost(Key{b.Min.X + int32(x), b.Min.Y + int32(y), z}); c != Unknown {
					best, known = max(best, c), true
				}
			}
			if !known {
				best = Unknown
			}
			dst[x+y*w] = best
		}
	}
	return dst
}

// Stats describes the map's size.
type Stats struct {
	Bricks   int // bricks allocated
	Observed int // voxels with sensor evidence
	Marked   int // voxels the sensor layer holds occupied
	Shapes   int // shapes held
	Bytes    int // approximate memory of the bricks
}

// Stats counts what the map holds.
func (m *Map) Stats() Stats {
	s := Stats{Bricks: len(m.bricks), Shapes: len(m.shapes)}
	const base = 2*brickVoxels + 64 + 96 // occ, cost, touched, header
	for _, b := range m.bricks {
		s.Observed += int(b.seen)
		s.Marked += int(b.marks)
		s.Bytes += base
		if b.d2 != nil {
			s.Bytes += 2 * brickVoxels
		}
		if b.sensor != nil {
			s.Bytes += brickVoxels
		}
		if b.hitTime != nil {
			s.Bytes += 4 * brickVoxels
		}
		if b.shapes != nil {
			s.Bytes += 2 * brickVoxels
		}
	}
	return s
}
