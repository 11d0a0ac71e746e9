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
// rays, one hit many times by no more than ⌈Max/|Miss|⌉ rays, Max and
// Miss rounded to eighths (10 with DefaultSensorModel: 28/8 and −3/8), so
// a moved obstacle clears within a few scans however long it stood.
// Values are kept in eighths, in one byte.

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
	epoch   time.Duration
	started bool
	now     uint32              // current scan's time, ms since epoch
	marked  map[*brick]struct{} // bricks with marks, for decay
	rays    []ray               // the current scan's endpoints, then its rays
	table   scanTable           // the current scan's bricks
	// freeMiss is, by log-odds (as a byte), the log-odds after a miss
	// of a free voxel (log-odds in (noObservation, 0]); the log-odds
	// itself for the others, whose misses Map.missOthers applies.
	freeMiss [256]int8
}

// ray is one endpoint of a scan and the ray cast to it.
type ray struct {
	end r3.Vector // voxel units
	key Key       // end's voxel
	hit bool      // a return, marked; false: cut at MaxRange, cleared
}

func (s *sensorState) init(model sensorModel) {
	s.marked = map[*brick]struct{}{}
	for b := range s.freeMiss {
		s.freeMiss[b] = int8(b)
		if l := int8(b); l > noObservation && l <= 0 {
			s.freeMiss[b] = addLogOdds(l, model.miss, model.min, model.max)
		}
	}
}

func (s *sensorState) forget(b *brick) { delete(s.marked, b) }

// Cloud is a point cloud from one sensor, in the map frame.
type Cloud struct {
	Origin r3.Vector   // sensor origin, metres
	Points []r3.Vector // returns, metres
	// MinRange drops nearer points (robot self-hits); MaxRange (> 0) cuts
	// rays: a point beyond it only clears up to MaxRange and marks nothing.
	MinRange, MaxRange float64
	Stamp              time.Duration // acquisition time, any fixed epoch; for Decay
	// With Floor, returns lower than FloorZ (map frame, metres) are the
	// floor a ground robot drives on, seen by a 3D or tilted sensor:
	// their rays clear up to them, and they mark nothing.
	Floor  bool
	FloorZ float64
}

// MaxRangeVoxels bounds a sensor's MaxRange, in voxels, so that one ray
// touches at most this many voxels per axis.
const MaxRangeVoxels = 4096

func (c *Cloud) apply(m *Map) error {
	if err := m.checkSensor(c.Origin, c.MinRange, c.MaxRange); err != nil {
		return err
	}
	m.beginScan(c.Stamp)
	o, _ := m.frame.KeyOf(c.Origin) // checked
	box := c.queue(m, o)
	t := &m.sensor.table
	t.reset(box, o, len(m.sensor.rays))
	if m.roomFor(box) {
		t.region.reset(box, o, len(m.sensor.rays))
	}
	origin := m.frame.local(c.Origin)
	rays := m.markEnds()
	for _, r := range rays {
		m.clearRay(origin, r)
	}
	if t.region.on {
		m.gatherRegion()
		m.regionHits(rays)
	}
	m.applyScan()
	m.sensor.table.release()
	return nil
}

// queue counts the points by fate and queues the endpoints of their rays;
// it returns the box holding the endpoints and the sensor's voxel o.
func (c *Cloud) queue(m *Map, o Key) Box {
	in := &m.cs.Input
	if cap(m.sensor.rays) < len(c.Points) {
		m.sensor.rays = make([]ray, 0, len(c.Points))
	}
	m.sensor.rays = m.sensor.rays[:0]
	box, clipped, floor := Box{Min: o, Max: o}, 0, 0
	// Hits first, so that a voxel with a return is marked even when a
	// longer ray, or one to the floor, passes through it in the same scan.
	for _, p := range c.Points {
		if !finite(p) {
			in.NonFinite++
			continue
		}
		d := p.Sub(c.Origin).Norm()
		switch {
		case d < c.MinRange || d == 0:
			in.TooClose++
		case d > c.MaxRange:
			clipped++
		case c.onFloor(p):
			floor++
		default:
			box = m.queueEnd(p.Add(p.Sub(c.Origin).Mul(hitNudgeVoxels*m.frame.Resolution/d)), true, box)
		}
	}
	in.Clipped += clipped
	if in.Floor += floor; clipped+floor == 0 {
		return box // no second pass
	}
	for _, p := range c.Points {
		if !finite(p) {
			continue
		}
		d := p.Sub(c.Origin).Norm()
		switch {
		case d < c.MinRange || d == 0:
		case d > c.MaxRange:
			box = m.queueEnd(c.Origin.Add(cut(p, c.Origin, d, c.MaxRange)), false, box)
		case c.onFloor(p):
			box = m.queueEnd(p, false, box)
		}
	}
	return box
}

