package voxel

import "github.com/golang/geo/r3"

// Clearing rays are the bulk of a sensor update: a 64-beam LiDAR scan
// walks about nine million voxels, most of them more than once. The walk
// below is the DDA of dda.next, step for step and with the same floating
// point operations, so it visits exactly the voxels dda.next does (not
// always those Frame.Ray does: see clearRay); it is only arranged to do
// little per voxel:
//
//   - near the sensor it steps a position and a flat index in one bitset
//     over a box of voxels (a region cursor, see region.go); beyond, a
//     brick-local position and a flat index into the brick (a cursor),
//     looking a brick up only when the ray crosses into the next one, in
//     the scan's table (scanTable) rather than the hash;
//   - it only sets the voxel's bit (in the region, or in the table,
//     gathered in a register per z layer): each voxel takes one miss per
//     scan however many rays cross it, so the misses are applied after
//     the walk, brick by brick (Map.applyScan), and the walk neither
//     reads log-odds nor tests whether a voxel was visited. (The map ends
//     the same; a change set lists the same changes, grouped by brick.)
//   - a step moving one axis (nearly all) takes two comparisons; in the
//     region, a step along the ray's major axis takes one.
//
// Most of what is left is the processor mispredicting which axis steps:
// the same rays, each walked eight times in a row so that the predictor
// learns them, take about three quarters of the time in the region.
// Choosing the axis without a branch (comparisons turned into masks)
// measured twice as slow: the choice then waits on every step for the
// comparison before it, where a predicted branch lets the next steps
// start.

// clearRay notes, for a miss, every voxel from the origin o to the ray's
// end voxel, that voxel excluded. It is a 3D DDA (Amanatides and Woo) that
// sums its crossing times, as dda.next does, so it is exact but at ties:
// where the segment passes exactly through an edge or corner, a rounding
// error can step one axis first, and the voxel it steps into, which the
// segment only touches along that edge, takes a miss (Frame.Ray, which
// computes each crossing from its face, does not visit it). Such ties
// need the sensor and the returns placed exactly on the voxel grid (a
// review found one with the sensor at a voxel centre and returns at voxel
// centres, at 1 m and 0.25 m voxels); an obstacle voxel grazed so loses
// its mark only after several such scans with no return in it. Computing
// crossings from faces on this hot path was not tried.
func (m *Map) clearRay(o r3.Vector, r ray) {
	var t dda
	t.init(o, r.end.Sub(o))
	w := rayWalk{
		tx: t.tMax[0], ty: t.tMax[1], tz: t.tMax[2],
		dx: t.tDelta[0], dy: t.tDelta[1], dz: t.tDelta[2],
	}
	table, k := &m.sensor.table, t.k
	if g := &table.region; g.on && g.contains(k) {
		var ended bool
		if k, ended = w.walkRegion(g, k, r.key, t.step); ended {
			return
		}
	}
	w.q = newCursor(k.X&brickMask, k.Y&brickMask, k.Z&brickMask)
	w.qx, w.qy, w.qz = cursorStep(t.step[0], 0), cursorStep(t.step[1], 1), cursorStep(t.step[2], 2)
	w.bk, w.endBrick, w.endI = brickCoords(k), brickCoords(r.key), index(r.key)
	// Each pass walks to a brick the scan has not reached yet; the bound
	// only guards against a walk that would not end.
	for range 3*MaxRangeVoxels + 3 {
		s := -1 // the brick's slot: in line when the dense index has it
		if d := table.dense(w.bk); d >= 0 {
			s = int(table.index[d]) - 1
		}
		if s < 0 {
			if s = m.scanSlot(w.bk); s < 0 {
				m.cs.Input.Refused++
				return
			}
		}
		if w.walk(table, s) {
			return
		}
	}
}

// rayWalk is the state of dda for the walk: tMax and tDelta per axis, the
// cursor with its step per axis, the brick it is in, and where the ray
// ends.
type rayWalk struct {
	tx, ty, tz float64
	dx, dy, dz float64
	q          cursor
	qx, qy, qz cursor
	bk         Key // brick coordinates of the cursor's brick
	endBrick   Key // brick coordinates of the end voxel
	endI       int // the end voxel's index in its brick
	endRegion  int // walkRegion: the end voxel's index in the region, or -1
}

