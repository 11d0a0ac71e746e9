package interop

import (
	"fmt"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
)

// The messages of expect.h, built and checked in Go.

const cloudBytes = 8 << 20

func expectedGoal() geometry_msgs.PoseStamped {
	var m geometry_msgs.PoseStamped
	m.Header = std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: 1700000000, Nanosec: 123456789}, FrameID: "map"}
	m.Pose.Position = geometry_msgs.Point{X: 1.25, Y: -2.5, Z: 3.75}
	m.Pose.Orientation = geometry_msgs.Quaternion{Z: 0.3826834323650898, W: 0.9238795325112867}
	return m
}

func expectedPlan() *nav_msgs.Path {
	m := &nav_msgs.Path{Header: std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: 42, Nanosec: 7}, FrameID: "map"}}
	for i := range 5 {
		var p geometry_msgs.PoseStamped
		p.Header = std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: 42, Nanosec: uint32(i)}, FrameID: "map"}
		p.Pose.Position = geometry_msgs.Point{X: 0.5 * float64(i), Y: -float64(i), Z: 0.25 * float64(i)}
		p.Pose.Orientation.W = 1
		m.Poses = append(m.Poses, p)
	}
	return m
}

func expectedMap() *nav_msgs.OccupancyGrid {
	m := &nav_msgs.OccupancyGrid{Header: std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: 7, Nanosec: 8}, FrameID: "map"}}
	m.Info.MapLoadTime = builtin_interfaces.Time{Sec: 5, Nanosec: 6}
	m.Info.Resolution, m.Info.Width, m.Info.Height = 0.05, 200, 100
	m.Info.Origin.Position = geometry_msgs.Point{X: -5, Y: -2.5, Z: 0.125}
	m.Info.Origin.Orientation = geometry_msgs.Quaternion{X: 0.5, Y: -0.5, Z: 0.5, W: 0.5}
	m.Data = make([]int8, 200*100)
	for i := range m.Data {
		m.Data[i] = int8(i%102 - 1)
	}
	return m
}

func cloudByte(i int) byte { return byte(uint32(i)*31 + uint32(i)>>11) }

func expectedCloud() *sensor_msgs.PointCloud2 {
	m := &sensor_msgs.PointCloud2{Header: std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: 9, Nanosec: 10}, FrameID: "lidar"},
		Height: 1, Width: cloudBytes / 16, PointStep: 16, RowStep: cloudBytes, IsDense: true}
	for i, name := range []string{"x", "y", "z", "intensity"} {
		m.Fields = append(m.Fields, sensor_msgs.PointField{Name: name, Offset: uint32(4 * i),
			Datatype: sensor_msgs.PointField_FLOAT32, Count: 1})
	}
	m.Data = make([]byte, cloudBytes)
	for i := range m.Data {
		m.Data[i] = cloudByte(i)
	}
	return m
}

// cloudMismatch describes how m differs from expectedCloud, or returns "".
func cloudMismatch(m *sensor_msgs.PointCloud2) string {
	want := expectedCloud()
	data := m.Data
	m.Data, want.Data = nil, nil
	defer func() { m.Data = data }()
	if fmt.Sprint(*m) != fmt.Sprint(*want) {
		return fmt.Sprintf("fields differ: got %+v, want %+v", *m, *want)
	}
	if len(data) != cloudBytes {
		return fmt.Sprintf("%d data bytes, want %d", len(data), cloudBytes)
	}
	for i, b := range data {
		if b != cloudByte(i) {
			return fmt.Sprintf("data byte %d is %d, want %d", i, b, cloudByte(i))
		}
	}
	return ""
}
