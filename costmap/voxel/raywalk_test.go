package voxel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// referenceClearRay is the plain clearing walk: dda.next one voxel at a
// time, each voxel's brick looked up, a miss applied at once to each voxel
// the scan has not updated yet. Map.clearRay and Map.applyScan must do
// together exactly what it does.
func referenceClearRay(m *Map, o r3.Vector, r ray) {
	var t dda
	t.init(o, r.end.Sub(o))
	for range 3*MaxRangeVoxels + 3 {
		if t.k == r.key {
			return
		}
		s := m.scanSlot(brickCoords(t.k))
		if s < 0 {
			m.cs.Input.Refused++
			return
		}
		seen, i := &m.sensor.table.seen[s], index(t.k)
		if seen[i>>6]&(1<<(i&63)) == 0 {
			seen[i>>6] |= 1 << (i & 63)
			b := m.sensor.table.refs[s]
			sensorLayer(b)
			m.observe(b, i, false)
		}
		if !t.next() {
			return
		}
	}
}

// applyReference applies c as Cloud.apply does, with referenceClearRay.
func applyReference(m *Map, cs *ChangeSet, c *Cloud) error {
	m.begin(cs)
	defer m.finish()
	if err := m.checkSensor(c.Origin, c.MinRange, c.MaxRange); err != nil {
		return err
	}
	m.beginScan(c.Stamp)
	o, _ := m.frame.KeyOf(c.Origin)
	box := c.queue(m, o)
	m.sensor.table.reset(box, o, len(m.sensor.rays))
	origin := m.frame.local(c.Origin)
	for _, r := range referenceEnds(m) {
		referenceClearRay(m, origin, r)
	}
	m.sensor.table.release()
	return nil
}

// referenceEnds marks (hits) or clears the queued endpoints at once, in
// order, and returns the rays to cast, as Map.markEnds and Map.applyScan
// do together.
func referenceEnds(m *Map) []ray {
	var rays []ray
	t := &m.sensor.table
	for _, r := range m.sensor.rays {
		s := m.scanSlot(brickCoords(r.key))
		if s < 0 {
			m.cs.Input.Refused++
			continue
		}
		seen, i := &t.seen[s], index(r.key)
		if seen[i>>6]&(1<<(i&63)) != 0 {
			m.cs.Input.Merged++
			continue
		}
		seen[i>>6] |= 1 << (i & 63)
		m.cs.Input.Points++
		sensorLayer(t.refs[s])
		m.observe(t.refs[s], i, r.hit)
		rays = append(rays, r)
	}
	return rays
}

// requireSameMaps checks that two maps hold the same bricks and layers.
func requireSameMaps(t *testing.T, want, got *Map, msg string) {
	t.Helper()
	require.Equal(t, len(want.bricks), len(got.bricks), "%s: bricks", msg)
	for bk, a := range want.bricks {
		b := got.bricks[bk]
		require.NotNil(t, b, "%s: brick %v", msg, a.org)
		same := (a.sensor == nil) == (b.sensor == nil) && (a.sensor == nil || *a.sensor == *b.sensor) &&
			(a.hitTime == nil) == (b.hitTime == nil) && (a.hitTime == nil || *a.hitTime == *b.hitTime) &&
			a.occ == b.occ && a.cost == b.cost && a.seen == b.seen && a.marks == b.marks && a.oldest == b.oldest
		require.True(t, same, "%s: brick %v differs", msg, a.org)
	}
	require.Equal(t, len(want.sensor.marked), len(got.sensor.marked), "%s: marked bricks", msg)
}

// requireSameChanges checks that two change sets list the same changes
// (in any order: misses are applied brick by brick after the walk, so the
// listing order is not the plain walk's), bounds and input counts.
func requireSameChanges(t *testing.T, want, got *ChangeSet, msg string) {
	t.Helper()
	for _, l := range [][2][]Change{{want.Rose, got.Rose}, {want.Fell, got.Fell}} {
		require.Equal(t, len(l[0]), len(l[1]), "%s: changes listed", msg)
		a, b := sortedChanges(l[0]), sortedChanges(l[1])
		for i := range a {
			require.Equal(t, a[i], b[i], "%s: change %d", msg, i)
		}
	}
	require.Equal(t, want.Bounds, got.Bounds, "%s: bounds", msg)
	require.Equal(t, want.Input, got.Input, "%s: input", msg)
	require.Empty(t, got.Regions, "%s: regions", msg)
}

