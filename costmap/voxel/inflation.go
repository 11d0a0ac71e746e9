package voxel

import (
	"math"
	"slices"
)

// Inflation is kept exact and local. When obstacles appear or disappear,
// only voxels within the robot's kernel of them can change distance. The
// changed obstacles are grouped by 32³ super-block; for each group the map
// recomputes the exact squared distance on the group's bounding box grown
// by the kernel (the target), from the obstacles in the target grown by
// the kernel once more (the source, which holds every obstacle that can be
// nearest to a target voxel). The distance transform is Felzenszwalb and
// Huttenlocher's separable one ("Distance Transforms of Sampled
// Functions", 2012): exact squared Euclidean distances in linear time per
// line. Nav2's inflation layer uses the same transform on a padded region.
//
// Sphere: 3D distances; passes along x, y, z.
// Cylinder: an obstacle counts for voxel v when it lies between v and
// v + height − 1 vertically; a sliding window along z first, then 2D
// passes along x and y.

const superShift = 5 // super-blocks of 32³ voxels group obstacle changes

const inf32 = math.MaxInt32

// edtScratch is reused between windows and updates.
type edtScratch struct {
	ob     []bool    // source obstacles
	g1, g2 []int32   // pass outputs
	f, d   []int32   // one line in and out
	v      []int32   // FH: sites of the lower envelope
	z      []float64 // FH: boundaries between them
}

// kernel returns how far, per axis below and above, an obstacle change
// reaches: target = changed ⊕ (lo, hi), source = target ⊕ (hi, lo).
func (in *inflation) kernel() (lo, hi Key) {
	r := in.radius
	if in.shape == Cylinder {
		return Key{r, r, in.height - 1}, Key{r, r, 0}
	}
	return Key{r, r, r}, Key{r, r, r}
}

