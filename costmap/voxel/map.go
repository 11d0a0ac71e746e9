package voxel

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/golang/geo/r3"
)

// Map is a sparse 3D voxel costmap. It is not safe for concurrent use: one
// goroutine owns it, applies updates and answers queries between them.
type Map struct {
	cfg    Config
	frame  Frame
	infl   inflation
	model  sensorModel
	bricks map[brickKey]*brick
	recent *[recentSize]recentBrick // direct-mapped cache of bricks by key hash, in front of bricks
	static staticLayer
	// prevStatic is, during an Apply that replaces the static layer, the
	// layer that voxels outside bricks had before it; nil otherwise.
	prevStatic *staticLayer

	sensor sensorState
	shapes map[ShapeID]*shapeRecord
	// owed holds the bricks where the memory limit refused a voxel's
	// inflation distance; those costs are missing until an Apply with room
	// settles them.
	owed map[brickKey]struct{}

	// Per-Apply state.
	gen        uint32
	dirty      []*brick // bricks with voxels whose cost may have changed (their touched bits), each once
	obstacles  []Key    // voxels whose obstacle bit flipped
	cs         *ChangeSet
	memFull    bool // an allocation was refused in this Apply
	edt        edtScratch
	scanPoints []r3.Vector // reused by Scan
	farCost    [4]Cost     // by occupancy: the cost of a voxel with no obstacle within the inflation radius
}

// New returns an empty map: every voxel Unknown.
func New(cfg Config) (*Map, error) {
	cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &Map{
		cfg:    cfg,
		frame:  Frame{Origin: cfg.Origin, Resolution: cfg.Resolution},
		infl:   newInflation(cfg),
		model:  newSensorModel(cfg.Sensor),
		bricks: map[brickKey]*brick{},
		recent: new([recentSize]recentBrick),
		shapes: map[ShapeID]*shapeRecord{},
	}
	m.sensor.init(m.model)
	for occ := range m.farCost {
		m.farCost[occ] = m.infl.costOf(uint8(occ), far)
	}
	return m, nil
}

// Frame returns where the map's voxels are in the map frame.
func (m *Map) Frame() Frame { return m.frame }

// Config returns the map's configuration, defaults filled in.
func (m *Map) Config() Config { return m.cfg }

// Update is an input to Apply: *Grid, *StaticVoxels, *Cloud, *Scan,
// PutShape, DeleteShape, ClearShapes, Expire or MoveWindow.
type Update interface {
	apply(m *Map) error
}

// Apply applies u and returns what changed.
func (m *Map) Apply(u Update) (*ChangeSet, error) {
	cs := new(ChangeSet)
	err := m.ApplyInto(cs, u)
	return cs, err
}

// ApplyInto applies u and writes what changed into cs, reusing its slices.
// On error the map stays consistent: cs holds the changes of the part that
// was applied (ErrMemory), or nothing (every other error).
func (m *Map) ApplyInto(cs *ChangeSet, u Update) error {
	m.begin(cs)
	err := u.apply(m)
	m.finish()
	if err == nil && m.memFull {
		err = fmt.Errorf("%w: %d bricks", ErrMemory, len(m.bricks))
	}
	return err
}

func (m *Map) begin(cs *ChangeSet) {
	cs.reset()
	m.cs = cs
	m.newPass()
	m.obstacles = m.obstacles[:0]
	m.memFull = false
}

// newPass empties the queue of bricks to commit.
func (m *Map) newPass() {
	m.gen++
	if m.gen == 0 { // wrapped: clear every stamp so no brick looks touched
		for _, b := range m.bricks {
			b.gen = 0
		}
		m.gen = 1
	}
	m.dirty = m.dirty[:0]
}

// finish turns the layer changes of this Apply into costs and a change set.
func (m *Map) finish() {
	m.inflate()
	m.commit()
	m.settle()
	m.prevStatic = nil
	m.cs = nil
}

// owe records that voxel k's inflation distance had no room.
func (m *Map) owe(k Key) {
	if m.owed == nil {
		m.owed = map[brickKey]struct{}{}
	}
	m.owed[brickOf(k)] = struct{}{}
}

// settle recomputes the distances earlier updates had no room for, once
// the memory limit leaves room again, and commits their costs into this
// Apply's change set. A refusal here is owed again; it does not make
// this Apply fail.
func (m *Map) settle() {
	if len(m.owed) == 0 || len(m.bricks) >= m.cfg.MaxBricks {
		return
	}
	full := m.memFull
	owed := make([]brickKey, 0, len(m.owed))
	for bk := range m.owed {
		owed = append(owed, bk)
	}
	clear(m.owed)
	m.newPass()
	for _, bk := range owed {
		org := brickKeyOrigin(bk)
		m.window(Box{org, org.Add(brickMask, brickMask, brickMask)})
	}
	m.commit()
	m.memFull = full
}

// recentSize is the number of slots of the brick cache: 2048 of 16
// bytes, 32 KB per map.
const (
	recentBits = 11
	recentSize = 1 << recentBits
)

