package voxel

import (
	"fmt"
	"math"
	"time"

	"github.com/golang/geo/r3"
)

// Sensor evidence is log-odds occupancy per voxel, as OctoMap keeps it:
// each scan adds Hit to the voxels its points end in and Miss to the
// voxels its rays pass through, clamped to [Min, Max]. A voxel is occupied
// while its log-odds is above 0 and free at or below 0; one never observed
// has no sensor state. Log-odds (rather than hit and miss counts) forget
// in proportion to new evidence: a voxel hit once is cleared by three
// rays, one hit many times by no more than Max/|Miss| rays, so a moved
// obstacle clears within a few scans however long it stood. Values are
// kept in eighths, in one byte.

// sensorModel is a SensorModel in eighths of log-odds.
type sensorModel struct{ hit, miss, min, max int8 }

func newSensorModel(s SensorModel) sensorModel {
	q := func(v float64) int8 { return int8(math.Round(v * 8)) }
	m := sensorModel{hit: q(s.Hit), miss: q(s.Miss), min: q(s.Min), max: q(s.Max)}
	m.hit, m.miss = max(m.hit, 1), min(m.miss, -1)
	return m
}

// noObservation is the log-odds of a voxel never observed.
const noObservation int8 = math.MinInt8

func sensorOcc(l int8) uint8 {
	switch {
	case l == noObservation:
		return unknown
	case l > 0:
		return occupied
	}
	return free
}

// sensorState is the map's bookkeeping for sensor updates.
type sensorState struct {
	scan    uint32 // stamp of the current scan, from 1
	epoch   time.Duration
	started bool
	now     uint32              // current scan's time, ms since epoch
	marked  map[*brick]struct{} // bricks with marks, for decay
	rays    []ray
}

type ray struct {
	end r3.Vector // voxel units
	key Key
}

func (s *sensorState) init() { s.marked = map[*brick]struct{}{} }

func (s *sensorState) forget(b *brick) { delete(s.marked, b) }

// Cloud is a point cloud from one sensor, in the map frame.
type Cloud struct {
	Origin r3.Vector   // sensor origin, metres
	Points []r3.Vector // returns, metres
	// MinRange drops nearer points (robot self-hits); MaxRange (> 0) cuts
	// rays: a point beyond it only clears up to MaxRange and marks nothing.
	MinRange, MaxRange float64
	Stamp              time.Duration // acquisition time, any fixed epoch; for Decay
}

// maxRangeVoxels bounds MaxRange so that one ray touches at most this many
// voxels per axis.
const maxRangeVoxels = 4096

func (c *Cloud) apply(m *Map) error {
	if err := m.checkSensor(c.Origin, c.MinRange, c.MaxRange); err != nil {
		return err
	}
	m.beginScan(c.Stamp)
	in := &m.cs.Input
	s := &m.sensor
	s.rays = s.rays[:0]
	origin := m.frame.local(c.Origin)
	// Hits first, so that a voxel with a return is marked even when a
	// longer ray passes through it in the same scan.
	for _, p := range c.Points {
		if !finite(p) {
			in.NonFinite++
			continue
		}
		d := p.Sub(c.Origin).Norm()
		switch {
		case d < c.MinRange || d == 0:
			in.TooClose++
		case d <= c.MaxRange:
			m.endpoint(p.Add(p.Sub(c.Origin).Mul(hitNudgeVoxels*m.frame.Resolution/d)), true)
		}
	}
	for _, p := range c.Points {
		if !finite(p) {
			continue
		}
		v := p.Sub(c.Origin)
		if d := v.Norm(); d > c.MaxRange && d >= c.MinRange {
			in.Clipped++
			m.endpoint(c.Origin.Add(v.Mul(c.MaxRange/d)), false)
		}
	}
	for _, r := range s.rays {
		m.clearRay(origin, r)
	}
	return nil
}

// hitNudgeVoxels is how far, in voxels, a return is moved on along its
// ray before it is marked. A surface that lies exactly on a voxel face
// (a wall at 2.5 m in a 0.1 m map, as simulators and CAD-built worlds
// make them) then always marks the voxel behind the face, the one holding
// the obstacle, instead of either side as the range's float32 rounding
// falls; the free voxel in front is cleared by the ray. Flicker there made
// a 0.1 m passage open and close scan after scan. It is far above float32
// rounding (about 1e-6 m at 12 m) and far below any sensor's noise.
const hitNudgeVoxels = 1e-3

// checkSensor validates what a sensor update needs.
func (m *Map) checkSensor(origin r3.Vector, minRange, maxRange float64) error {
	if _, ok := m.frame.KeyOf(origin); !ok {
		return fmt.Errorf("%w: sensor origin %v is not finite or outside the world", ErrInput, origin)
	}
	limit := maxRangeVoxels * m.frame.Resolution
	if !(maxRange > 0 && maxRange <= limit) {
		return fmt.Errorf("%w: max range %v m: want (0, %v]", ErrInput, maxRange, limit)
	}
	if !(minRange >= 0 && minRange < maxRange) {
		return fmt.Errorf("%w: min range %v m: want [0, max range)", ErrInput, minRange)
	}
	return nil
}

