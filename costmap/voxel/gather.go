package voxel

import "unsafe"

// The region's bits (region.go) reach the scan table here: endpoints are
// noted in the region (Map.regionEnd), the walk's bits are then gathered
// brick by brick (Map.gatherRegion), and the returns among the endpoints
// noted as hits (Map.regionHits).
//
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

// prefetchBit prefetches the word of voxel k's bit, if k is in the
// region.
func (g *scanRegion) prefetchBit(k Key) {
	if g.contains(k) {
		prefetch(unsafe.Pointer(&g.bits[g.index(k)>>6]))
	}
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