// onFloor reports whether return p is on the floor (Floor, FloorZ).
func (c *Cloud) onFloor(p r3.Vector) bool { return c.Floor && p.Z < c.FloorZ }

// cut returns the vector from o towards p of length r, p being d > r
// from o. A finite point so far off that d, or p − o, overflows still
// gives its direction (a review found such a point cut to length 0, so
// that its ray cleared nothing but the sensor's own voxel).
func cut(p, o r3.Vector, d, r float64) r3.Vector {
	v := p.Sub(o)
	if !math.IsInf(d, 1) {
		return v.Mul(r / d)
	}
	if !finite(v) {
		v = p.Mul(0.5).Sub(o.Mul(0.5)) // halves cannot overflow
	}
	v = v.Mul(1 / max(math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z)))
	return v.Mul(r / v.Norm())
}

// markEnds notes the queued endpoints, in order, to be marked (hits) or
// cleared with the misses (Map.applyScan), and returns the rays to cast:
// those whose endpoint no earlier one shared. An endpoint in the region
// goes to the region's bitset, as the rays' voxels do (regionEnd); the
// others to the scan table (endpoint).
func (m *Map) markEnds() []ray {
	rays, all := m.sensor.rays[:0], m.sensor.rays // rays: those kept so far, never past r
	g := &m.sensor.table.region
	for j, r := range all {
		if g.on && j+endsAhead < len(all) {
			g.prefetchBit(all[j+endsAhead].key)
		}
		var cast bool
		if g.on && g.contains(r.key) {
			cast = m.regionEnd(r.key)
		} else {
			cast = m.endpoint(r)
		}
		if cast {
			rays = append(rays, r)
		}
	}
	return rays
}

// endsAhead is how many endpoints ahead markEnds prefetches the region's
// bits: a point's bit is a random place in up to 4 MB.
const endsAhead = 8

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
	limit := MaxRangeVoxels * m.frame.Resolution
	if !(maxRange > 0 && maxRange <= limit) {
		return fmt.Errorf("%w: max range %v m: want (0, %v]", ErrInput, maxRange, limit)
	}
	if !(minRange >= 0 && minRange < maxRange) {
		return fmt.Errorf("%w: min range %v m: want [0, max range)", ErrInput, minRange)
	}
	return nil
}

// beginScan notes the time of a new scan. A stamp more than clockJumpBack
// before the last scan's means the sensors' clock went back (a bag
// played again, a simulator restarted, or the last stamp was wrong): the
// epoch moves back with it, so that the scan is now and every hit keeps
// its age. Without that, the marks hit after the old time would outlive
// decay until the clock caught up again, for ever if it never does.
func (m *Map) beginScan(stamp time.Duration) {
	s := &m.sensor
	if !s.started {
		s.epoch, s.started = stamp, true
	}
	if back := s.epoch + time.Duration(s.now)*time.Millisecond - stamp; back > clockJumpBack {
		s.epoch -= back
	}
	s.now = m.clock(stamp)
}

// clockJumpBack is how far a scan's stamp must fall behind the last one's
// for beginScan to take it that the clock went back (tf's history length
// by default); scans from several sensors arrive that far out of order at
// most.
const clockJumpBack = 10 * time.Second

// queueEnd queues the endpoint p of a ray, a return (hit) or a point
// cut at MaxRange, and returns box extended to hold it; a point outside
// the world is counted and dropped.
func (m *Map) queueEnd(p r3.Vector, hit bool, box Box) Box {
	// Frame.KeyOf's key, from the same quotients as the ray's end.
	l := m.frame.local(p)
	x, y, z := math.Floor(l.X), math.Floor(l.Y), math.Floor(l.Z)
	if !(math.Abs(x) <= MaxCoord && math.Abs(y) <= MaxCoord && math.Abs(z) <= MaxCoord) {
		m.cs.Input.Outside++
		return box
	}
	k := Key{int32(x), int32(y), int32(z)}
	m.sensor.rays = append(m.sensor.rays, ray{end: l, key: k, hit: hit})
	return box.Extend(k)
}

