package rosconv

import (
	"errors"
	"math"
	"testing"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
)

// FuzzPointCloud2 feeds arbitrary dimensions, x/y/z fields and data: the
// conversion must return an error or exactly width·height points, and
// never panic.
func FuzzPointCloud2(f *testing.F) {
	good := cloud([]sensor_msgs.PointField{pf("x", 0, 7), pf("y", 4, 7), pf("z", 8, 7)}, 12, 36, 3, 2, false, samplePoints)
	f.Add(good.Height, good.Width, good.PointStep, good.RowStep, false, uint32(0), uint32(4), uint32(8), uint8(7), uint8(7), uint8(7), uint32(1), good.Data)
	f.Add(uint32(2), uint32(1), uint32(24), uint32(24), true, uint32(16), uint32(8), uint32(0), uint8(8), uint8(8), uint8(8), uint32(1), make([]byte, 48))
	f.Add(uint32(1), uint32(3), uint32(21), uint32(70), false, uint32(1), uint32(9), uint32(13), uint8(8), uint8(7), uint8(8), uint32(1), make([]byte, 70))
	f.Add(uint32(math.MaxUint32), uint32(math.MaxUint32), uint32(12), uint32(12), false, uint32(0), uint32(4), uint32(8), uint8(7), uint8(7), uint8(7), uint32(1), []byte{1, 2, 3})
	f.Add(uint32(1), uint32(1), uint32(12), uint32(12), false, uint32(0), uint32(2), uint32(8), uint8(7), uint8(7), uint8(7), uint32(0), make([]byte, 12))
	move := tf.Transform{Translation: r3.Vector{X: 1}, Rotation: tf.YawQuat(0.3)}
	var dst []r3.Vector
	f.Fuzz(func(t *testing.T, height, width, step, row uint32, big bool, xo, yo, zo uint32, xt, yt, zt uint8, count uint32, data []byte) {
		msg := &sensor_msgs.PointCloud2{Height: height, Width: width, PointStep: step, RowStep: row, IsBigendian: big, Data: data,
			Fields: []sensor_msgs.PointField{
				{Name: "x", Offset: xo, Datatype: xt, Count: count},
				{Name: "y", Offset: yo, Datatype: yt, Count: 1},
				{Name: "intensity", Offset: 3, Datatype: 7, Count: 1},
				{Name: "z", Offset: zo, Datatype: zt, Count: 1},
			}}
		var err error
		dst, err = PointCloud2(msg, move, dst)
		switch {
		case err != nil:
			if len(dst) != 0 || !(errors.Is(err, ErrLayout) || errors.Is(err, ErrNoXYZ)) {
				t.Fatalf("error %v with %d points", err, len(dst))
			}
		case uint64(len(dst)) != uint64(width)*uint64(height) || uint64(row)*uint64(height) != uint64(len(data)):
			t.Fatalf("%d points from %d×%d", len(dst), width, height)
		}
		for _, p := range dst {
			if !tf.Finite(p) && !(math.IsNaN(p.X) && math.IsNaN(p.Y) && math.IsNaN(p.Z)) {
				t.Fatalf("partly non-finite point %v", p)
			}
		}
	})
}