func sortedChanges(c []Change) []Change {
	c = slices.Clone(c)
	slices.SortFunc(c, func(a, b Change) int { return compareKeys(a.Voxel, b.Voxel) })
	return c
}

// TestClearRayEqualsReference applies the same clouds with Map.clearRay
// and with the plain walk, and requires the same change sets and the same
// maps: rays through voxel edges and corners, rays
// along axes, sensors on voxel faces, long rays over many bricks, static
// and shape layers under the rays, and the memory limit. Clouds are small
// and maps fresh every few steps, so that one ray's extra or missing voxel
// is not hidden by another's.
func TestClearRayEqualsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, cfg := range []Config{
		{Resolution: 0.1},
		{Resolution: 0.125, Robot: Robot{Radius: 0.15, InflationRadius: 0.3}, Decay: time.Second},
		{Resolution: 0.25, MaxBricks: 6, Sensor: SensorModel{Hit: 15, Miss: -15, Min: -15, Max: 15}},
	} {
		for round := range 150 {
			fast, slow := newMap(t, cfg), newMap(t, cfg)
			for _, m := range []*Map{fast, slow} {
				_, err := m.Apply(PutShape{ID: "box", Solid: &BoxShape{Pose: Pose{Position: vec(0.6, 0.2, 0.1), Orientation: Identity}, Size: vec(0.4, 0.4, 0.4)}})
				require.NoError(t, err)
			}
			for step := range 6 {
				c := randomCloud(rng, cfg.Resolution, step, 1+rng.IntN(3)+200*(round%10/9))
				got, want := new(ChangeSet), new(ChangeSet)
				errGot := fast.ApplyInto(got, c)
				require.NoError(t, applyReference(slow, want, c))
				msg := fmt.Sprintf("resolution %v, round %d, step %d", cfg.Resolution, round, step)
				require.Equal(t, slow.memFull, errors.Is(errGot, ErrMemory), "%s: %v", msg, errGot)
				requireSameChanges(t, want, got, msg)
				requireSameMaps(t, slow, fast, msg)
			}
		}
	}
}

// randomCloud returns a cloud whose rays start and end on voxel faces,
// edges and corners as often as inside voxels (exactly so when the
// resolution res is a power of two).
func randomCloud(rng *rand.Rand, res float64, step, points int) *Cloud {
	coord := func(span float64) float64 {
		v := (rng.Float64()*2 - 1) * span
		switch rng.IntN(3) {
		case 0:
			return math.Round(v/res) * res // on a face
		case 1:
			return math.Round(2*v/res) * res / 2 // on a face or a centre
		}
		return v
	}
	o := vec(coord(1), coord(1), coord(0.5))
	c := &Cloud{Origin: o, MaxRange: 2.5, MinRange: 0.05 * float64(step%2), Stamp: time.Duration(step) * 100 * time.Millisecond}
	for range points {
		p := o.Add(vec(coord(3), coord(3), coord(1)))
		switch rng.IntN(6) {
		case 0: // along an axis
			p.Y, p.Z = o.Y, o.Z
		case 1: // in a plane
			p.Z = o.Z
		case 2: // diagonal, through edges and corners
			d := coord(2)
			p = o.Add(vec(d, d, d*float64(rng.IntN(2))))
		}
		c.Points = append(c.Points, p)
	}
	return c
}