// endpoint notes the end voxel of r, to be marked (hit) or cleared, and
// reports whether its ray is to be cast: not when an earlier point of this
// scan ended in the same voxel (that point's fate holds). Marking here, a
// voxel at a time, would miss the cache on every endpoint: the hits are
// applied with the misses, brick by brick.
func (m *Map) endpoint(r ray) bool {
	in := &m.cs.Input
	s := m.scanSlot(brickCoords(r.key))
	if s < 0 {
		in.Refused++
		return false
	}
	t := &m.sensor.table
	i := index(r.key)
	w, bit := i>>6, uint64(1)<<(i&63)
	if t.seen[s][w]&bit != 0 { // no ray is cast before every end is noted
		in.Merged++
		return false
	}
	t.seen[s][w] |= bit
	if r.hit {
		t.hits[s][w] |= bit
	}
	in.Points++
	return true
}

// scanBrick returns the brick of k, made with its sensor layer (see
// sensedBrick) if new; nil when the memory limit refuses it. A brick
// found without a layer gets one when the scan is applied (sensorLayer):
// it is not read here, as a brick a scan reaches is rarely in the
// processor's cache.
func (m *Map) scanBrick(k Key) *brick {
	if b := m.lookup(k); b != nil {
		return b
	}
	sb := new(sensedBrick)
	b := m.create(k, &sb.brick)
	if b != nil {
		sb.sensor = unobserved
		b.sensor = &sb.sensor
	}
	return b
}

// sensorLayer returns b's sensor layer, giving b one if it has none.
func sensorLayer(b *brick) *[brickVoxels]int8 {
	if b.sensor == nil {
		b.sensor = new([brickVoxels]int8)
		*b.sensor = unobserved
	}
	return b.sensor
}

// sensedBrick is a brick allocated with its sensor layer. (A brick that
// drops its layer, by decay or the window, keeps the array unused; one
// that takes a layer again gets a new one.)
type sensedBrick struct {
	brick
	sensor [brickVoxels]int8
}

// unobserved is a sensor layer that has observed nothing.
var unobserved = func() (l [brickVoxels]int8) {
	for i := range l {
		l[i] = noObservation
	}
	return l
}()

// observe applies one hit or miss to voxel i of b.
func (m *Map) observe(b *brick, i int, hit bool) {
	s, model := &m.sensor, &m.model
	l := b.sensor[i]
	before := sensorOcc(l)
	if l == noObservation {
		l = 0
		b.seen++
	}
	if hit {
		l = addLogOdds(l, model.hit, model.min, model.max)
	} else {
		l = addLogOdds(l, model.miss, model.min, model.max)
	}
	b.sensor[i] = l
	after := sensorOcc(l)
	if hit {
		m.stampHit(b, i)
	}
	if before != after {
		if before == occupied {
			b.marks--
		} else if after == occupied {
			if b.marks++; b.marks == 1 {
				s.marked[b] = struct{}{} // a brick with marks is in marked
			}
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
	// Scans may arrive out of order (beginScan): an earlier hit after a
	// later one must lower the brick's oldest, or Expire skips it.
	b.oldest = min(b.oldest, m.sensor.now)
}

// clock converts a stamp to milliseconds after the sensor epoch (the
// first scan's stamp), 0 for a stamp before it. Hit times are uint32
// milliseconds, 49.7 days: a stamp past rebaseAt moves the epoch on, and
// every hit time with it, so that the stamp lands at rebaseTo. That
// happens every 12 days of a robot's uptime, or at once when the first
// scan was stamped 0 and the next ones in seconds since 1970.
func (m *Map) clock(stamp time.Duration) uint32 {
	ms := (stamp - m.sensor.epoch).Milliseconds()
	if ms >= rebaseAt {
		m.rebase(ms - rebaseTo)
		ms = rebaseTo
	}
	return uint32(max(ms, 0))
}

// Where clock moves the epoch on: hit times up to rebaseTo old (24.8
// days) keep their ages, older ones become that old.
const (
	rebaseAt = 3 << 30 // ms
	rebaseTo = 1 << 31 // ms
)

// rebase moves the sensor epoch shift milliseconds on.
func (m *Map) rebase(shift int64) {
	s := &m.sensor
	s.epoch += time.Duration(shift) * time.Millisecond
	earlier := func(t uint32) uint32 { return uint32(max(int64(t)-shift, 0)) }
	s.now = earlier(s.now)
	for _, b := range m.bricks { // not only the marked ones: a hit short of a mark has a time too
		if b.hitTime == nil {
			continue
		}
		b.oldest = earlier(b.oldest)
		for i, t := range b.hitTime {
			b.hitTime[i] = earlier(t)
		}
	}
}
