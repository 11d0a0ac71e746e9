package voxel

import "math/bits"

// scanTable holds the bricks one scan reaches, in the order it reaches
// them (slots), with the voxels it updates. Bricks inside the box of the
// scan's endpoints are found through a dense index, the rest through a
// hash. It lives for one scan: bricks may be dropped when the update
// commits. (Only cells, a cache of the map's bricks, outlives it.) It
// also holds the region (scanRegion), where the walk notes voxels before
// they go to their bricks.
type scanTable struct {
	org        Key                // brick coordinates (voxel >> brickShift) of the dense index's minimum corner
	nx, ny, nz int32              // extent of the dense index, bricks
	index      []int32            // [len = nx·ny·nz], x fastest: slot+1 of each brick; 0: not reached yet
	cells      []*brick           // [len = len(index)]: the map's brick at each place of index, or nil: not known
	cellsAt    [6]int32           // org and extent of the index that cells are for
	outer      map[brickKey]int32 // slot+1 of the bricks reached outside the dense index
	refs       []*brick           // by slot
	seen       []voxelBits        // by slot: the voxels the scan updates, endpoints (noted first, before any ray) and rays
	hits       []voxelBits        // by slot: the endpoints that are returns, to be marked; the rest of seen takes a miss
	region     scanRegion         // the voxels rays visit near the sensor, until gathered
}

// voxelBits holds a bit per voxel of a brick.
type voxelBits = [brickVoxels / 64]uint64

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
	// Cells stay while the index stays put, as it does while the sensor
	// moves within a brick: a scan then finds its bricks in the order of
	// the gather, rather than by a hash lookup each (a cache miss).
	if at := [6]int32{lo.X, lo.Y, lo.Z, t.nx, t.ny, t.nz}; at != t.cellsAt || len(t.cells) != n {
		t.cells = resize(t.cells, n)
		clear(t.cells)
		t.cellsAt = at
	}
	if t.outer == nil {
		t.outer = map[brickKey]int32{}
	}
	clear(t.outer)
	t.refs, t.seen, t.hits = t.refs[:0], t.seen[:0], t.hits[:0]
	t.region.on = false
}

// forget drops b from the cells, when the map drops it.
func (t *scanTable) forget(b *brick) {
	if d := t.dense(brickCoords(b.org)); d >= 0 && t.cells[d] == b {
		t.cells[d] = nil
	}
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
// giving it one when the scan first reaches it (found in the cells, else
// by Map.scanBrick); -1 when the memory limit refuses the brick.
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
	var b *brick
	if d >= 0 {
		b = t.cells[d]
	}
	if b == nil {
		if b = m.scanBrick(org); b == nil {
			return -1
		}
	}
	if d >= 0 {
		t.cells[d] = b
	}
	t.refs = append(t.refs, b)
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
// scan reached the bricks, prefetching the lines of the brick two ahead
// (and its head a brick before, prefetch.go): a hit to every return's
// voxel, a miss to every other voxel the scan updates
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
	for s, b := range t.refs {
		if s+3 < len(t.refs) {
			prefetchHead(t.refs[s+3])
		}
		if s+2 < len(t.refs) { // its head was prefetched a brick ago
			next, set := t.refs[s+2], &t.seen[s+2]
			if next.sensor != nil {
				prefetchLines(next.sensor, set)
			}
			prefetchLines(&next.occ, set)
			if early {
				prefetchLines(&next.cost, set)
			}
		}
		m.applyBrick(b, sensorLayer(b), &t.seen[s], &t.hits[s])
		if early {
			m.commitNow(b)
		}
	}
}

// applyBrick applies a hit to the voxels of b in hits and a miss to its
// other voxels in seen; sensor is b's sensor layer. The misses of free
// voxels, which stay free (the log-odds alone changes), nearly all of a
// scan's misses after the first, are done in a loop without branches.
// The other voxels (after the first scan about a tenth, mostly voxels
// seen for the first time at the edges of what earlier scans saw, which
// a branch would foresee badly) are left as they are, for missOthers.
func (m *Map) applyBrick(b *brick, sensor *[brickVoxels]int8, seen, hits *voxelBits) {
	freeMiss := &m.sensor.freeMiss
	for w := range seen {
		for word := hits[w]; word != 0; word &= word - 1 {
			m.observe(b, w<<6|trailingZeros(word), true)
		}
		other := uint64(0) // voxels not free
		for word := seen[w] &^ hits[w]; word != 0; word &= word - 1 {
			j := trailingZeros(word)
			i := w<<6 | j
			l := sensor[i]
			sensor[i] = freeMiss[uint8(l)]
			// Not free: log-odds noObservation or above 0, as a byte 1 to
			// 128, the bytes whose bit 7 is clear once 1 is taken off.
			other |= uint64((uint8(l)-1)>>7^1) << j
		}
		if other != 0 {
			m.missOthers(b, sensor, w, other)
		}
	}
}

// missOthers applies a miss to the voxels of set, none of them free, in
// z layer w (a word of voxels) of b. A voxel first seen that no other
// layer knows, nearly all of them, is done in line (what observe and
// recombine would do), and queued a word at a time; the others go to
// observe.
func (m *Map) missOthers(b *brick, sensor *[brickVoxels]int8, w int, set uint64) {
	first := m.sensor.freeMiss[0] // a miss of log-odds 0
	fresh := uint64(0)            // voxels first seen, free, that no other layer knows
	for word := set; word != 0; word &= word - 1 {
		i := w<<6 | trailingZeros(word)
		if sensor[i] == noObservation && b.occ[i] == unknown {
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