// TestClearRayEqualsReferenceLidar does the same with the benchmark's
// LiDAR scan, every third point, inserted twice from 5 cm apart.
func TestClearRayEqualsReferenceLidar(t *testing.T) {
	scan := lidarScan(t)
	cfg := Config{Resolution: 0.1}
	fast, slow := newMap(t, cfg), newMap(t, cfg)
	for i := range 2 {
		o := r3.Vector{X: 0.05 * float64(i), Z: 1.5}
		c := &Cloud{Origin: o, MaxRange: 15}
		for j := 0; j < len(scan); j += 3 {
			c.Points = append(c.Points, scan[j].Add(o))
		}
		got, want := new(ChangeSet), new(ChangeSet)
		require.NoError(t, fast.ApplyInto(got, c))
		require.NoError(t, applyReference(slow, want, c))
		requireSameChanges(t, want, got, fmt.Sprintf("insertion %d", i))
		requireSameMaps(t, slow, fast, fmt.Sprintf("insertion %d", i))
	}
}

// TestClearRayEqualsReferenceFar does the same with rays longer than the
// scan table and the region reach (indexHalf, regionMaxLog), and with a
// few far points, for which the table is left empty and the region is
// small: rays then walk out of the region and on brick by brick.
func TestClearRayEqualsReferenceFar(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 12 {
		cfg := Config{Resolution: 0.1}
		fast, slow := newMap(t, cfg), newMap(t, cfg)
		for step := range 3 {
			o := vec(rng.Float64(), rng.Float64(), rng.Float64())
			c := &Cloud{Origin: o, MaxRange: 30}
			for range []int{3, 300}[round%2] {
				d := vec(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()/4)
				c.Points = append(c.Points, o.Add(d.Mul(5+rng.Float64()*35/d.Norm())))
			}
			got, want := new(ChangeSet), new(ChangeSet)
			require.NoError(t, fast.ApplyInto(got, c))
			require.NoError(t, applyReference(slow, want, c))
			msg := fmt.Sprintf("round %d, step %d", round, step)
			requireSameChanges(t, want, got, msg)
			requireSameMaps(t, slow, fast, msg)
		}
	}
}

// TestRegionCursor checks the region cursor against the voxels it packs:
// in regions of random place and extent, a cursor stepped along each axis
// is the cursor of the neighbour, or tells the neighbour outside.
func TestRegionCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		c := Key{rng.Int32N(2000) - 1000, rng.Int32N(2000) - 1000, rng.Int32N(2000) - 1000}
		b := Box{Min: c, Max: c}.Extend(c.Add(rng.Int32N(600)-300, rng.Int32N(600)-300, rng.Int32N(300)-150))
		var g scanRegion
		g.reset(b, c, 1+rng.IntN(100000))
		require.True(t, g.on)
		check, inside := g.fields()
		n := [3]int32{1 << g.log[0], 1 << g.log[1], 1 << g.log[2]}
		for range 100 {
			k := g.org.Add(rng.Int32N(n[0]), rng.Int32N(n[1]), rng.Int32N(n[2]))
			require.True(t, g.contains(k))
			q := g.cursor(k)
			require.Equal(t, k, g.key(q))
			require.Equal(t, g.index(k), int(q>>regionIndex))
			require.Equal(t, inside, q&check)
			for a := range 3 {
				for _, s := range []int32{-1, 1} {
					var d [3]int32
					d[a] = s
					nk, nq := k.Add(d[0], d[1], d[2]), q+g.step(s, a)
					require.Equal(t, nk, g.key(nq))
					require.Equal(t, g.contains(nk), nq&check == inside)
					if g.contains(nk) {
						require.Equal(t, g.cursor(nk), nq)
					}
				}
			}
		}
	}
}

// TestTranspose8 checks transpose8 on a matrix of distinct bytes.
func TestTranspose8(t *testing.T) {
	var r [8]uint64
	for i := range 8 {
		for j := range 8 {
			r[i] |= uint64(i<<4|j) << (8 * j)
		}
	}
	in := r
	transpose8(&r)
	for i := range 8 {
		for j := range 8 {
			require.Equal(t, in[j]>>(8*i)&0xff, r[i]>>(8*j)&0xff, "(%d, %d)", i, j)
		}
	}
}
