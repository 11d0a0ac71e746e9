package voxel

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// The four costmap benchmarks. Run them with `make bench`, or
//   go test -run '^$' -bench . -benchtime 3x -count 3 ./costmap/voxel/

// lidarScan reads ../shared/data/scans/lidar64_uniform.bin: 65,536 points,
// little-endian float32 x y z, in the sensor frame.
func lidarScan(tb testing.TB) []r3.Vector {
	data, err := os.ReadFile(shareddata.Path(tb, "data", "scans", "lidar64_uniform.bin"))
	require.NoError(tb, err)
	require.Equal(tb, 65536*12, len(data))
	pts := make([]r3.Vector, len(data)/12)
	for i := range pts {
		f := func(o int) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(data[12*i+o:]))) }
		pts[i] = r3.Vector{X: f(0), Y: f(4), Z: f(8)}
	}
	return pts
}

// insertLidar inserts the scan five times into a fresh map, the sensor
// moved 5 cm along x between insertions (the setting OctoMap's and
// Bonxai's published numbers on these points use).
func insertLidar(tb testing.TB, cfg Config, scan []r3.Vector, cloud *Cloud, cs *ChangeSet) *Map {
	m, err := New(cfg)
	require.NoError(tb, err)
	for i := range 5 {
		o := r3.Vector{X: 0.05 * float64(i), Z: 1.5}
		for j, p := range scan {
			cloud.Points[j] = p.Add(o)
		}
		cloud.Origin = o
		if err := m.ApplyInto(cs, cloud); err != nil {
			tb.Fatal(err)
		}
	}
	return m
}

// BenchmarkLidarInsert: benchmark 1. points/s counts every point of the
// five insertions. The baseline (ray-walk) only walks the same rays with
// Frame.Ray, touching no map: the floor any ray-casting insertion pays.
func BenchmarkLidarInsert(b *testing.B) {
	scan := lidarScan(b)
	cloud := &Cloud{Points: make([]r3.Vector, len(scan)), MaxRange: 30}
	cs := new(ChangeSet)
	points := float64(5 * len(scan))
	f := Frame{Resolution: 0.1}
	var walk time.Duration
	{ // baseline, once per benchmark, same process
		start := time.Now()
		n := 0
		for i := range 5 {
			o := r3.Vector{X: 0.05 * float64(i), Z: 1.5}
			for _, p := range scan {
				f.Ray(o, p.Add(o), func(Key) bool { n++; return true })
			}
		}
		walk = time.Since(start)
		_ = n
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"no-inflation", Config{Resolution: 0.1}},
		{"inflation-0.5m", Config{Resolution: 0.1, Robot: Robot{Radius: 0.3, InflationRadius: 0.5}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				insertLidar(b, c.cfg, scan, cloud, cs)
			}
			per := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(points/per, "points/s")
			b.ReportMetric(points/walk.Seconds(), "ray-walk-points/s")
			b.ReportMetric(per/walk.Seconds(), "x-ray-walk")
		})
	}
}

// populated200 is benchmark 2's world: 200×200×40 voxels at 0.1 m, a
// static floor, 400 random pillars and 300 random boxes, inflated 0.5 m.
func populated200(tb testing.TB) *Map {
	m, err := New(Config{Resolution: 0.1, Robot: Robot{Radius: 0.2, InflationRadius: 0.5}})
	require.NoError(tb, err)
	rng := rand.New(rand.NewPCG(20, 21))
	s := &StaticVoxels{Box: Box{Max: Key{199, 199, 39}}}
	for x := int32(0); x < 200; x++ {
		for y := int32(0); y < 200; y++ {
			s.Blocked = append(s.Blocked, Key{x, y, 0})
		}
	}
	for range 400 {
		x, y, h := rng.Int32N(200), rng.Int32N(200), 5+rng.Int32N(35)
		for z := int32(1); z < h; z++ {
			s.Blocked = append(s.Blocked, Key{x, y, z})
		}
	}
	_, err = m.Apply(s)
	require.NoError(tb, err)
	for i := range 300 {
		_, err := m.Apply(PutShape{ID: ShapeID(rune('a' + i)), Solid: &BoxShape{
			Pose: Pose{Position: vec(rng.Float64()*20, rng.Float64()*20, rng.Float64()*4), Orientation: YawQuat(rng.Float64() * 3)},
			Size: vec(0.1+rng.Float64()*0.6, 0.1+rng.Float64()*0.6, 0.1+rng.Float64()*0.6)}})
		require.NoError(tb, err)
	}
	return m
}