// walk walks w from the brick of table slot s on, setting the bits of the
// voxels it visits in the table, and reports whether the ray ended: at its
// end voxel, or where the segment ends. Otherwise it leaves w at the first
// voxel of a brick the dense index has no slot for: the caller gives the
// brick one and walks on.
//
// The bits of the voxels visited go to a word kept in a register, acc,
// written back when the walk moves along z (a brick's word is a z layer,
// x | y<<3 of 64 bits) or leaves the brick: or-ing each bit into the
// table would chain every step through a store and a load. The walk goes
// on into the next brick in this loop when the dense index has it, which
// keeps the state in registers.
func (w *rayWalk) walk(t *scanTable, s int) (ended bool) {
	tx, ty, tz := w.tx, w.ty, w.tz
	dx, dy, dz := w.dx, w.dy, w.dz
	q, qx, qy, qz := w.q, w.qx, w.qy, w.qz
	seen, stop := &t.seen[s], w.stop()
	z, acc := int(q>>(32+2*brickShift))&brickMask, uint64(0) // acc: bits of layer z
	for {
		i := int(q >> 32)
		if i == stop {
			seen[z] |= acc
			return true
		}
		acc |= 1 << (i & 63)
		// The step of dda.next: every axis whose tMax is the least
		// moves, unless that is 1 or more. Most steps move one axis,
		// found with two comparisons; ties take the general path.
		switch {
		case tx < ty && tx < tz:
			if !(tx < 1) {
				seen[z] |= acc
				return true
			}
			tx, q = tx+dx, q+qx
		case ty < tx && ty < tz:
			if !(ty < 1) {
				seen[z] |= acc
				return true
			}
			ty, q = ty+dy, q+qy
		default: // a step along z, or a tie: the layer may change
			seen[z] |= acc
			acc = 0
			if tz < tx && tz < ty {
				if !(tz < 1) {
					return true
				}
				tz, q = tz+dz, q+qz
			} else {
				tm := min(tx, ty, tz)
				if !(tm < 1) {
					return true
				}
				if tx == tm {
					tx, q = tx+dx, q+qx
				}
				if ty == tm {
					ty, q = ty+dy, q+qy
				}
				if tz == tm {
					tz, q = tz+dz, q+qz
				}
			}
			// Out of the brick the index is not a voxel's; masked, it
			// names some layer, and acc, empty, changes nothing there.
			z = int(q>>(32+2*brickShift)) & brickMask
		}
		if uint32(q)&cursorCheck != cursorInside { // left the brick
			seen[z] |= acc
			lx, ly, lz := int32(q&0xff)-8, int32(q>>8&0xff)-8, int32(q>>16&0xff)-8
			// -1 >> 3 = -1 and 8 >> 3 = 1: the brick moves with the carry.
			w.bk = Key{w.bk.X + lx>>brickShift, w.bk.Y + ly>>brickShift, w.bk.Z + lz>>brickShift}
			q = newCursor(lx&brickMask, ly&brickMask, lz&brickMask)
			d := t.dense(w.bk)
			if d < 0 || t.index[d] == 0 {
				w.tx, w.ty, w.tz, w.q = tx, ty, tz, q
				return false
			}
			seen, stop = &t.seen[t.index[d]-1], w.stop()
			z, acc = int(q>>(32+2*brickShift))&brickMask, 0
		}
	}
}

// stop returns the index of the end voxel if it is in w's brick, else -1.
func (w *rayWalk) stop() int {
	if w.bk == w.endBrick {
		return w.endI
	}
	return -1
}

// A cursor is a voxel's place in its brick, packed for the walk: the low
// 32 bits hold the brick-local coordinates plus 8, a byte each (x, y, z:
// 8..15 inside the brick, 7 or 16 just outside, so a step never carries
// into the next byte), and the high 32 bits hold the flat index
// x | y<<3 | z<<6. One addition steps both.
type cursor = int64

const (
	cursorCheck  = 0xf8f8f8 // bits that tell a coordinate outside the brick
	cursorInside = 0x080808 // their value inside it
)

func newCursor(x, y, z int32) cursor {
	return int64(x|y<<brickShift|z<<(2*brickShift))<<32 | int64(x+8) | int64(y+8)<<8 | int64(z+8)<<16
}

// cursorStep returns what a step of s (-1, 0 or 1) along axis a adds to a
// cursor.
func cursorStep(s int32, a int) cursor {
	return int64(s)<<(32+brickShift*a) + int64(s)<<(8*a)
}

// addLogOdds returns log-odds l plus d, clamped to [lo, hi], all in
// eighths; the sum is taken wide so that it cannot wrap.
func addLogOdds(l, d, lo, hi int8) int8 {
	return int8(min(max(int16(l)+int16(d), int16(lo)), int16(hi)))
}
