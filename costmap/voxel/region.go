package voxel

import "math/bits"

// Around the sensor, where nearly all of a scan's steps are, the walk does
// not go brick by brick: it notes the voxels it visits in one bitset over
// a box of voxels (scanRegion), whose cursor (regionCursor) stays valid
// over the whole box. A brick walk pays, on every brick it crosses, a
// branch the processor cannot foresee and a lookup; LiDAR rays cross a
// brick every eight steps or so, and walking the region costs about two
// thirds of walking bricks. After the walk the bits go to the bricks
// (Map.gatherRegion), brick by brick, giving each brick a table slot if
// the scan has not reached it yet. A ray that leaves the region walks on
// brick by brick.
//
// Bricks then reach the table in another order, which changes nothing but
// the listing order of the change set, unless the memory limit refuses a
// brick: the region is used only when the limit leaves room for every
// brick the scan can reach (Map.roomFor).

// scanRegion is the box of voxels around the sensor that the walk notes
// in a bitset. Its extent is a power of two per axis, so that a voxel's
// index is its coordinates side by side, and its corner is a brick's.
type scanRegion struct {
	on   bool     // the current scan uses the region
	org  Key      // voxel coordinates of the minimum corner, multiples of brickEdge
	log  [3]uint  // log2 of the extent per axis, voxels; x at least 6 (a word per row)
	bits []uint64 // a bit per voxel, index x | y<<log[0] | z<<(log[0]+log[1]); all zero between scans

	// For the walk, set by reset: what a step of +1 along each axis adds
	// to a cursor, and the fields' check and inside (fields).
	unit          [3]regionCursor
	check, inside regionCursor
}

// Region limits: at most 512 voxels per axis and 2^25 bits (4 MB), and
// at most regionBitsPerRay bits per ray, so that the gather, which reads
// the whole bitset, stays small beside the walk.
const (
	regionMaxLog     = 9
	regionMaxBits    = 25
	regionBitsPerRay = 4096
)

// reset places the region for a scan with endpoints in box b (the sensor's
// voxel c included) and rays rays: over b when b fits, else around c.
func (g *scanRegion) reset(b Box, c Key, rays int) {
	lo, hi, mid := [3]int32{b.Min.X, b.Min.Y, b.Min.Z}, [3]int32{b.Max.X, b.Max.Y, b.Max.Z}, [3]int32{c.X, c.Y, c.Z}
	for a := range 3 {
		ext := uint32(hi[a]-(lo[a]&^brickMask)) + 1 // fits: both are within ±MaxCoord
		g.log[a] = min(max(uint(bits.Len32(ext-1)), brickShift), regionMaxLog)
	}
	g.log[0] = max(g.log[0], 6)
	limit := bits.Len(uint(rays)*regionBitsPerRay) - 1
	for g.log[0]+g.log[1]+g.log[2] > uint(min(regionMaxBits, max(limit, 15))) {
		a := 1 // shrink the largest axis, x last (it must keep 64 voxels)
		if g.log[2] > g.log[a] {
			a = 2
		}
		if g.log[0] > g.log[a] {
			a = 0
		}
		if g.log[a] == brickShift || a == 0 && g.log[0] == 6 {
			break
		}
		g.log[a]--
	}
	var org [3]int32
	for a := range 3 {
		n := int32(1) << g.log[a]
		org[a] = lo[a] &^ brickMask
		if hi[a] >= org[a]+n { // b does not fit: centre on the sensor
			org[a] = (mid[a] - n/2) &^ brickMask
		}
	}
	g.org = Key{org[0], org[1], org[2]}
	g.cursorSteps()
	n := 1 << (g.log[0] + g.log[1] + g.log[2] - 6)
	if len(g.bits) < n {
		g.bits = make([]uint64, n) // zero, as gather leaves the bits
	}
	g.on = true
}