// recentBrick is a slot of the brick cache. It holds the brick's key, so
// that a lookup reads no brick: a brick a scan reaches is rarely in the
// processor's cache.
type recentBrick struct {
	key brickKey
	b   *brick // nil: empty
}

// recentSlot hashes a brick key to its cache slot.
func recentSlot(bk brickKey) uint64 { return uint64(bk) * 0x9e3779b97f4a7c15 >> (64 - recentBits) }

// lookup returns the brick holding k, or nil.
func (m *Map) lookup(k Key) *brick {
	bk := brickOf(k)
	slot := &m.recent[recentSlot(bk)]
	if slot.b != nil && slot.key == bk {
		return slot.b
	}
	b := m.bricks[bk]
	if b != nil {
		*slot = recentBrick{bk, b}
	}
	return b
}

// get returns the brick holding k, creating it if needed; nil when the
// memory limit refuses it.
func (m *Map) get(k Key) *brick {
	if b := m.lookup(k); b != nil {
		return b
	}
	return m.create(k, nil)
}

// create makes the brick holding k, not in the map yet, in b when b is
// not nil; nil when the memory limit refuses it.
func (m *Map) create(k Key, b *brick) *brick {
	if len(m.bricks) >= m.cfg.MaxBricks {
		m.memFull = true
		return nil
	}
	if b == nil {
		b = new(brick)
	}
	b.org = brickOrigin(k)
	st := &m.static
	if m.prevStatic != nil {
		st = m.prevStatic // a new brick must start from the costs reported before this Apply
	}
	if st.extent().Intersect(b.box()).Empty() {
		b.cost = allUnknown // what costOf gives an unknown voxel with no obstacle near
	} else {
		st.fill(b)
		for i, occ := range b.occ {
			b.cost[i] = m.farCost[occ&3]
		}
	}
	m.bricks[brickOf(k)] = b
	m.recent[recentSlot(brickOf(k))] = recentBrick{brickOf(k), b}
	if m.prevStatic != nil {
		// The brick reports the old costs; its voxels take the new
		// static state and are queued where that differs. (Every voxel
		// whose obstacle bit flips already has a brick by the time
		// inflation makes more.)
		for i := range b.occ {
			m.recombine(b, i)
		}
	}
	return b
}

// allUnknown is the cost of every voxel of a brick that no layer knows.
var allUnknown = func() (c [brickVoxels]Cost) {
	for i := range c {
		c[i] = Unknown
	}
	return c
}()

// touch queues voxel i of b for a cost update in this Apply, once.
func (m *Map) touch(b *brick, i int) { m.touchWord(b, i>>6, 1<<(i&63)) }

// touchWord queues the voxels of set, a word of b's voxels (w: the word's
// index, a z layer), as touch does.
func (m *Map) touchWord(b *brick, w int, set uint64) {
	if b.gen != m.gen {
		b.gen, b.touched = m.gen, [brickVoxels / 64]uint64{}
		m.dirty = append(m.dirty, b)
	}
	b.touched[w] |= set
}

// recombine recomputes the occupancy of voxel i of b from its layers and
// queues what follows from a change.
func (m *Map) recombine(b *brick, i int) {
	s := m.static.at(b.keyAt(i))
	if b.shapes != nil && b.shapes[i] > 0 {
		s = occupied
	} else if b.sensor != nil {
		s = max(s, sensorOcc(b.sensor[i]))
	}
	old := b.occ[i]
	if s == old {
		return
	}
	b.occ[i] = s
	m.touch(b, i)
	if (old == occupied) != (s == occupied) {
		m.obstacles = append(m.obstacles, b.keyAt(i))
	}
}

// commit writes the cost of every queued voxel and records what changed,
// except inside the change set's regions, then drops bricks left holding
// nothing. It prefetches the lines of the brick two ahead, whose touched
// bits it prefetched a brick before (prefetch.go).
func (m *Map) commit() {
	for k, b := range m.dirty {
		if k+3 < len(m.dirty) {
			prefetchHead(m.dirty[k+3])
		}
		if k+2 < len(m.dirty) {
			next := m.dirty[k+2]
			prefetchLines(&next.occ, &next.touched)
			prefetchLines(&next.cost, &next.touched)
		}
		m.commitBrick(b, m.listing(b))
	}
	for _, b := range m.dirty {
		if b.empty() && m.bricks[brickOf(b.org)] == b {
			m.drop(b)
		}
	}
}