// BenchmarkBoxEvent: benchmark 2. One op is one event: a 1 m box put at a
// random place, or deleted again. The baseline recomputes the inflation of
// the whole 200×200×40 map once, as a non-incremental costmap would on
// every event.
func BenchmarkBoxEvent(b *testing.B) {
	m := populated200(b)
	cs := new(ChangeSet)
	whole := Box{Max: Key{199, 199, 39}}
	full := func() time.Duration {
		start := time.Now()
		m.begin(cs)
		m.window(whole)
		m.finish()
		return time.Since(start)
	}
	full() // warm the scratch buffers
	var baseline []time.Duration
	for range 3 {
		baseline = append(baseline, full())
	}
	base := median(baseline)

	rng := rand.New(rand.NewPCG(22, 23))
	b.ReportAllocs()
	listed := 0
	for i := 0; b.Loop(); i++ {
		var u Update = DeleteShape{ID: "event"}
		if i%2 == 0 {
			u = PutShape{ID: "event", Solid: &BoxShape{
				Pose: Pose{Position: vec(1+rng.Float64()*18, 1+rng.Float64()*18, 0.5+rng.Float64()*3), Orientation: YawQuat(rng.Float64() * 3)},
				Size: vec(1, 1, 1)}}
		}
		if err := m.ApplyInto(cs, u); err != nil {
			b.Fatal(err)
		}
		listed += cs.Len()
	}
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(per*1e3, "ms/event")
	b.ReportMetric(base.Seconds()*1e3, "full-recompute-ms")
	b.ReportMetric(base.Seconds()/per, "x-faster-than-full")
	b.ReportMetric(float64(listed)/float64(b.N), "changed-voxels/event")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// withoutScratch releases the map's per-update buffers (sized by the
// largest update so far, reused, not per voxel) so the heap holds the
// voxels alone.
func withoutScratch(m *Map) *Map {
	m.dirty, m.obstacles, m.sensor.rays, m.edt, m.scanPoints = nil, nil, nil, edtScratch{}, nil
	m.sensor.table = scanTable{}
	return m
}

// heapAfter returns the live heap after a collection.
func heapAfter() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkMemory: benchmark 3, live heap per voxel.
//   - free: the LiDAR map (five insertions), nearly all of it observed
//     free space; bytes per observed voxel.
//   - occupied: a solid 3 m cube of sensor marks, each voxel a return of
//     one cloud whose sensor sits next to the cube; bytes per occupied
//     voxel, the few free voxels between sensor and cube included.
func BenchmarkMemory(b *testing.B) {
	scan := lidarScan(b)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"no-inflation", Config{Resolution: 0.1}},
		{"inflation-0.5m", Config{Resolution: 0.1, Robot: Robot{Radius: 0.3, InflationRadius: 0.5}}},
	} {
		b.Run("free/"+c.name, func(b *testing.B) {
			cloud := &Cloud{Points: make([]r3.Vector, len(scan)), MaxRange: 30}
			var perVoxel float64
			for b.Loop() {
				h0 := heapAfter()
				m := withoutScratch(insertLidar(b, c.cfg, scan, cloud, new(ChangeSet)))
				h1 := heapAfter()
				st := m.Stats()
				perVoxel = float64(h1-h0) / float64(st.Observed)
				b.ReportMetric(float64(st.Observed), "observed-voxels")
				b.ReportMetric(float64(st.Marked), "occupied-voxels")
				runtime.KeepAlive(m)
			}
			b.ReportMetric(perVoxel, "bytes/observed-voxel")
		})
		b.Run("occupied/"+c.name, func(b *testing.B) {
			var pts []r3.Vector
			for z := range 30 {
				for y := range 30 {
					for x := range 30 {
						pts = append(pts, vec(0.05+0.1*float64(x), 0.05+0.1*float64(y), 0.05+0.1*float64(z)))
					}
				}
			}
			var perVoxel float64
			for b.Loop() {
				h0 := heapAfter()
				m, err := New(c.cfg)
				require.NoError(b, err)
				_, err = m.Apply(&Cloud{Origin: vec(-0.05, 1.55, 1.55), Points: pts, MaxRange: 10})
				require.NoError(b, err)
				withoutScratch(m)
				h1 := heapAfter()
				st := m.Stats()
				require.Equal(b, 27000, st.Marked)
				perVoxel = float64(h1-h0) / float64(st.Marked)
				runtime.KeepAlive(m)
			}
			b.ReportMetric(perVoxel, "bytes/occupied-voxel")
		})
	}
}

