package voxel

import (
	"math"

	"github.com/golang/geo/r3"
)

// dda walks the voxels a segment crosses (Amanatides and Woo, "A Fast
// Voxel Traversal Algorithm for Ray Tracing", 1987), in voxel units: voxel
// k spans [k, k+1) on each axis, and the segment is o + t·d, t in [0, 1].
type dda struct {
	k      Key
	step   [3]int32
	tMax   [3]float64 // t at which the segment leaves the current voxel, per axis
	tDelta [3]float64 // t to cross one voxel, per axis
}

// init starts the walk in the first voxel whose interior the segment
// crosses (firstVoxel on each axis).
func (t *dda) init(o, d r3.Vector) {
	t.k = Key{firstVoxel(o.X, d.X), firstVoxel(o.Y, d.Y), firstVoxel(o.Z, d.Z)}
	t.axis(0, o.X, d.X, t.k.X)
	t.axis(1, o.Y, d.Y, t.k.Y)
	t.axis(2, o.Z, d.Z, t.k.Z)
}

// firstVoxel is, on one axis, the first voxel whose interior a segment
// from o along d crosses: o's, or when the segment leaves o downwards from
// a face, the voxel below it.
func firstVoxel(o, d float64) int32 {
	if d < 0 {
		return int32(math.Ceil(o)) - 1
	}
	return int32(math.Floor(o))
}

func (t *dda) axis(a int, o, d float64, k int32) {
	switch {
	case d > 0:
		t.step[a], t.tMax[a], t.tDelta[a] = 1, (float64(k)+1-o)/d, 1/d
	case d < 0:
		t.step[a], t.tMax[a], t.tDelta[a] = -1, (float64(k)-o)/d, -1/d
	default:
		t.step[a], t.tMax[a], t.tDelta[a] = 0, math.Inf(1), math.Inf(1)
	}
}

// next moves to the next voxel and reports whether the segment reaches it
// with positive length. Where the segment crosses an edge or a corner
// exactly, it moves along every axis involved at once. It sums up the
// crossing times voxel by voxel, so a crossing can come a rounding error
// early or late: the clearing walks that follow it stop at their end
// voxel, and Ray walks exactly.
func (t *dda) next() bool {
	tm := min(t.tMax[0], t.tMax[1], t.tMax[2])
	if !(tm < 1) {
		return false
	}
	if t.tMax[0] == tm {
		t.k.X += t.step[0]
		t.tMax[0] += t.tDelta[0]
	}
	if t.tMax[1] == tm {
		t.k.Y += t.step[1]
		t.tMax[1] += t.tDelta[1]
	}
	if t.tMax[2] == tm {
		t.k.Z += t.step[2]
		t.tMax[2] += t.tDelta[2]
	}
	return true
}

// Ray calls fn for every voxel whose interior the segment from a to b
// crosses, in order, until fn returns false. It is the walk of dda with
// every crossing time computed from its face instead of summed up, and
// bounded by the last voxel the segment crosses, so that a segment
// passing exactly through an edge or corner, or ending exactly on a face,
// is walked exactly. Simulated sensor rays take it. Points that are not
// finite visit nothing.
func (f Frame) Ray(a, b r3.Vector, fn func(Key) bool) {
	if !finite(a) || !finite(b) {
		return
	}
	o, e := f.local(a), f.local(b)
	var w exactWalk
	w.init(o, e)
	for range maxSteps(o, e) {
		if !fn(Key{w.k[0], w.k[1], w.k[2]}) || !w.next() {
			return
		}
	}
}

// exactWalk is Ray's walk: per axis, the segment o + t·d, the current
// voxel's and the last voxel's coordinates, and the time the segment
// leaves the current voxel (+Inf at the last coordinate).
type exactWalk struct {
	o, d, tMax [3]float64
	k, last    [3]int32
}

func (w *exactWalk) init(o, e r3.Vector) {
	d := e.Sub(o)
	w.o, w.d = [3]float64{o.X, o.Y, o.Z}, [3]float64{d.X, d.Y, d.Z}
	ends := [3]float64{e.X, e.Y, e.Z}
	for a := range 3 {
		w.k[a] = firstVoxel(w.o[a], w.d[a])
		// The last voxel: e's, or where the segment ends going up onto
		// a face, the one below it.
		if w.d[a] > 0 {
			w.last[a] = int32(math.Ceil(ends[a])) - 1
		} else {
			w.last[a] = int32(math.Floor(ends[a]))
		}
		w.leave(a)
	}
}

// leave sets the time the segment leaves the current voxel along axis a.
func (w *exactWalk) leave(a int) {
	switch k := w.k[a]; {
	case k == w.last[a]:
		w.tMax[a] = math.Inf(1)
	case w.d[a] > 0:
		w.tMax[a] = (float64(k) + 1 - w.o[a]) / w.d[a]
	default:
		w.tMax[a] = (float64(k) - w.o[a]) / w.d[a]
	}
}

// next moves to the next voxel, along every axis whose crossing time is
// the least, and reports false at the last voxel.
func (w *exactWalk) next() bool {
	tm := min(w.tMax[0], w.tMax[1], w.tMax[2])
	if math.IsInf(tm, 1) {
		return false
	}
	for a := range 3 {
		if w.tMax[a] == tm {
			if w.d[a] > 0 {
				w.k[a]++
			} else {
				w.k[a]--
			}
			w.leave(a)
		}
	}
	return true
}

// maxSteps bounds the voxels a traversal from o to e can visit.
func maxSteps(o, e r3.Vector) int {
	d := e.Sub(o).Abs()
	return int(math.Min(d.X+d.Y+d.Z+4, 1<<24))
}
