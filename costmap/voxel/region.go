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

// fields returns the bits of a cursor's fields that tell a voxel outside
// the region, and their value inside.
func (g *scanRegion) fields() (check, inside regionCursor) {
	for a := range 3 {
		check |= 3 << (a*regionField + int(g.log[a]))
		inside |= 1 << (a*regionField + int(g.log[a]))
	}
	return check, inside
}

// cursor returns the cursor of voxel k, which is in the region.
func (g *scanRegion) cursor(k Key) regionCursor {
	c := [3]int32{k.X - g.org.X, k.Y - g.org.Y, k.Z - g.org.Z}
	q := regionCursor(g.index(k)) << regionIndex
	for a := range 3 {
		q += regionCursor(c[a]+1<<g.log[a]) << (a * regionField)
	}
	return q
}

// step returns what a step of s (-1, 0 or 1) along axis a adds to a
// cursor.
func (g *scanRegion) step(s int32, a int) regionCursor {
	pos := uint(0) // the axis' place in the index
	for b := range a {
		pos += g.log[b]
	}
	return regionCursor(s)<<(a*regionField) + regionCursor(s)<<(regionIndex+pos)
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
// the first voxel out of the region, w's tMax being that voxel's. The
// step is walk's, on a region cursor.
func (w *rayWalk) walkRegion(g *scanRegion, k, end Key, step [3]int32) (Key, bool) {
	tx, ty, tz := w.tx, w.ty, w.tz
	dx, dy, dz := w.dx, w.dy, w.dz
	q := g.cursor(k)
	qx, qy, qz := g.step(step[0], 0), g.step(step[1], 1), g.step(step[2], 2)
	stop := -1
	if g.contains(end) {
		stop = g.index(end)
	}
	set := g.bits
	check, inside := g.fields()
	for {
		i := int(q >> regionIndex)
		if i == stop {
			return k, true
		}
		set[i>>6] |= 1 << (i & 63)
		switch {
		case tx < ty && tx < tz:
			if !(tx < 1) {
				return k, true
			}
			tx, q = tx+dx, q+qx
		case ty < tx && ty < tz:
			if !(ty < 1) {
				return k, true
			}
			ty, q = ty+dy, q+qy
		default: // z, or a tie (a case of its own for z measured slower here)
			tm := min(tx, ty, tz)
			if !(tm < 1) {
				return k, true
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
		if q&check != inside {
			w.tx, w.ty, w.tz = tx, ty, tz
			return g.key(q), false
		}
	}
}

// Endpoints in the region are noted there too, before any ray is walked,
// a bit per voxel at one random place (rather than a brick lookup and two
// per point in the table): their bricks, like the rays', then reach the
// table in the gather's order, brick row by brick row. A scan into a
// fresh map makes its bricks in that order too, so that later scans work
// on bricks lying nearly in the order of their addresses.

// regionEnd notes endpoint k, in the region, and reports whether its ray
// is to be cast: not when an earlier point of this scan ended in the same
// voxel (the bitset holds endpoints alone until the first ray is walked).
// Returns are marked after the gather (Map.regionHits).
func (m *Map) regionEnd(k Key) bool {
	in, g := &m.cs.Input, &m.sensor.table.region
	i := g.index(k)
	w, bit := i>>6, uint64(1)<<(i&63)
	if g.bits[w]&bit != 0 {
		in.Merged++
		return false
	}
	g.bits[w] |= bit
	in.Points++
	return true
}

// regionHits notes, in the scan table, the returns among rays (the rays
// cast, each endpoint once) whose endpoints regionEnd noted; the gather
// has given their bricks slots.
func (m *Map) regionHits(rays []ray) {
	t := &m.sensor.table
	for _, r := range rays {
		if !r.hit || !t.region.contains(r.key) {
			continue
		}
		if s := m.scanSlot(brickCoords(r.key)); s >= 0 { // roomFor rules out a refusal
			i := index(r.key)
			t.hits[s][i>>6] |= 1 << (i & 63)
		}
	}
}

// gatherRegion moves the region's bits to the scan table, brick by brick,
// giving each brick with bits a slot, and leaves the bitset zero. It
// reads the bitset in blocks of a brick row: for each run of eight
// bricks along x (a word of every voxel row) and each z layer, the eight
// rows' words, transposed (transpose8), are the eight bricks' layers.
func (m *Map) gatherRegion() {
	t := &m.sensor.table
	g := &t.region
	g.on = false
	lx, ly := g.log[0], g.log[1]
	base := brickCoords(g.org)
	for bz := range int32(1) << (g.log[2] - brickShift) {
		for by := range int32(1) << (ly - brickShift) {
			if g.emptyBlock(by, bz) {
				continue
			}
			for wx := range int32(1) << (lx - 6) {
				var slots [8]int // slot+1 of the eight bricks; 0: not looked up
				for z := range int32(brickEdge) {
					var rows [8]uint64 // by y; then by brick
					some := uint64(0)
					for y := range int32(brickEdge) {
						p := ((by*brickEdge+y)|(bz*brickEdge+z)<<ly)<<(lx-6) | wx
						rows[y] = g.bits[p]
						if rows[y] != 0 {
							some |= rows[y]
							g.bits[p] = 0
						}
					}
					if some == 0 {
						continue
					}
					transpose8(&rows)
					for b, layer := range rows {
						if layer == 0 {
							continue
						}
						if slots[b] == 0 {
							slots[b] = m.scanSlot(base.Add(wx*8+int32(b), by, bz)) + 1
						}
						if s := slots[b] - 1; s >= 0 {
							t.seen[s][z] |= layer
						} else {
							m.cs.Input.Refused++ // as a walk would; roomFor rules it out
						}
					}
				}
			}
		}
	}
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
