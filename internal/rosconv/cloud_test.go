package rosconv

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/sensor_msgs"
)

func vec(x, y, z float64) r3.Vector { return r3.Vector{X: x, Y: y, Z: z} }

func pf(name string, off uint32, dt uint8) sensor_msgs.PointField {
	return sensor_msgs.PointField{Name: name, Offset: off, Datatype: dt, Count: 1}
}

// cloud builds a width×height cloud with the given fields, point_step
// and row_step, writing the points' x, y, z (row by row) where the fields
// say and filling every other byte with 0xAB.
func cloud(fields []sensor_msgs.PointField, step, row uint32, width, height int, big bool, pts []r3.Vector) *sensor_msgs.PointCloud2 {
	data := make([]byte, int(row)*height)
	for i := range data {
		data[i] = 0xAB
	}
	var order binary.ByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	for i, p := range pts {
		base := (i/width)*int(row) + (i%width)*int(step)
		for _, f := range fields {
			a := axisOf(f.Name)
			if a < 0 {
				continue
			}
			v := [3]float64{p.X, p.Y, p.Z}[a]
			if f.Datatype == sensor_msgs.PointField_FLOAT64 {
				order.PutUint64(data[base+int(f.Offset):], math.Float64bits(v))
			} else {
				order.PutUint32(data[base+int(f.Offset):], math.Float32bits(float32(v)))
			}
		}
	}
	return &sensor_msgs.PointCloud2{Height: uint32(height), Width: uint32(width), Fields: fields,
		IsBigendian: big, PointStep: step, RowStep: row, Data: data}
}

func requireVec(t *testing.T, want, got r3.Vector, tol float64, msgAndArgs ...any) {
	t.Helper()
	require.InDelta(t, want.X, got.X, tol, msgAndArgs...)
	require.InDelta(t, want.Y, got.Y, tol, msgAndArgs...)
	require.InDelta(t, want.Z, got.Z, tol, msgAndArgs...)
}

// samplePoints are exact in float32.
var samplePoints = []r3.Vector{vec(1, 2, 3), vec(-0.5, 0.25, 10), vec(0, 0, 0), vec(100.5, -7.75, 0.125), vec(3, 3, -3), vec(-1, -2, -4)}

func TestCloudLayouts(t *testing.T) {
	const f32, f64 = sensor_msgs.PointField_FLOAT32, sensor_msgs.PointField_FLOAT64
	for name, c := range map[string]*sensor_msgs.PointCloud2{
		"plain":            cloud([]sensor_msgs.PointField{pf("x", 0, f32), pf("y", 4, f32), pf("z", 8, f32)}, 12, 72, 6, 1, false, samplePoints),
		"velodyne-like":    cloud([]sensor_msgs.PointField{pf("x", 0, f32), pf("y", 4, f32), pf("z", 8, f32), pf("intensity", 12, f32), pf("ring", 16, 4), pf("time", 18, f32)}, 22, 66, 3, 2, false, samplePoints),
		"padded rows":      cloud([]sensor_msgs.PointField{pf("intensity", 0, f32), pf("x", 4, f32), pf("y", 8, f32), pf("z", 12, f32)}, 32, 3*32+8, 3, 2, false, samplePoints),
		"z y x":            cloud([]sensor_msgs.PointField{pf("rgb", 12, f32), pf("z", 0, f32), pf("y", 4, f32), pf("x", 8, f32)}, 16, 48, 2, 3, false, samplePoints),
		"big-endian":       cloud([]sensor_msgs.PointField{pf("x", 0, f32), pf("y", 4, f32), pf("z", 8, f32)}, 16, 96, 6, 1, true, samplePoints),
		"float64":          cloud([]sensor_msgs.PointField{pf("x", 0, f64), pf("y", 8, f64), pf("z", 16, f64)}, 24, 144, 6, 1, false, samplePoints),
		"float64 big":      cloud([]sensor_msgs.PointField{pf("z", 0, f64), pf("y", 8, f64), pf("x", 16, f64)}, 32, 192, 6, 1, true, samplePoints),
		"mixed, unaligned": cloud([]sensor_msgs.PointField{pf("x", 1, f64), pf("flags", 0, 2), pf("y", 9, f32), pf("z", 13, f64)}, 21, 63, 3, 2, false, samplePoints),
		"array x":          cloud([]sensor_msgs.PointField{{Name: "x", Offset: 0, Datatype: f32, Count: 2}, pf("y", 8, f32), pf("z", 12, f32)}, 16, 96, 6, 1, false, samplePoints),
	} {
		got, err := PointCloud2(c, tf.Identity, nil)
		require.NoError(t, err, name)
		require.Equal(t, samplePoints, got, name)

		move := tf.Transform{Translation: vec(1, -2, 0.5), Rotation: tf.YawQuat(0.7)}
		got, err = PointCloud2(c, move, got)
		require.NoError(t, err, name)
		require.Len(t, got, len(samplePoints))
		for i, p := range samplePoints {
			requireVec(t, move.Apply(p), got[i], 1e-12, "%s point %d", name, i)
		}
	}
}

func TestCloudRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	f := voxel.Frame{Origin: vec(-5, -5, -1), Resolution: 0.1}
	var keys []voxel.Key
	for range 500 {
		keys = append(keys, voxel.Key{X: rng.Int32N(200) - 100, Y: rng.Int32N(200) - 100, Z: rng.Int32N(40)})
	}
	centres := KeyCentres(f, keys, nil)
	msg, err := VoxelCloud(centres, "map", 12*time.Second+5)
	require.NoError(t, err)
	require.True(t, msg.IsDense)
	require.Equal(t, uint32(12), msg.PointStep)
	require.Equal(t, uint32(12*500), msg.RowStep)
	require.Equal(t, uint32(1), msg.Height)
	require.Equal(t, "map", msg.Header.FrameID)
	at, err := tf.Stamp(msg.Header.Stamp)
	require.NoError(t, err)
	require.Equal(t, 12*time.Second+5, at)

	// Through the wire format too.
	wire, err := msg.AppendCDR(nil)
	require.NoError(t, err)
	var back sensor_msgs.PointCloud2
	require.NoError(t, back.UnmarshalCDR(wire))
	got, err := PointCloud2(&back, tf.Identity, nil)
	require.NoError(t, err)
	require.Len(t, got, len(keys))
	for i, k := range keys {
		requireVec(t, centres[i], got[i], 1e-5)
		kk, ok := f.KeyOf(got[i])
		require.True(t, ok)
		require.Equal(t, k, kk, "the centre comes back in its voxel")
	}

	empty, err := VoxelCloud(nil, "map", 0)
	require.NoError(t, err)
	got, err = PointCloud2(&empty, tf.Identity, got)
	require.NoError(t, err)
	require.Empty(t, got)

	inf, err := VoxelCloud([]r3.Vector{vec(1, 2, 3), vec(1e39, 0, 0)}, "map", 0)
	require.NoError(t, err)
	require.False(t, inf.IsDense, "1e39 overflows float32")
}

func TestCloudNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	pts := []r3.Vector{vec(1, 2, 3), vec(nan, 0, 0), vec(0, inf, 0), vec(0, 0, math.Inf(-1)), vec(4, 5, 6)}
	msg, err := VoxelCloud(pts, "lidar", 0)
	require.NoError(t, err)
	require.False(t, msg.IsDense)
	move := tf.Transform{Translation: vec(1, 0, 0), Rotation: tf.YawQuat(1)}
	got, err := PointCloud2(&msg, move, nil)
	require.NoError(t, err)
	require.Len(t, got, 5, "kept in place")
	requireVec(t, move.Apply(pts[0]), got[0], 1e-12)
	requireVec(t, move.Apply(pts[4]), got[4], 1e-12)
	for _, p := range got[1:4] {
		require.True(t, math.IsNaN(p.X) && math.IsNaN(p.Y) && math.IsNaN(p.Z), "%v", p)
	}

	// The costmap counts them.
	m, err := voxel.New(voxel.Config{Resolution: 0.1})
	require.NoError(t, err)
	cs, err := m.Apply(&voxel.Cloud{Origin: move.Translation, Points: got, MaxRange: 20})
	require.NoError(t, err)
	require.Equal(t, 3, cs.Input.NonFinite)
	require.Equal(t, 2, cs.Input.Points)
}