// contains reports whether voxel k is in the region.
func (g *scanRegion) contains(k Key) bool {
	x, y, z := uint32(k.X-g.org.X), uint32(k.Y-g.org.Y), uint32(k.Z-g.org.Z)
	return x>>g.log[0]|y>>g.log[1]|z>>g.log[2] == 0
}

// index returns the bit of voxel k, which is in the region.
func (g *scanRegion) index(k Key) int {
	return int(k.X-g.org.X) | int(k.Y-g.org.Y)<<g.log[0] | int(k.Z-g.org.Z)<<(g.log[0]+g.log[1])
}

// A regionCursor is a voxel's place in the region, packed as a cursor is
// in a brick: in the low bits a field of regionField bits per axis holding
// the coordinate plus 2^log (so 2^log .. 2^(log+1)-1 inside the region,
// one less or one more just outside: a step never carries into the next
// field), then, from bit regionIndex, the index. One addition steps both.
type regionCursor = int64

const (
	regionField = regionMaxLog + 2 // bits per field
	regionIndex = 3 * regionField  // bit offset of the index
)

// cursorSteps sets the cursor constants of the region's extent: per
// axis, a step's cursor (a one in the field and in the index), and the
// fields' check and inside.
func (g *scanRegion) cursorSteps() {
	pos := uint(0) // the axis' place in the index
	g.check, g.inside = 0, 0
	for a := range 3 {
		g.unit[a] = 1<<(a*regionField) + 1<<(regionIndex+pos)
		g.check |= 3 << (a*regionField + int(g.log[a]))
		g.inside |= 1 << (a*regionField + int(g.log[a]))
		pos += g.log[a]
	}
}

// fields returns the bits of a cursor's fields that tell a voxel outside
// the region, and their value inside.
func (g *scanRegion) fields() (check, inside regionCursor) {
	return g.check, g.inside
}

// cursor returns the cursor of voxel k, which is in the region: inside
// (every field at 2^log, index 0) plus a unit step per coordinate.
func (g *scanRegion) cursor(k Key) regionCursor {
	return g.inside + regionCursor(k.X-g.org.X)*g.unit[0] + regionCursor(k.Y-g.org.Y)*g.unit[1] +
		regionCursor(k.Z-g.org.Z)*g.unit[2]
}

// step returns what a step of s (-1, 0 or 1) along axis a adds to a
// cursor.
func (g *scanRegion) step(s int32, a int) regionCursor {
	return regionCursor(s) * g.unit[a]
}

// key returns the voxel of cursor q, inside the region or just outside.
func (g *scanRegion) key(q regionCursor) Key {
	var c [3]int32
	for a := range 3 {
		c[a] = int32(q>>(a*regionField)&(1<<regionField-1)) - 1<<g.log[a]
	}
	return Key{g.org.X + c[0], g.org.Y + c[1], g.org.Z + c[2]}
}