// commitBrick writes the cost of b's queued voxels and lists those that
// changed as list says. A LiDAR scan lists millions: the lists and the
// bounds are kept in locals, and the bounds grown once per brick.
func (m *Map) commitBrick(b *brick, list int) {
	if b.d2 == nil && list == listAll {
		m.commitFar(b)
		return
	}
	cs := m.cs
	rose, fell := m.changeLists(b)
	var listed voxelBits // voxels listed
	for w, word := range b.touched {
		for ; word != 0; word &= word - 1 {
			i := w<<6 | trailingZeros(word)
			d2 := uint16(far)
			if b.d2 != nil {
				d2 = b.d2[i]
			}
			c, old := m.infl.costOf(b.occ[i], d2), b.cost[i]
			if c == old {
				continue
			}
			b.cost[i] = c
			k := b.keyAt(i)
			if list == listNone || list == listSome && cs.inRegions(k) {
				continue
			}
			if c > old {
				rose = append(rose, Change{k, old, c})
			} else {
				fell = append(fell, Change{k, old, c})
			}
			listed[w] |= 1 << (i & 63)
		}
	}
	cs.Rose, cs.Fell = rose, fell
	cs.Bounds = cs.Bounds.Union(b.extent(&listed))
}

// commitFar is commitBrick for a brick with no obstacle within the
// inflation radius (the cost of each voxel follows from its occupancy
// alone) that lists all its voxels: nearly every brick a scan reaches.
func (m *Map) commitFar(b *brick) {
	cs := m.cs
	rose, fell := m.changeLists(b)
	var listed voxelBits
	farCost := &m.farCost
	for w, word := range b.touched {
		z := b.org.Z + int32(w)
		for ; word != 0; word &= word - 1 {
			j := trailingZeros(word) // x | y<<3
			i := w<<6 | j
			c, old := farCost[b.occ[i]&3], b.cost[i]
			if c == old {
				continue
			}
			b.cost[i] = c
			k := Key{b.org.X + int32(j&brickMask), b.org.Y + int32(j>>brickShift), z}
			if c > old {
				rose = append(rose, Change{k, old, c})
			} else {
				fell = append(fell, Change{k, old, c})
			}
			listed[w] |= word & -word
		}
	}
	cs.Rose, cs.Fell = rose, fell
	cs.Bounds = cs.Bounds.Union(b.extent(&listed))
}

// changeLists returns the change set's lists with room for every voxel b
// has queued.
func (m *Map) changeLists(b *brick) (rose, fell []Change) {
	n := 0
	for _, w := range b.touched {
		n += bits.OnesCount64(w)
	}
	return reserve(m.cs.Rose, n), reserve(m.cs.Fell, n)
}

// reserve returns l with room for n more changes. When it must grow, it
// at least doubles: a first scan into a fresh change set lists millions
// of voxels, and append, which grows large slices by a quarter, would copy
// them many times over.
func reserve(l []Change, n int) []Change {
	if cap(l)-len(l) >= n {
		return l
	}
	return slices.Grow(l, max(n, len(l)))
}

// extent returns the box of the voxels of b whose bits in set are set.
func (b *brick) extent(set *[brickVoxels / 64]uint64) Box {
	var rows uint64 // a bit per (x, y) column with a set voxel
	z0, z1 := int32(brickEdge), int32(-1)
	for z, w := range set {
		if w != 0 {
			rows |= w
			z0, z1 = min(z0, int32(z)), max(z1, int32(z))
		}
	}
	if rows == 0 {
		return emptyBox
	}
	var xs uint8 // a bit per x with a set voxel
	y0, y1 := int32(brickEdge), int32(-1)
	for y := range int32(brickEdge) {
		if row := uint8(rows >> (y * brickEdge)); row != 0 {
			xs |= row
			y0, y1 = min(y0, y), max(y1, y)
		}
	}
	x0, x1 := int32(bits.TrailingZeros8(xs)), int32(7-bits.LeadingZeros8(xs))
	return Box{Min: b.org.Add(x0, y0, z0), Max: b.org.Add(x1, y1, z1)}
}

// Which voxels of a brick the change set lists.
const (
	listAll  = iota // the brick is outside every region
	listSome        // only voxels outside the regions
	listNone        // the brick is inside a region
)

func (m *Map) listing(b *brick) int {
	list := listAll
	for _, r := range m.cs.Regions {
		switch in := r.Intersect(b.box()); {
		case in == b.box():
			return listNone
		case !in.Empty():
			list = listSome
		}
	}
	return list
}

// drop removes an empty brick: its voxels then follow the static layer,
// which is what they hold already.
func (m *Map) drop(b *brick) {
	delete(m.bricks, brickOf(b.org))
	if slot := &m.recent[recentSlot(brickOf(b.org))]; slot.b == b {
		*slot = recentBrick{}
	}
	m.sensor.forget(b)
	m.sensor.table.forget(b)
}

// Cost returns the cost of voxel k.
func (m *Map) Cost(k Key) Cost {
	if b := m.lookup(k); b != nil {
		return b.cost[index(k)]
	}
	return m.infl.costOf(m.static.at(k), far)
}

// Occupied reports whether some layer holds an obstacle at k.
func (m *Map) Occupied(k Key) bool {
	if b := m.lookup(k); b != nil {
		return b.occ[index(k)] == occupied
	}
	return m.static.at(k) == occupied
}

// Known reports whether some layer has seen voxel k, free or occupied.
func (m *Map) Known(k Key) bool {
	if b := m.lookup(k); b != nil {
		return b.occ[index(k)] != unknown
	}
	return m.static.at(k) != unknown
}