// BenchmarkGridExtrusion: benchmark 4. A 4000×4000 occupancy grid at
// 0.05 m (200 m × 200 m: rooms of 10 m with walls and doors, 10% unknown)
// extruded over 0.5 m (10 voxels) into a fresh map with a ground robot's
// cylinder inflation; then the same grid with 1% of its cells changed,
// applied on top (a /map update).
func BenchmarkGridExtrusion(b *testing.B) {
	const n = 4000
	g := &Grid{Width: n, Height: n, Resolution: 0.05, Cells: make([]int8, n*n), ZMax: 0.5}
	for y := range n {
		for x := range n {
			wall := (x%200 < 2 || y%200 < 2) && !(x%200 > 80 && x%200 < 100) && !(y%200 > 80 && y%200 < 100)
			switch {
			case wall:
				g.Cells[x+y*n] = 100
			case y >= n*9/10:
				g.Cells[x+y*n] = -1
			}
		}
	}
	cfg := Config{Resolution: 0.05, Robot: Robot{Shape: Cylinder, Radius: 0.2, InflationRadius: 0.35, Height: 0.5}}
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m, err := New(cfg)
			require.NoError(b, err)
			_, err = m.Apply(g)
			require.NoError(b, err)
		}
		b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/grid")
		b.ReportMetric(float64(n*n)/(b.Elapsed().Seconds()/float64(b.N)), "cells/s")
	})
	// Updates applied on top of the extruded grid: 1% of the cells
	// flipped at random all over the map (the worst case: every part of
	// the map needs its inflation recomputed), or one 10 m × 10 m patch
	// (200×200 cells) with 10% of its cells flipped (a room rearranged).
	for _, u := range []struct {
		name  string
		cells func(rng *rand.Rand) int
		count int
	}{
		{"update-1pct-scattered", func(rng *rand.Rand) int { return rng.IntN(n * n) }, n * n / 100},
		{"update-10m-patch", func(rng *rand.Rand) int { return 1900 + rng.IntN(200) + (1900+rng.IntN(200))*n }, 4000},
	} {
		b.Run(u.name, func(b *testing.B) {
			m, err := New(cfg)
			require.NoError(b, err)
			_, err = m.Apply(g)
			require.NoError(b, err)
			rng := rand.New(rand.NewPCG(30, 31))
			next := &Grid{}
			*next = *g
			next.Cells = append([]int8(nil), g.Cells...)
			cs := new(ChangeSet)
			listed := 0
			b.ReportAllocs()
			for b.Loop() {
				for range u.count {
					i := u.cells(rng)
					if next.Cells[i] == 100 {
						next.Cells[i] = 0
					} else {
						next.Cells[i] = 100
					}
				}
				require.NoError(b, m.ApplyInto(cs, next))
				listed += cs.Len()
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/update")
			b.ReportMetric(float64(listed)/float64(b.N), "listed-voxels/update")
		})
	}
}