// walkRegion walks w from voxel k, in the region, while it stays in the
// region, setting the voxels' bits, and reports whether the ray ended:
// at its end voxel end, or where the segment ends. Otherwise it returns
// the first voxel out of the region, w's tMax being that voxel's.
//
// The step is walk's, on a region cursor, with the axes renamed a, b, c
// in the order of majorFirst: the ties rule is the same in any order.
// The major axis a steps alone on nearly two thirds of a LiDAR scan's
// steps; it takes one comparison, ta < lim, lim being the least of tb,
// tc and 1, which changes only when b or c steps. b and c have a case
// each, ties the general step. (Ordering the axes made the walk about
// 5% faster, lim a few % more; in x, y, z order a case of its own for z
// measured slower.)
func (w *rayWalk) walkRegion(g *scanRegion, k, end Key, step [3]int32) (Key, bool) {
	a, b, c := majorFirst(w.dx, w.dy, w.dz)
	t, d := [3]float64{w.tx, w.ty, w.tz}, [3]float64{w.dx, w.dy, w.dz}
	ta, tb, tc := t[a], t[b], t[c]
	da, db, dc := d[a], d[b], d[c]
	qa, qb, qc := g.step(step[a], a), g.step(step[b], b), g.step(step[c], c)
	q := g.cursor(k)
	// The end voxel's index, and the region's check and inside, are read
	// from memory on every step: held in registers, they pushed the
	// cursor out of them.
	w.endRegion = -1
	if g.contains(end) {
		w.endRegion = g.index(end)
	}
	// The bitset's words are a power of two, and a voxel of the region
	// has its word among them: masking the word index tells the compiler
	// so, and costs less than a bounds check.
	set := g.bits[:1<<(g.log[0]+g.log[1]+g.log[2]-6)]
	if len(set) == 0 {
		panic("voxel: empty region")
	}
	words := uint(len(set) - 1)
	// a steps alone, the common step, exactly while ta < lim: ta is then
	// less than tb, tc and 1. lim changes only when b or c steps.
	lim := min(tb, tc, 1)
	for {
		i := int(q >> regionIndex)
		if i == w.endRegion {
			return k, true
		}
		set[uint(i)>>6&words] |= 1 << (i & 63)
		if ta < lim {
			ta, q = ta+da, q+qa
		} else {
			switch {
			case tb < ta && tb < tc:
				if !(tb < 1) {
					return k, true
				}
				tb, q = tb+db, q+qb
			case tc < ta && tc < tb:
				if !(tc < 1) {
					return k, true
				}
				tc, q = tc+dc, q+qc
			default: // a tie, or a least but not below 1
				tm := min(ta, tb, tc)
				if !(tm < 1) {
					return k, true
				}
				if ta == tm {
					ta, q = ta+da, q+qa
				}
				if tb == tm {
					tb, q = tb+db, q+qb
				}
				if tc == tm {
					tc, q = tc+dc, q+qc
				}
			}
			lim = min(tb, tc, 1)
		}
		if q&g.check != g.inside {
			t[a], t[b], t[c] = ta, tb, tc
			w.tx, w.ty, w.tz = t[0], t[1], t[2]
			return g.key(q), false
		}
	}
}

// majorFirst orders the axes by tDelta, least first: the axis that steps
// most, then the next. (Its branches are cheap: a scan's rays come in
// order of direction. Ranks computed without branches measured slower.)
func majorFirst(dx, dy, dz float64) (a, b, c int) {
	a, b, c = 0, 1, 2
	d := [3]float64{dx, dy, dz}
	if d[b] < d[a] {
		a, b = b, a
	}
	if d[c] < d[b] {
		b, c = c, b
		if d[b] < d[a] {
			a, b = b, a
		}
	}
	return a, b, c
}

// emptyBlock reports whether the region's bricks by, bz (region brick
// coordinates), a row of them along x, have no bit set. Most such rows
// have none, and their words lie in eight runs, one per z layer.
func (g *scanRegion) emptyBlock(by, bz int32) bool {
	lx, ly := g.log[0], g.log[1]
	some := uint64(0)
	for z := range int32(brickEdge) {
		p := (by*brickEdge | (bz*brickEdge+z)<<ly) << (lx - 6)
		for _, w := range g.bits[p : p+brickEdge<<(lx-6)] {
			some |= w
		}
	}
	return some == 0
}

// transpose8 transposes the 8×8 matrix of bytes r, byte j of r[i] being
// entry (i, j): in three rounds, swapping the off-diagonal blocks of
// 4×4, 2×2 and 1×1 bytes.
func transpose8(r *[8]uint64) {
	for _, s := range [3]struct {
		d     int
		shift uint
		mask  uint64
	}{{4, 32, 0x00000000ffffffff}, {2, 16, 0x0000ffff0000ffff}, {1, 8, 0x00ff00ff00ff00ff}} {
		for i := range 8 {
			if i&s.d != 0 {
				continue
			}
			a, b := r[i], r[i+s.d]
			r[i] = a&s.mask | b&s.mask<<s.shift
			r[i+s.d] = a>>s.shift&s.mask | b&^s.mask
		}
	}
}
