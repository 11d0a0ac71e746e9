package voxel

import (
	"fmt"

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
	last   *brick // lookup cache
	static staticLayer
	// prevStatic is, during an Apply that replaces the static layer, the
	// layer that voxels outside bricks had before it; nil otherwise.
	prevStatic *staticLayer

	sensor sensorState
	shapes map[ShapeID]*shapeRecord

	// Per-Apply state.
	gen        uint32
	dirty      []slot // voxels whose cost may have changed, each once
	obstacles  []Key  // voxels whose obstacle bit flipped
	cs         *ChangeSet
	memFull    bool // an allocation was refused in this Apply
	edt        edtScratch
	scanPoints []r3.Vector // reused by Scan
}

// slot is one voxel of a brick.
type slot struct {
	b *brick
	i uint16
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
		shapes: map[ShapeID]*shapeRecord{},
	}
	m.sensor.init()
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
	m.gen++
	if m.gen == 0 { // wrapped: clear every stamp so no brick looks touched
		for _, b := range m.bricks {
			b.gen = 0
		}
		m.gen = 1
	}
	m.dirty = m.dirty[:0]
	m.obstacles = m.obstacles[:0]
	m.memFull = false
}

// finish turns the layer changes of this Apply into costs and a change set.
func (m *Map) finish() {
	m.inflate()
	m.commit()
	m.prevStatic = nil
	m.cs = nil
}

// lookup returns the brick holding k, or nil.
func (m *Map) lookup(k Key) *brick {
	if b := m.last; b != nil && brickOrigin(k) == b.org {
		return b
	}
	b := m.bricks[brickOf(k)]
	if b != nil {
		m.last = b
	}
	return b
}

// get returns the brick holding k, creating it if needed; nil when the
// memory limit refuses it.
func (m *Map) get(k Key) *brick {
	if b := m.lookup(k); b != nil {
		return b
	}
	if len(m.bricks) >= m.cfg.MaxBricks {
		m.memFull = true
		return nil
	}
	b := &brick{org: brickOrigin(k)}
	st := &m.static
	if m.prevStatic != nil {
		st = m.prevStatic // a new brick must start from the costs reported before this Apply
	}
	st.fill(b)
	for i := range b.occ {
		b.cost[i] = m.infl.costOf(b.occ[i], far)
	}
	m.bricks[brickOf(k)] = b
	m.last = b
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

// touch queues voxel i of b for a cost update in this Apply, once.
func (m *Map) touch(b *brick, i int) {
	if b.gen != m.gen {
		b.gen, b.touched = m.gen, [brickVoxels / 64]uint64{}
	}
	if w, bit := i>>6, uint64(1)<<(i&63); b.touched[w]&bit == 0 {
		b.touched[w] |= bit
		m.dirty = append(m.dirty, slot{b, uint16(i)})
	}
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
// then drops bricks left holding nothing.
func (m *Map) commit() {
	cs := m.cs
	for _, s := range m.dirty {
		b, i := s.b, int(s.i)
		d2 := uint16(far)
		if b.d2 != nil {
			d2 = b.d2[i]
		}
		c := m.infl.costOf(b.occ[i], d2)
		if old := b.cost[i]; c != old {
			b.cost[i] = c
			cs.add(b.keyAt(i), old, c)
		}
	}
	for _, s := range m.dirty {
		if b := s.b; b.empty() && m.bricks[brickOf(b.org)] == b {
			m.drop(b)
		}
	}
}

// drop removes an empty brick: its voxels then follow the static layer,
// which is what they hold already.
func (m *Map) drop(b *brick) {
	delete(m.bricks, brickOf(b.org))
	if m.last == b {
		m.last = nil
	}
	m.sensor.forget(b)
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