// inflate recomputes distances around the obstacles that changed in this
// Apply and queues every voxel whose distance changed.
func (m *Map) inflate() {
	if m.infl.radius == 0 || len(m.obstacles) == 0 {
		return
	}
	obs := m.obstacles
	super := func(k Key) brickKey {
		return brickOf(Key{k.X >> (superShift - brickShift), k.Y >> (superShift - brickShift), k.Z >> (superShift - brickShift)})
	}
	slices.SortFunc(obs, func(a, b Key) int {
		sa, sb := super(a), super(b)
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	lo, hi := m.infl.kernel()
	for start := 0; start < len(obs); {
		end, group := start, emptyBox
		for ; end < len(obs) && super(obs[end]) == super(obs[start]); end++ {
			group = group.Extend(obs[end])
		}
		m.window(group.grow(lo, hi))
		start = end
	}
}

// window recomputes the distance of every voxel in target, within the
// world: past ±MaxCoord a brick key would wrap into the next axis's
// field (brickOf) and name a brick across the world.
func (m *Map) window(target Box) {
	if target = target.Intersect(worldBox); target.Empty() {
		return
	}
	lo, hi := m.infl.kernel()
	source := target.grow(hi, lo)
	m.gather(source)
	if m.infl.shape == Cylinder {
		m.cylinderWindow(target, source)
	} else {
		m.sphereWindow(target, source)
	}
}

// gather fills e.ob with the obstacles of box s, x fastest; voxels
// outside the world are none.
func (m *Map) gather(s Box) {
	sx, sy, sz := int(s.Max.X-s.Min.X+1), int(s.Max.Y-s.Min.Y+1), int(s.Max.Z-s.Min.Z+1)
	e := &m.edt
	e.ob = resize(e.ob, sx*sy*sz)
	clear(e.ob)
	for bz := s.Min.Z &^ brickMask; bz <= s.Max.Z; bz += brickEdge {
		for by := s.Min.Y &^ brickMask; by <= s.Max.Y; by += brickEdge {
			for bx := s.Min.X &^ brickMask; bx <= s.Max.X; bx += brickEdge {
				org := Key{bx, by, bz}
				part := Box{org, org.Add(brickMask, brickMask, brickMask)}.Intersect(s).Intersect(worldBox)
				if part.Empty() {
					continue
				}
				b := m.bricks[brickOf(org)]
				if b == nil && !m.static.mayHoldObstacles(part) {
					continue
				}
				for z := part.Min.Z; z <= part.Max.Z; z++ {
					for y := part.Min.Y; y <= part.Max.Y; y++ {
						row := int(y-s.Min.Y)*sx + int(z-s.Min.Z)*sx*sy - int(s.Min.X)
						for x := part.Min.X; x <= part.Max.X; x++ {
							k := Key{x, y, z}
							if b != nil {
								e.ob[row+int(x)] = b.occ[index(k)] == occupied
							} else {
								e.ob[row+int(x)] = m.static.at(k) == occupied
							}
						}
					}
				}
			}
		}
	}
}

func (m *Map) sphereWindow(t, s Box) {
	e := &m.edt
	r := int(m.infl.radius)
	sx, sy, sz := int(s.Max.X-s.Min.X+1), int(s.Max.Y-s.Min.Y+1), int(s.Max.Z-s.Min.Z+1)
	tx, ty, tz := int(t.Max.X-t.Min.X+1), int(t.Max.Y-t.Min.Y+1), int(t.Max.Z-t.Min.Z+1)
	// x: distance along each line to the nearest obstacle, for the target's x
	e.g1 = resize(e.g1, tx*sy*sz)
	for z := range sz {
		for y := range sy {
			line := e.ob[(y+z*sy)*sx : (y+z*sy+1)*sx]
			lineDistance(line, r, e.g1[(y+z*sy)*tx:(y+z*sy+1)*tx], r)
		}
	}
	// y: lower envelope over the source's y, for the target's y
	e.g2 = resize(e.g2, tx*ty*sz)
	e.f, e.d = resize(e.f, max(sy, sz)), resize(e.d, max(sy, sz))
	for z := range sz {
		for x := range tx {
			for y := range sy {
				e.f[y] = e.g1[x+tx*(y+sy*z)]
			}
			e.envelope(sy, r, r, r+ty)
			for y := range ty {
				e.g2[x+tx*(y+ty*z)] = e.d[r+y]
			}
		}
	}
	// z, then store
	for y := range ty {
		for x := range tx {
			for z := range sz {
				e.f[z] = e.g2[x+tx*(y+ty*z)]
			}
			e.envelope(sz, r, r, r+tz)
			for z := range tz {
				m.setD2(Key{t.Min.X + int32(x), t.Min.Y + int32(y), t.Min.Z + int32(z)}, e.d[r+z])
			}
		}
	}
}

func (m *Map) cylinderWindow(t, s Box) {
	e := &m.edt
	r, h := int(m.infl.radius), int(m.infl.height)
	sx, sy := int(s.Max.X-s.Min.X+1), int(s.Max.Y-s.Min.Y+1)
	tx, ty, tz := int(t.Max.X-t.Min.X+1), int(t.Max.Y-t.Min.Y+1), int(t.Max.Z-t.Min.Z+1)
	// z: does any obstacle lie in [z, z+h−1] above each target voxel? The
	// source starts at the target's lowest z, so source index z is target z.
	band := resize(e.g2, sx*sy*tz) // 0/1, reused as scratch
	for y := range sy {
		for x := range sx {
			count := 0
			col := x + sx*y
			for z := range h - 1 { // prime the window with [0, h−2]
				if e.ob[col+sx*sy*z] {
					count++
				}
			}
			for z := range tz {
				if e.ob[col+sx*sy*(z+h-1)] {
					count++
				}
				band[col+sx*sy*z] = int32(min(count, 1))
				if e.ob[col+sx*sy*z] {
					count--
				}
			}
		}
	}
	e.g2 = band
	// x
	e.g1 = resize(e.g1, tx*sy*tz)
	for z := range tz {
		for y := range sy {
			lineDistanceInt(band[(y+z*sy)*sx:(y+z*sy+1)*sx], r, e.g1[(y+z*sy)*tx:(y+z*sy+1)*tx], r)
		}
	}
	// y, then store
	e.f, e.d = resize(e.f, sy), resize(e.d, sy)
	for z := range tz {
		for x := range tx {
			for y := range sy {
				e.f[y] = e.g1[x+tx*(y+sy*z)]
			}
			e.envelope(sy, r, r, r+ty)
			for y := range ty {
				m.setD2(Key{t.Min.X + int32(x), t.Min.Y + int32(y), t.Min.Z + int32(z)}, e.d[r+y])
			}
		}
	}
}

// lineDistance writes, for each of len(out) positions starting at off in
// line, the squared distance to the nearest true element, or inf32 when it
// is more than r away.
func lineDistance(line []bool, r int, out []int32, off int) {
	n := len(line)
	last := -1 << 30 // position of the last obstacle seen, sweeping up
	for i := 0; i < off+len(out); i++ {
		if line[i] {
			last = i
		}
		if i >= off {
			out[i-off] = sq(i-last, r)
		}
	}
	next := 1 << 30
	for i := n - 1; i >= off; i-- {
		if line[i] {
			next = i
		}
		if i < off+len(out) {
			out[i-off] = min(out[i-off], sq(next-i, r))
		}
	}
}

// lineDistanceInt is lineDistance over a 0/1 line.
func lineDistanceInt(line []int32, r int, out []int32, off int) {
	n := len(line)
	last := -1 << 30
	for i := 0; i < off+len(out); i++ {
		if line[i] != 0 {
			last = i
		}
		if i >= off {
			out[i-off] = sq(i-last, r)
		}
	}
	next := 1 << 30
	for i := n - 1; i >= off; i-- {
		if line[i] != 0 {
			next = i
		}
		if i < off+len(out) {
			out[i-off] = min(out[i-off], sq(next-i, r))
		}
	}
}

func sq(d, r int) int32 {
	if d > r {
		return inf32
	}
	return int32(d * d)
}

// envelope computes e.d[q] = min over p of e.f[p] + (q−p)² for q in
// [from, to), over the n values of e.f, inf32 meaning no site; results
// above r² become inf32.
func (e *edtScratch) envelope(n, r, from, to int) {
	e.v, e.z = resize(e.v, n), resize(e.z, n+1)
	f, v, z := e.f, e.v, e.z
	k := -1
	for q := range n {
		fq := f[q]
		if fq == inf32 {
			continue
		}
		var s float64
		for k >= 0 {
			p := int(v[k])
			s = float64(int(fq)+q*q-int(f[p])-p*p) / float64(2*(q-p))
			if s > z[k] {
				break
			}
			k--
		}
		k++
		v[k] = int32(q)
		if k == 0 {
			z[0] = math.Inf(-1)
		} else {
			z[k] = s
		}
		z[k+1] = math.Inf(1)
	}
	limit := r * r
	if k < 0 {
		for q := from; q < to; q++ {
			e.d[q] = inf32
		}
		return
	}
	k = 0
	for q := from; q < to; q++ {
		for z[k+1] < float64(q) {
			k++
		}
		p := int(v[k])
		d := (q-p)*(q-p) + int(f[p])
		if d > limit {
			d = inf32
		}
		e.d[q] = int32(d)
	}
}

// setD2 stores the squared distance of voxel k (inf32 or beyond the radius:
// far) and queues k when it changed.
func (m *Map) setD2(k Key, d int32) {
	d2 := uint16(far)
	if d != inf32 {
		d2 = uint16(d)
	}
	b := m.lookup(k)
	if b == nil {
		if d2 == far {
			return
		}
		if b = m.get(k); b == nil {
			m.cs.Input.Refused++
			m.owe(k)
			return
		}
	}
	i := index(k)
	old := uint16(far)
	if b.d2 != nil {
		old = b.d2[i]
	}
	if old == d2 {
		return
	}
	if b.d2 == nil {
		b.d2 = new([brickVoxels]uint16)
		for j := range b.d2 {
			b.d2[j] = far
		}
	}
	b.d2[i] = d2
	switch {
	case old == far:
		b.near++
	case d2 == far:
		if b.near--; b.near == 0 {
			b.d2 = nil
		}
	}
	m.touch(b, i)
}

// resize returns s with length n, reallocating only to grow.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