// FuzzOccupancyGrid feeds arbitrary grid metadata and cells; small grids
// that convert are applied to a map, which must not fail for them.
func FuzzOccupancyGrid(f *testing.F) {
	g := gridMsg()
	cells := make([]byte, len(g.Data))
	for i, v := range g.Data {
		cells[i] = byte(v)
	}
	f.Add(g.Info.Width, g.Info.Height, g.Info.Resolution, 1.0, 2.0, 0.0, 0.0, 0.0, 1.0, cells)
	f.Add(uint32(2), uint32(2), float32(0.05), -10.0, -10.0, 0.0, 0.0, 0.3, 0.9, []byte{0, 100, 0xff, 50})
	f.Add(uint32(2), uint32(1), float32(0.05), 0.0, 0.0, 0.1, 0.0, 0.0, 1.0, []byte{0, 100})
	f.Add(uint32(1<<16), uint32(1<<16), float32(1), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, []byte{0})
	f.Add(uint32(1), uint32(1), float32(1e-30), 1e300, 0.0, 0.0, 0.0, 0.0, 1.0, []byte{100})
	f.Fuzz(func(t *testing.T, w, h uint32, res float32, x, y, qx, qy, qz, qw float64, data []byte) {
		msg := &nav_msgs.OccupancyGrid{Data: make([]int8, len(data))}
		for i, b := range data {
			msg.Data[i] = int8(b)
		}
		msg.Info.Width, msg.Info.Height, msg.Info.Resolution = w, h, res
		msg.Info.Origin = geometry_msgs.Pose{Position: geometry_msgs.Point{X: x, Y: y},
			Orientation: geometry_msgs.Quaternion{X: qx, Y: qy, Z: qz, W: qw}}
		grid, err := OccupancyGrid(msg, 0, 0.5, voxel.UnknownStays)
		if err != nil {
			if grid != nil || !(errors.Is(err, ErrInvalid) || errors.Is(err, ErrTooLarge)) {
				t.Fatalf("error %v with grid %v", err, grid)
			}
			return
		}
		if len(grid.Cells) != grid.Width*grid.Height || grid.Width != int(w) || math.IsNaN(grid.Yaw) {
			t.Fatalf("grid %d×%d yaw %v with %d cells", grid.Width, grid.Height, grid.Yaw, len(grid.Cells))
		}
		if w*h > 256 || res < 0.05 || res > 1 || math.Abs(x) > 100 || math.Abs(y) > 100 {
			return
		}
		m, err := voxel.New(voxel.Config{Resolution: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Apply(grid); err != nil {
			t.Fatalf("a checked grid is refused: %v", err)
		}
	})
}

// FuzzMarkers feeds one arbitrary marker after a good one: every ADD
// gives an update or an error, and the updates of small shapes apply.
func FuzzMarkers(f *testing.F) {
	f.Add(cube, add, "map", "crates", int32(1), 1.0, 2.0, 0.5, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 1.0, int32(3))
	f.Add(sphere, add, "/odom", "", int32(-4), 1.0, 0.0, 0.0, 0.1, 0.2, 0.3, 0.9, 0.5, 0.8, 0.6, int32(0))
	f.Add(cylinder, add, "odom", "poles", int32(7), 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.4, 3.0, int32(0))
	f.Add(cube, del, "", "ok", int32(1), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, int32(0))
	f.Add(int32(0), delAll, "", "", int32(0), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, int32(0))
	f.Add(cube, add, "map", "big", int32(2), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1e9, 1e-9, math.Inf(1), int32(-1))
	f.Fuzz(func(t *testing.T, typ, action int32, frame, ns string, id int32, x, y, z, qx, qy, qz, qw, sx, sy, sz float64, sec int32) {
		m := marker(ns, id, typ, action, frame, geometry_msgs.Point{X: x, Y: y, Z: z}, geometry_msgs.Vector3{X: sx, Y: sy, Z: sz})
		m.Pose.Orientation = geometry_msgs.Quaternion{X: qx, Y: qy, Z: qz, W: qw}
		m.Header.Stamp.Sec = sec
		var state MarkerState
		msg := markers(marker("ok", 1, cube, add, "map", geometry_msgs.Point{}, geometry_msgs.Vector3{X: 1, Y: 1, Z: 1}), m)
		ups, errs := Markers(msg, lookupMap, &state)
		if len(ups) == 0 || len(errs) > 1 {
			t.Fatalf("%d updates, %d errors: %v", len(ups), len(errs), errs)
		}
		if action == visualization_msgs.Marker_ADD && len(ups)+len(errs) != 2 {
			t.Fatalf("an ADD gave %d updates and %d errors", len(ups)-1, len(errs))
		}
		if max(math.Abs(sx), math.Abs(sy), math.Abs(sz), math.Abs(x), math.Abs(y), math.Abs(z)) > 5 {
			return
		}
		vm, err := voxel.New(voxel.Config{Resolution: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range ups {
			if _, err := vm.Apply(u); err != nil {
				t.Fatalf("update %#v: %v", u, err)
			}
		}
		if vm.Shapes() != state.Len() {
			t.Fatalf("%d shapes, state remembers %d", vm.Shapes(), state.Len())
		}
	})
}

// FuzzLaserScan feeds arbitrary angles, range limits, ranges and sensor
// poses: the conversion must return an error or a scan the costmap
// applies without one, and never panic.
func FuzzLaserScan(f *testing.F) {
	f.Add(float32(-1.5), float32(1.5), float32(0.5), float32(0.1), float32(10), 0.0, 0.0, 1.0, 1.0, []byte{0, 0, 128, 63, 0, 0, 192, 127})
	f.Add(float32(0), float32(6.28), float32(0.01), float32(0), float32(1e30), 1e300, 0.0, 0.0, 0.0, []byte{})
	f.Add(float32(1), float32(-1), float32(-0.5), float32(0.2), float32(0.1), 0.0, -2.0, 0.5, -1.0, make([]byte, 20))
	f.Fuzz(func(t *testing.T, lo, hi, inc, rmin, rmax float32, x, y, qz, qw float64, data []byte) {
		msg := &sensor_msgs.LaserScan{AngleMin: lo, AngleMax: hi, AngleIncrement: inc, RangeMin: rmin, RangeMax: rmax}
		for i := 0; i+4 <= len(data); i += 4 {
			msg.Ranges = append(msg.Ranges, math.Float32frombits(uint32(data[i])|uint32(data[i+1])<<8|uint32(data[i+2])<<16|uint32(data[i+3])<<24))
		}
		pose := voxel.Pose{Position: r3.Vector{X: x, Y: y, Z: 1}, Orientation: voxel.Quat{Z: qz, W: qw}}
		scan, err := LaserScan(msg, pose)
		if err != nil {
			if scan != nil || !(errors.Is(err, ErrInvalid) || errors.Is(err, ErrTooLarge)) {
				t.Fatalf("error %v with scan %v", err, scan)
			}
			return
		}
		if len(scan.Ranges) != len(msg.Ranges) {
			t.Fatalf("%d ranges from %d", len(scan.Ranges), len(msg.Ranges))
		}
		if math.Abs(x) > 100 || math.Abs(y) > 100 || scan.RangeMax > 50 {
			return // valid, but a map far away or a long ray walk: not this target's business
		}
		m, err := voxel.New(voxel.Config{Resolution: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Apply(scan); err != nil {
			t.Fatalf("a scan the conversion passed is refused: %v", err)
		}
	})
}
