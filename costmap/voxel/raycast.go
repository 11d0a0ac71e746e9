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
	ties   int        // how many axes the last step moved along
}

func (t *dda) init(o, d r3.Vector) {
	t.k = Key{int32(math.Floor(o.X)), int32(math.Floor(o.Y)), int32(math.Floor(o.Z))}
	t.axis(0, o.X, d.X, t.k.X)
	t.axis(1, o.Y, d.Y, t.k.Y)
	t.axis(2, o.Z, d.Z, t.k.Z)
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
// exactly, it moves along every axis involved at once.
func (t *dda) next() bool {
	tm := min(t.tMax[0], t.tMax[1], t.tMax[2])
	if !(tm < 1) {
		return false
	}
	t.ties = 0
	if t.tMax[0] == tm {
		t.k.X += t.step[0]
		t.tMax[0] += t.tDelta[0]
		t.ties++
	}
	if t.tMax[1] == tm {
		t.k.Y += t.step[1]
		t.tMax[1] += t.tDelta[1]
		t.ties++
	}
	if t.tMax[2] == tm {
		t.k.Z += t.step[2]
		t.tMax[2] += t.tDelta[2]
		t.ties++
	}
	return true
}

// Ray calls fn for every voxel whose interior the segment from a to b
// crosses, in order from a's voxel to b's, until fn returns false. This is
// the traversal sensor rays clear along. Points that are not finite visit
// nothing.
func (f Frame) Ray(a, b r3.Vector, fn func(Key) bool) {
	if !finite(a) || !finite(b) {
		return
	}
	o := f.local(a)
	var t dda
	t.init(o, f.local(b).Sub(o))
	limit := maxSteps(o, f.local(b))
	for range limit {
		if !fn(t.k) || !t.next() {
			return
		}
	}
}

// maxSteps bounds the voxels a traversal from o to e can visit.
func maxSteps(o, e r3.Vector) int {
	d := e.Sub(o).Abs()
	return int(math.Min(d.X+d.Y+d.Z+4, 1<<24))
}

// Supercover calls fn for every voxel whose closed cube the segment from a
// to b touches, until fn returns false: where the segment crosses an edge
// or corner exactly, the voxels sharing it are visited too. Line of sight
// uses it, so that a straight move between voxel centres is checked as
// the no-corner-cutting rule of a 26-connected lattice checks a step.
func (f Frame) Supercover(a, b r3.Vector, fn func(Key) bool) {
	if !finite(a) || !finite(b) {
		return
	}
	o := f.local(a)
	var t dda
	t.init(o, f.local(b).Sub(o))
	limit := maxSteps(o, f.local(b))
	for range limit {
		if !fn(t.k) {
			return
		}
		prev := t.k
		if !t.next() {
			return
		}
		if t.ties > 1 && !cornerVoxels(prev, t.k, fn) {
			return
		}
	}
}

// cornerVoxels visits the voxels of the box spanned by two voxels that
// differ on several axes, except the two themselves.
func cornerVoxels(a, b Key, fn func(Key) bool) bool {
	for z := min(a.Z, b.Z); z <= max(a.Z, b.Z); z++ {
		for y := min(a.Y, b.Y); y <= max(a.Y, b.Y); y++ {
			for x := min(a.X, b.X); x <= max(a.X, b.X); x++ {
				if k := (Key{x, y, z}); k != a && k != b && !fn(k) {
					return false
				}
			}
		}
	}
	return true
}
