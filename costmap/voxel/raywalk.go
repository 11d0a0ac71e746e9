package voxel

import "github.com/golang/geo/r3"

// Clearing rays are the bulk of a sensor update: a 64-beam LiDAR scan
// walks about nine million voxels, most of them more than once. The walk
// below is the DDA of dda.next, step for step and with the same floating
// point operations, so it visits exactly the voxels Frame.Ray does; it is
// only arranged to do little per voxel:
//
//   - it steps a brick-local position and a flat index into the brick
//     (a cursor), and looks a brick up only when the ray crosses into the
//     next one, in the scan's table (scanTable) rather than the hash;
//   - it only sets the voxel's bit in the table: each voxel takes one miss
//     per scan however many rays cross it, so the misses are applied after
//     the walk, brick by brick (Map.applyMisses), and the walk neither
//     reads log-odds nor tests whether a voxel was visited. (The map ends
//     the same; a change set lists the same changes, grouped by brick in
//     the order the scan reached the bricks.)
//   - a step moving one axis (nearly all) takes two comparisons.

// clearRay notes, for a miss, every voxel from the origin o to the ray's
// end voxel, that voxel excluded. It is a 3D DDA (Amanatides and Woo),
// exact: it visits the voxels whose interior the segment crosses, in
// order, stepping every axis at once when the segment passes exactly
// through an edge or corner.
func (m *Map) clearRay(o r3.Vector, r ray) {
	var t dda
	t.init(o, r.end.Sub(o))
	tx, ty, tz := t.tMax[0], t.tMax[1], t.tMax[2]
	dx, dy, dz := t.tDelta[0], t.tDelta[1], t.tDelta[2]
	qx, qy, qz := cursorStep(t.step[0], 0), cursorStep(t.step[1], 1), cursorStep(t.step[2], 2)
	bk, endBrick, endI := brickCoords(t.k), brickCoords(r.key), index(r.key)
	q := newCursor(t.k.X&brickMask, t.k.Y&brickMask, t.k.Z&brickMask)
	table := &m.sensor.table
	// Each pass of the outer loop walks one brick; the bound only guards
	// against a walk that would not end.
	for range 3*maxRangeVoxels + 3 {
		s := -1 // the brick's slot: in line when the dense index has it
		if d := table.dense(bk); d >= 0 {
			s = int(table.index[d]) - 1
		}
		if s < 0 {
			if s = m.scanSlot(bk); s < 0 {
				m.cs.Input.Refused++
				return
			}
		}
		stop := -1 // the end voxel's index, if it is in this brick
		if bk == endBrick {
			stop = endI
		}
		seen := &table.seen[s] // valid until the next scanSlot
		for {
			i := int(q >> 32)
			if i == stop {
				return
			}
			seen[i>>6&7] |= 1 << (i & 63)
			// The step of dda.next: every axis whose tMax is the least
			// moves, unless that is 1 or more. Most steps move one axis,
			// found with two comparisons; ties take the general path.
			switch {
			case tx < ty && tx < tz:
				if !(tx < 1) {
					return
				}
				tx, q = tx+dx, q+qx
			case ty < tx && ty < tz:
				if !(ty < 1) {
					return
				}
				ty, q = ty+dy, q+qy
			case tz < tx && tz < ty:
				if !(tz < 1) {
					return
				}
				tz, q = tz+dz, q+qz
			default:
				tm := min(tx, ty, tz)
				if !(tm < 1) {
					return
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
			if uint32(q)&cursorCheck != cursorInside {
				break // left the brick
			}
		}
		lx, ly, lz := int32(q&0xff)-8, int32(q>>8&0xff)-8, int32(q>>16&0xff)-8
		// -1 >> 3 = -1 and 8 >> 3 = 1: the brick moves with the carry.
		bk = Key{bk.X + lx>>brickShift, bk.Y + ly>>brickShift, bk.Z + lz>>brickShift}
		q = newCursor(lx&brickMask, ly&brickMask, lz&brickMask)
	}
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
