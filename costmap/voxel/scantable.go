package voxel

import "math/bits"

// scanTable holds the bricks one scan reaches, in the order it reaches
// them (slots), with the voxels it updates. Bricks inside the box of the
// scan's endpoints are found through a dense index, the rest through a
// hash. It lives for one scan: bricks may be dropped when the update
// commits. It also holds the region (scanRegion), where the walk notes
// voxels before they go to their bricks.
type scanTable struct {
	org        Key                // brick coordinates (voxel >> brickShift) of the dense index's minimum corner
	nx, ny, nz int32              // extent of the dense index, bricks
	index      []int32            // [len = nx·ny·nz], x fastest: slot+1 of each brick; 0: not reached yet
	outer      map[brickKey]int32 // slot+1 of the bricks reached outside the dense index
	refs       []brickRef         // by slot
	seen       []voxelBits        // by slot: the voxels the scan updates, endpoints (noted first, before any ray) and rays
	hits       []voxelBits        // by slot: the endpoints that are returns, to be marked; the rest of seen takes a miss
	region     scanRegion         // the voxels rays visit near the sensor, until gathered
}

// voxelBits holds a bit per voxel of a brick.
type voxelBits = [brickVoxels / 64]uint64

// brickRef is a brick in the scan table, with its log-odds.
type brickRef struct {
	b      *brick
	sensor *[brickVoxels]int8 // b.sensor
}

// indexHalf bounds the dense index to a cube of 2·indexHalf bricks per
// axis around the sensor (440 KB).
const indexHalf = 24

// reset empties the table and sets its dense index to the bricks of box b
// (voxel coordinates), clipped to the cube of indexHalf bricks around
// voxel c. An index much larger than the rays can reach (a few far
// points) is left empty.
func (t *scanTable) reset(b Box, c Key, rays int) {
	lo, hi, cb := brickCoords(b.Min), brickCoords(b.Max), brickCoords(c)
	lo = Key{max(lo.X, cb.X-indexHalf), max(lo.Y, cb.Y-indexHalf), max(lo.Z, cb.Z-indexHalf)}
	hi = Key{min(hi.X, cb.X+indexHalf-1), min(hi.Y, cb.Y+indexHalf-1), min(hi.Z, cb.Z+indexHalf-1)}
	t.org, t.nx, t.ny, t.nz = lo, max(hi.X-lo.X+1, 0), max(hi.Y-lo.Y+1, 0), max(hi.Z-lo.Z+1, 0)
	n := int(t.nx) * int(t.ny) * int(t.nz)
	if n > 64*rays+4096 {
		t.nx, n = 0, 0
	}
	t.index = resize(t.index, n)
	clear(t.index)
	if t.outer == nil {
		t.outer = map[brickKey]int32{}
	}
	clear(t.outer)
	t.refs, t.seen, t.hits = t.refs[:0], t.seen[:0], t.hits[:0]
	t.region.on = false
}

// release forgets the table's bricks, so that none is kept alive after
// it is dropped.
func (t *scanTable) release() {
	clear(t.refs)
	t.refs = t.refs[:0]
}

// brickCoords returns the brick coordinates of the brick holding voxel k.
func brickCoords(k Key) Key {
	return Key{k.X >> brickShift, k.Y >> brickShift, k.Z >> brickShift}
}

// dense returns the position in the dense index of the brick with brick
// coordinates bk, or -1 when it is outside.
func (t *scanTable) dense(bk Key) int {
	x, y, z := bk.X-t.org.X, bk.Y-t.org.Y, bk.Z-t.org.Z
	if uint32(x) >= uint32(t.nx) || uint32(y) >= uint32(t.ny) || uint32(z) >= uint32(t.nz) {
		return -1
	}
	return int(x) + int(t.nx)*(int(y)+int(t.ny)*int(z))
}

// scanSlot returns the table slot of the brick with brick coordinates bk,
// giving it one, with its sensor layer, when the scan first reaches it;
// -1 when the memory limit refuses the brick.
func (m *Map) scanSlot(bk Key) int {
	t := &m.sensor.table
	org := Key{bk.X << brickShift, bk.Y << brickShift, bk.Z << brickShift}
	key := brickOf(org)
	d := t.dense(bk)
	if d >= 0 && t.index[d] != 0 {
		return int(t.index[d] - 1)
	}
	if d < 0 && t.outer[key] != 0 {
		return int(t.outer[key] - 1)
	}
	b := m.sensorBrick(org)
	if b == nil {
		return -1
	}
	t.refs = append(t.refs, brickRef{b, b.sensor})
	t.seen = append(t.seen, voxelBits{})
	t.hits = append(t.hits, voxelBits{})
	s := int32(len(t.refs))
	if d >= 0 {
		t.index[d] = s
	} else {
		t.outer[key] = s
	}
	return int(s - 1)
}

