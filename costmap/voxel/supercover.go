package voxel

import (
	"math"

	"github.com/golang/geo/r3"
)

// touchSlack is how near, in voxels, a segment must pass to a voxel's
// closed cube for Supercover to count it as touched. A planner's straight
// move between voxel centres crosses edges and corners exactly, but the
// centres reach Supercover rounded (Frame.Center, then Frame.local), so
// the segment misses the corner by a rounding error, on either side: with
// no slack, most diagonals between centres left out one of the voxels
// beside the corner. The slack is far above those errors (at most about
// 1e-9 voxels at MaxCoord) and far below anything a robot could pass
// through (1e-8 m at 0.1 m voxels).
const touchSlack = 1e-7

// Supercover calls fn for every voxel whose closed cube the segment from a
// to b touches (passes within touchSlack of), in the order the segment
// reaches them, each once, until fn returns false: where the segment
// crosses an edge or corner, every voxel sharing it is visited, as the
// no-corner-cutting rule of a 26-connected lattice checks a step. Line of
// sight uses it. Points that are not finite visit nothing.
//
// It sweeps the box of half-width touchSlack around a point moving from a
// to b. At every moment the voxels that box touches are a product of one
// range of voxel coordinates per axis. The range grows at its leading end
// when the box reaches the next voxel, and shrinks at its trailing end
// just after the box leaves one. Each growth brings in a slab of new
// voxels: the new coordinate on its axis times the other axes' ranges.
// Each event's time is computed from its voxel boundary, not accumulated,
// so rounding errors stay far below the slack.
func (f Frame) Supercover(a, b r3.Vector, fn func(Key) bool) {
	if !finite(a) || !finite(b) {
		return
	}
	o, e := f.local(a), f.local(b)
	d := e.Sub(o)
	var s sweep
	s.axes[0].init(o.X, d.X)
	s.axes[1].init(o.Y, d.Y)
	s.axes[2].init(o.Z, d.Z)
	if !s.slab(-1, fn) {
		return
	}
	for range maxSteps(o, e) + 3 {
		axis, ok := s.next()
		if !ok || !s.slab(axis, fn) {
			return
		}
	}
}

// sweep is Supercover's state: the range of voxel coordinates the box
// touches on each axis.
type sweep struct {
	axes [3]sweepAxis
}

// sweepAxis is one axis of a sweep: the segment o + t·d on it, the range
// [lo, hi] of voxel coordinates the box touches now, and the times at
// which the range next grows (at its leading end) and shrinks (at its
// trailing end), +Inf if never.
type sweepAxis struct {
	o, d         float64
	lo, hi       int32
	grow, shrink float64
}

// init sets the range at t = 0 and the first events. Voxel j's closed
// cube [j, j+1] is within touchSlack of coordinate p when
// j ≤ p + touchSlack and j + 1 ≥ p − touchSlack.
func (x *sweepAxis) init(o, d float64) {
	x.o, x.d = o, d
	x.lo = int32(math.Ceil(o-touchSlack)) - 1
	x.hi = int32(math.Floor(o + touchSlack))
	x.growTime()
	x.shrinkTime()
}

// growTime sets the time of the next growth: for d > 0 when hi + 1 =
// p + slack, for d < 0 when lo = p − slack.
func (x *sweepAxis) growTime() {
	switch {
	case x.d > 0:
		x.grow = (float64(x.hi) + 1 - touchSlack - x.o) / x.d
	case x.d < 0:
		x.grow = (float64(x.lo) + touchSlack - x.o) / x.d
	default:
		x.grow = math.Inf(1)
	}
}

// shrinkTime sets the time after which the range next shrinks: for d > 0
// when lo + 1 = p − slack, for d < 0 when hi = p + slack.
func (x *sweepAxis) shrinkTime() {
	switch {
	case x.d > 0:
		x.shrink = (float64(x.lo) + 1 + touchSlack - x.o) / x.d
	case x.d < 0:
		x.shrink = (float64(x.hi) - touchSlack - x.o) / x.d
	default:
		x.shrink = math.Inf(1)
	}
}

// next applies the events up to and including the next growth, whose axis
// it returns: shrinks strictly before it first (a voxel is still touched
// at the moment the box leaves it), then the growth. It reports false,
// growing nothing, when the next growth comes after the segment's end.
func (s *sweep) next() (axis int, ok bool) {
	for {
		g, sh := 0, 0
		for a := 1; a < 3; a++ {
			if s.axes[a].grow < s.axes[g].grow {
				g = a
			}
			if s.axes[a].shrink < s.axes[sh].shrink {
				sh = a
			}
		}
		if x := &s.axes[sh]; x.shrink < s.axes[g].grow {
			if x.d > 0 {
				x.lo++
			} else {
				x.hi--
			}
			x.shrinkTime()
			continue
		}
		x := &s.axes[g]
		if !(x.grow <= 1) {
			return g, false
		}
		if x.d > 0 {
			x.hi++
		} else {
			x.lo--
		}
		x.growTime()
		return g, true
	}
}

// slab calls fn for the voxels a growth along axis brought in: the new
// coordinate on that axis, the ranges on the others; axis −1 means the
// whole first box. It reports whether fn asked to go on.
func (s *sweep) slab(axis int, fn func(Key) bool) bool {
	var lo, hi [3]int32
	for a := range 3 {
		lo[a], hi[a] = s.axes[a].lo, s.axes[a].hi
	}
	if axis >= 0 {
		if s.axes[axis].d > 0 {
			lo[axis] = hi[axis]
		} else {
			hi[axis] = lo[axis]
		}
	}
	for z := lo[2]; z <= hi[2]; z++ {
		for y := lo[1]; y <= hi[1]; y++ {
			for x := lo[0]; x <= hi[0]; x++ {
				if !fn(Key{x, y, z}) {
					return false
				}
			}
		}
	}
	return true
}
