package voxel

// The static layer is what a map file or /map says: a 2D grid extruded
// over a z band (columns), or a 3D set of blocked voxels inside a free box
// (a Moving AI map). It is stored at its own scale, not voxel by voxel, so
// a 4000×4000 grid or a 62-million-voxel benchmark map costs what its
// source costs; bricks are only made where other layers or inflation need
// them.

// staticLayer is at most one of columns or set.
type staticLayer struct {
	cols *columns
	set  *voxelSet
}

// columns is an extruded 2D grid at voxel resolution.
type columns struct {
	box   Box     // x, y: the grid's columns; z: the band
	w     int32   // columns per row
	state []uint8 // [len = w·rows] unknown, free or occupied, per column
}

// voxelSet is a box of free voxels with some blocked.
type voxelSet struct {
	box     Box
	blocked map[brickKey]*[brickVoxels / 64]uint64
	count   int
}

func (s *staticLayer) at(k Key) uint8 {
	switch {
	case s.cols != nil:
		c := s.cols
		if !c.box.Contains(k) {
			return unknown
		}
		return c.state[(k.X-c.box.Min.X)+(k.Y-c.box.Min.Y)*c.w]
	case s.set != nil:
		if !s.set.box.Contains(k) {
			return unknown
		}
		if bits := s.set.blocked[brickOf(k)]; bits != nil && bits[index(k)>>6]&(1<<(index(k)&63)) != 0 {
			return occupied
		}
		return free
	}
	return unknown
}

// fill sets the occupancy of every voxel of a new brick from the layer.
func (s *staticLayer) fill(b *brick) {
	if s.extent().Intersect(b.box()).Empty() {
		return // all unknown, the zero state
	}
	for i := range b.occ {
		b.occ[i] = s.at(b.keyAt(i))
	}
}

// extent returns the box outside which every voxel is unknown.
func (s *staticLayer) extent() Box {
	switch {
	case s.cols != nil:
		return s.cols.box
	case s.set != nil:
		return s.set.box
	}
	return emptyBox
}

// mayHoldObstacles reports whether b may contain a static obstacle.
func (s *staticLayer) mayHoldObstacles(b Box) bool {
	switch {
	case s.cols != nil:
		return !s.cols.box.Intersect(b).Empty()
	case s.set != nil:
		if s.set.box.Intersect(b).Empty() {
			return false
		}
		for bz := b.Min.Z &^ brickMask; bz <= b.Max.Z; bz += brickEdge {
			for by := b.Min.Y &^ brickMask; by <= b.Max.Y; by += brickEdge {
				for bx := b.Min.X &^ brickMask; bx <= b.Max.X; bx += brickEdge {
					if s.set.blocked[brickOf(Key{bx, by, bz})] != nil {
						return true
					}
				}
			}
		}
	}
	return false
}

// eachObstacle calls fn for every voxel the layer holds occupied.
func (s *staticLayer) eachObstacle(fn func(Key)) {
	switch {
	case s.cols != nil:
		c := s.cols
		for y := c.box.Min.Y; y <= c.box.Max.Y; y++ {
			for x := c.box.Min.X; x <= c.box.Max.X; x++ {
				if c.state[(x-c.box.Min.X)+(y-c.box.Min.Y)*c.w] != occupied {
					continue
				}
				for z := c.box.Min.Z; z <= c.box.Max.Z; z++ {
					fn(Key{x, y, z})
				}
			}
		}
	case s.set != nil:
		for bk, bits := range s.set.blocked {
			org := brickKeyOrigin(bk)
			for w, word := range bits {
				for ; word != 0; word &= word - 1 {
					i := w<<6 | trailingZeros(word)
					fn((&brick{org: org}).keyAt(i))
				}
			}
		}
	}
}

// brickKeyOrigin inverts brickOf.
func brickKeyOrigin(bk brickKey) Key {
	const off, mask = 1 << 20, 1<<21 - 1
	return Key{
		X: (int32(uint64(bk)&mask) - off) << brickShift,
		Y: (int32(uint64(bk)>>21&mask) - off) << brickShift,
		Z: (int32(uint64(bk)>>42&mask) - off) << brickShift,
	}
}

// replaceStatic swaps in a new static layer. When both layers are column
// grids of the same geometry and few columns differ, the change set lists
// every changed voxel; otherwise it holds one region covering both layers'
// extents grown by the robot's kernel, and lists nothing inside it.
func (m *Map) replaceStatic(next staticLayer) {
	prev := m.static
	m.prevStatic = &prev
	m.static = next
	if diff, ok := columnDiff(prev.cols, next.cols); ok {
		c := next.cols
		for _, col := range diff {
			x, y := c.box.Min.X+col%c.w, c.box.Min.Y+col/c.w
			for z := c.box.Min.Z; z <= c.box.Max.Z; z++ {
				m.restatic(Key{x, y, z})
			}
		}
		return
	}
	// Costs can change within the robot's kernel of either layer.
	lo, hi := m.infl.kernel()
	region := prev.extent().Union(next.extent())
	if !region.Empty() {
		region = region.grow(lo, hi)
	}
	m.cs.addRegion(region)
	for _, b := range m.bricks {
		part := b.box().Intersect(region)
		if part.Empty() {
			continue
		}
		for i := range b.occ {
			if part.Contains(b.keyAt(i)) {
				m.recombine(b, i)
			}
		}
	}
	if m.infl.radius > 0 { // obstacles outside bricks have no distances yet
		next.eachObstacle(func(k Key) {
			if m.lookup(k) == nil {
				m.restatic(k)
			}
		})
	}
}

// restatic recomputes voxel k after a static change, making its brick.
func (m *Map) restatic(k Key) {
	b := m.get(k)
	if b == nil {
		m.cs.Input.Refused++
		return
	}
	m.recombine(b, index(k))
}

// maxListedVoxels bounds the voxels a static change lists one by one.
const maxListedVoxels = 1 << 20

// columnDiff returns the columns whose state differs between two grids of
// the same geometry, and false when the grids differ in geometry or too
// many voxels changed to list.
func columnDiff(a, b *columns) ([]int32, bool) {
	if a == nil || b == nil || a.box != b.box {
		return nil, false
	}
	band := int(b.box.Max.Z - b.box.Min.Z + 1)
	var diff []int32
	for i := range b.state {
		if a.state[i] != b.state[i] {
			if diff = append(diff, int32(i)); len(diff)*band > maxListedVoxels {
				return nil, false
			}
		}
	}
	return diff, true
}