func TestCloudMalformed(t *testing.T) {
	const f32 = sensor_msgs.PointField_FLOAT32
	xyz := []sensor_msgs.PointField{pf("x", 0, f32), pf("y", 4, f32), pf("z", 8, f32)}
	good := func() *sensor_msgs.PointCloud2 { return cloud(slices.Clone(xyz), 12, 36, 3, 2, false, samplePoints) }
	for name, c := range map[string]struct {
		edit func(*sensor_msgs.PointCloud2)
		want error
	}{
		"short data":           {func(c *sensor_msgs.PointCloud2) { c.Data = c.Data[:len(c.Data)-1] }, ErrLayout},
		"long data":            {func(c *sensor_msgs.PointCloud2) { c.Data = append(c.Data, 0) }, ErrLayout},
		"no data":              {func(c *sensor_msgs.PointCloud2) { c.Data = nil }, ErrLayout},
		"point_step too small": {func(c *sensor_msgs.PointCloud2) { c.PointStep = 11 }, ErrLayout},
		"point_step zero":      {func(c *sensor_msgs.PointCloud2) { c.PointStep = 0 }, ErrLayout},
		"row_step too small":   {func(c *sensor_msgs.PointCloud2) { c.RowStep = 35; c.Data = c.Data[:70] }, ErrLayout},
		"width too large":      {func(c *sensor_msgs.PointCloud2) { c.Width = 4 }, ErrLayout},
		"height too large":     {func(c *sensor_msgs.PointCloud2) { c.Height = 3 }, ErrLayout},
		"huge width·height":    {func(c *sensor_msgs.PointCloud2) { c.Width, c.Height = math.MaxUint32, math.MaxUint32 }, ErrLayout},
		"row_step·height wraps": {func(c *sensor_msgs.PointCloud2) {
			c.Width, c.Height, c.RowStep, c.PointStep = 1<<20, 1<<20, 1<<31, 12
		}, ErrLayout},
		"field past the point": {func(c *sensor_msgs.PointCloud2) { c.Fields[2].Offset = 9 }, ErrLayout},
		"offset overflow":      {func(c *sensor_msgs.PointCloud2) { c.Fields[1].Offset = math.MaxUint32 - 1 }, ErrLayout},
		"count overflow":       {func(c *sensor_msgs.PointCloud2) { c.Fields[1].Count = math.MaxUint32 }, ErrLayout},
		"overlapping x, y":     {func(c *sensor_msgs.PointCloud2) { c.Fields[1].Offset = 2 }, ErrLayout},
		"x's count over y, z":  {func(c *sensor_msgs.PointCloud2) { c.Fields[0].Count = 3 }, ErrLayout},
		"same offset":          {func(c *sensor_msgs.PointCloud2) { c.Fields[2].Offset = 0 }, ErrLayout},
		"repeated x":           {func(c *sensor_msgs.PointCloud2) { c.Fields = append(c.Fields, pf("x", 8, f32)) }, ErrLayout},
		"missing z":            {func(c *sensor_msgs.PointCloud2) { c.Fields = c.Fields[:2] }, ErrNoXYZ},
		"no fields":            {func(c *sensor_msgs.PointCloud2) { c.Fields = nil }, ErrNoXYZ},
		"Z not z":              {func(c *sensor_msgs.PointCloud2) { c.Fields[2].Name = "Z" }, ErrNoXYZ},
		"int16 y":              {func(c *sensor_msgs.PointCloud2) { c.Fields[1].Datatype = sensor_msgs.PointField_INT16 }, ErrNoXYZ},
		"unknown datatype":     {func(c *sensor_msgs.PointCloud2) { c.Fields[1].Datatype = 200 }, ErrNoXYZ},
		"count 0":              {func(c *sensor_msgs.PointCloud2) { c.Fields[0].Count = 0 }, ErrNoXYZ},
	} {
		msg := good()
		c.edit(msg)
		dst := make([]r3.Vector, 3, 10)
		got, err := PointCloud2(msg, tf.Identity, dst)
		require.ErrorIs(t, err, c.want, name)
		require.Empty(t, got, name)
		t.Logf("%s: %v", name, err)
	}
}

// TestCloudNoPointsManyRows: a cloud with no points is empty at once,
// however many rows of nothing its header claims.
func TestCloudNoPointsManyRows(t *testing.T) {
	const f32 = sensor_msgs.PointField_FLOAT32
	msg := cloud([]sensor_msgs.PointField{pf("x", 0, f32), pf("y", 4, f32), pf("z", 8, f32)}, 12, 0, 0, 0, false, nil)
	msg.Height = math.MaxUint32
	began := time.Now()
	got, err := PointCloud2(msg, tf.Identity, nil)
	require.NoError(t, err)
	require.Empty(t, got)
	// Not a speed target: walking the rows took a second (more under
	// -race), returning at once takes microseconds.
	require.Less(t, time.Since(began), 500*time.Millisecond, "it walked 2^32 empty rows")
}

func TestCloudAllocs(t *testing.T) {
	msg, err := VoxelCloud(samplePoints, "lidar", 0)
	require.NoError(t, err)
	dst := make([]r3.Vector, 0, len(samplePoints))
	move := tf.Transform{Translation: vec(1, 0, 0), Rotation: tf.YawQuat(1)}
	allocs := testing.AllocsPerRun(100, func() {
		dst, err = PointCloud2(&msg, move, dst)
	})
	require.NoError(t, err)
	require.Zero(t, allocs)
}

// BenchmarkPointCloud2 converts a 64-beam, 1024-column lidar cloud with
// intensity and ring fields.
func BenchmarkPointCloud2(b *testing.B) {
	const f32 = sensor_msgs.PointField_FLOAT32
	const w, h = 1024, 64
	pts := make([]r3.Vector, w*h)
	for i := range pts {
		pts[i] = vec(float64(i%w)/100, float64(i/w)/10, 1)
	}
	msg := cloud([]sensor_msgs.PointField{pf("x", 0, f32), pf("y", 4, f32), pf("z", 8, f32), pf("intensity", 12, f32), pf("ring", 16, 4)}, 18, 18*w, w, h, false, pts)
	move := tf.Transform{Translation: vec(1, 0, 0), Rotation: tf.YawQuat(1)}
	dst := make([]r3.Vector, 0, w*h)
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = PointCloud2(msg, move, dst)
	}
	b.ReportMetric(float64(b.N)*w*h/b.Elapsed().Seconds()/1e6, "Mpoints/s")
}