// roomFor reports whether the memory limit leaves room for a brick at
// every place a scan with endpoints in box b (voxels, the sensor's voxel
// included) can reach: its rays stay inside b, give or take a voxel of
// rounding, so inside b's bricks grown by one each way.
func (m *Map) roomFor(b Box) bool {
	lo, hi := brickCoords(b.Min), brickCoords(b.Max)
	n := int64(hi.X-lo.X+3) * int64(hi.Y-lo.Y+3) * int64(hi.Z-lo.Z+3)
	return n <= int64(m.cfg.MaxBricks-len(m.bricks))
}

// applyScan applies the scan's evidence, brick by brick in the order the
// scan reached the bricks, the next brick's lines read ahead: a hit to
// every return's voxel, a miss to every other voxel the scan updates
// (crossed by rays, or a point's cut at MaxRange). Each voxel takes one
// update, so their order changes nothing but the listing order of the
// change set.
//
// Without inflation a voxel's cost follows from its occupancy alone, and
// every voxel a scan changes is queued while its brick is worked on
// (the brick's slot is reached once): each brick's costs are then
// committed right after its voxels, while its lines are still in the
// cache, rather than by Map.commit after the whole scan.
func (m *Map) applyScan() {
	t := &m.sensor.table
	early := m.infl.radius == 0
	var sink uint8
	for s, ref := range t.refs {
		if s+1 < len(t.refs) {
			next, set := &t.refs[s+1], &t.seen[s+1]
			sink ^= touchLines(next.sensor, set) ^ touchLines(&next.b.occ, set)
			if early {
				sink ^= touchLines(&next.b.cost, set)
			}
		}
		m.applyBrick(ref, &t.seen[s], &t.hits[s])
		if early {
			m.commitNow(ref.b)
		}
	}
	m.sink ^= sink
}

// applyBrick applies a hit to the voxels of ref's brick in hits and a miss
// to its other voxels in seen. Two kinds of miss, nearly all of them, are
// done in line: of a free voxel that stays free (the log-odds alone
// changes), and of a voxel first seen that no other layer knows (what
// observe and recombine would do); the latter are queued a word at a time.
func (m *Map) applyBrick(ref brickRef, seen, hits *voxelBits) {
	b, sensor := ref.b, ref.sensor
	freeMiss, first := &m.sensor.freeMiss, m.sensor.freeMiss[0]
	for w := range seen {
		for word := hits[w]; word != 0; word &= word - 1 {
			m.observe(b, w<<6|trailingZeros(word), true)
		}
		fresh := uint64(0) // voxels first seen, free, that no other layer knows
		for word := seen[w] &^ hits[w]; word != 0; word &= word - 1 {
			i := w<<6 | trailingZeros(word)
			l := sensor[i]
			if n := freeMiss[uint8(l)]; n != noObservation {
				sensor[i] = n // free stays free
			} else if l == noObservation && b.occ[i] == unknown {
				sensor[i], b.occ[i] = first, free
				fresh |= word & -word
			} else {
				m.observe(b, i, false)
			}
		}
		if fresh != 0 {
			b.seen += int32(bits.OnesCount64(fresh))
			m.touchWord(b, w, fresh)
		}
	}
}

// commitNow commits b's queued voxels now, if any, rather than in
// Map.commit. It leaves b out of this Apply's queue: a voxel queued later
// queues b again.
func (m *Map) commitNow(b *brick) {
	if b.gen != m.gen {
		return
	}
	m.commitBrick(b, m.listing(b))
	if n := len(m.dirty) - 1; m.dirty[n] == b {
		m.dirty = m.dirty[:n]
	}
	b.gen = 0 // no Apply's generation
}

// touchLines reads a byte of each cache line of a brick's layer that
// holds a voxel of set (a line is a z layer, a word of set), so that the
// processor fetches them all at once while the brick before is worked
// on, rather than one after the other as voxels are reached. The bytes
// read are returned, to be kept (Map.sink): a read left unused would be
// dropped by the compiler.
func touchLines[T int8 | uint8](l *[brickVoxels]T, set *voxelBits) uint8 {
	var x uint8
	for w, bits := range set {
		if bits != 0 {
			x ^= uint8(l[w<<6])
		}
	}
	return x
}