// beginScan starts a new scan stamp and notes its time.
func (m *Map) beginScan(stamp time.Duration) {
	s := &m.sensor
	if !s.started {
		s.epoch, s.started = stamp, true
	}
	if s.scan++; s.scan == 0 {
		for _, b := range m.bricks { // wrapped: no voxel may look visited
			b.scanned = 0
		}
		s.scan = 1
	}
	s.now = m.msSinceEpoch(stamp)
}

// endpoint marks (hit) or clears the voxel of point p and queues its ray,
// unless an earlier point of this scan ended in the same voxel.
func (m *Map) endpoint(p r3.Vector, hit bool) {
	in := &m.cs.Input
	k, ok := m.frame.KeyOf(p)
	if !ok {
		in.Outside++
		return
	}
	b := m.sensorBrick(k)
	if b == nil {
		in.Refused++
		return
	}
	i := index(k)
	if b.visited(i, m.sensor.scan) {
		in.Merged++
		return
	}
	in.Points++
	m.observe(b, i, hit)
	m.sensor.rays = append(m.sensor.rays, ray{end: m.frame.local(p), key: k})
}

// sensorBrick returns the brick of k with its sensor layer.
func (m *Map) sensorBrick(k Key) *brick {
	b := m.lookup(k)
	if b == nil {
		b = m.get(k)
	}
	if b != nil && b.sensor == nil {
		b.sensor = new([brickVoxels]int8)
		for i := range b.sensor {
			b.sensor[i] = noObservation
		}
	}
	return b
}

// observe applies one hit or miss to voxel i of b and stamps it.
func (m *Map) observe(b *brick, i int, hit bool) {
	s, model := &m.sensor, &m.model
	l := b.sensor[i]
	before := sensorOcc(l)
	if l == noObservation {
		l = 0
		b.seen++
	}
	if hit {
		l = min(l+model.hit, model.max)
	} else {
		l = max(l+model.miss, model.min)
	}
	b.sensor[i] = l
	b.visit(i, s.scan)
	after := sensorOcc(l)
	if hit {
		m.stampHit(b, i)
	}
	if before != after {
		if before == occupied {
			b.marks--
		} else if after == occupied {
			b.marks++
			s.marked[b] = struct{}{}
		}
		m.recombine(b, i)
	}
}

// stampHit notes the time of a hit, for decay.
func (m *Map) stampHit(b *brick, i int) {
	if m.cfg.Decay == 0 {
		return
	}
	if b.hitTime == nil {
		b.hitTime = new([brickVoxels]uint32)
		b.oldest = m.sensor.now
	}
	b.hitTime[i] = m.sensor.now
}

// clearRay applies a miss to every voxel from the origin to the ray's end
// voxel, that voxel excluded, skipping voxels this scan already updated.
// It is a 3D DDA (Amanatides and Woo), exact: it visits the voxels whose
// interior the segment crosses, in order, stepping every axis at once when
// the segment passes exactly through an edge or corner.
func (m *Map) clearRay(o r3.Vector, r ray) {
	var t dda
	t.init(o, r.end.Sub(o))
	// The DDA of dda.next, unrolled into locals, with the brick kept
	// while the ray stays in it.
	x, y, z := t.k.X, t.k.Y, t.k.Z
	tx, ty, tz := t.tMax[0], t.tMax[1], t.tMax[2]
	dx, dy, dz := t.tDelta[0], t.tDelta[1], t.tDelta[2]
	sx, sy, sz := t.step[0], t.step[1], t.step[2]
	scan, end := m.sensor.scan, r.key
	miss, floor := m.model.miss, m.model.min
	var b *brick
	for range 3*maxRangeVoxels + 3 {
		if x == end.X && y == end.Y && z == end.Z {
			return
		}
		if b == nil || x&^brickMask != b.org.X || y&^brickMask != b.org.Y || z&^brickMask != b.org.Z {
			if b = m.sensorBrick(Key{x, y, z}); b == nil {
				m.cs.Input.Refused++
				return
			}
			if b.scanned != scan {
				b.scanned, b.scanBits = scan, [brickVoxels / 64]uint64{}
			}
		}
		i := int(x&brickMask) | int(y&brickMask)<<brickShift | int(z&brickMask)<<(2*brickShift)
		if w, bit := i>>6, uint64(1)<<(i&63); b.scanBits[w]&bit == 0 {
			if l := b.sensor[i]; l > noObservation && l <= 0 {
				// Free stays free: only the log-odds changes.
				b.sensor[i] = max(l+miss, floor)
				b.scanBits[w] |= bit
			} else {
				m.observe(b, i, false)
			}
		}
		tm := min(tx, ty, tz)
		if !(tm < 1) {
			return
		}
		if tx == tm {
			x, tx = x+sx, tx+dx
		}
		if ty == tm {
			y, ty = y+sy, ty+dy
		}
		if tz == tm {
			z, tz = z+sz, tz+dz
		}
	}
}

// msSinceEpoch converts a stamp to milliseconds after the first scan's,
// clamped to [0, 2^32).
func (m *Map) msSinceEpoch(stamp time.Duration) uint32 {
	ms := (stamp - m.sensor.epoch).Milliseconds()
	return uint32(min(max(ms, 0), math.MaxUint32))
}
