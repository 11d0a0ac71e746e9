package rosconv

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
)

// gridMsg is a 4×3 map at 0.25 m with its corner at (1, 2):
//
//	row 2:  -1   0   0 100
//	row 1:   0  50  65   0
//	row 0: 100   0  -1   0
func gridMsg() *nav_msgs.OccupancyGrid {
	msg := nav_msgs.NewOccupancyGrid()
	msg.Header.FrameID = "map"
	msg.Info.Resolution = 0.25
	msg.Info.Width, msg.Info.Height = 4, 3
	msg.Info.Origin.Position = geometry_msgs.Point{X: 1, Y: 2, Z: 0.5}
	msg.Data = []int8{100, 0, -1, 0, 0, 50, 65, 0, -1, 0, 0, 100}
	return &msg
}

func TestOccupancyGrid(t *testing.T) {
	msg := gridMsg()
	g, err := OccupancyGrid(msg, 0, 0.75, voxel.UnknownStays)
	require.NoError(t, err)
	require.Equal(t, &voxel.Grid{Width: 4, Height: 3, Resolution: 0.25, Origin: vec(1, 2, 0.5),
		Cells: msg.Data, ZMin: 0, ZMax: 0.75, Unknown: voxel.UnknownStays}, g)
	msg.Data[0] = 7
	require.Equal(t, int8(100), g.Cells[0], "cells are copied")
	msg.Data[0] = 100

	// Applied to a map of the same resolution whose voxels line up with
	// the cells: cell (i, j) is the column of key (4+i, 8+j) over z 0..2;
	// the threshold (Nav2's 100, voxel's default) makes 100 occupied and
	// every other known value free.
	m, err := voxel.New(voxel.Config{Resolution: 0.25})
	require.NoError(t, err)
	_, err = m.Apply(g)
	require.NoError(t, err)
	want := []voxel.Cost{
		voxel.Lethal, voxel.Free, voxel.Unknown, voxel.Free,
		voxel.Free, voxel.Free, voxel.Free, voxel.Free,
		voxel.Unknown, voxel.Free, voxel.Free, voxel.Lethal,
	}
	for z := int32(0); z < 3; z++ {
		for j := range int32(3) {
			for i := range int32(4) {
				require.Equal(t, want[i+4*j], m.Cost(voxel.Key{X: 4 + i, Y: 8 + j, Z: z}), "cell (%d,%d) z %d", i, j, z)
			}
		}
	}
	require.Equal(t, voxel.Unknown, m.Cost(voxel.Key{X: 4, Y: 8, Z: 3}), "above the band")
	require.Equal(t, voxel.Unknown, m.Cost(voxel.Key{X: 3, Y: 8, Z: 0}), "beside the grid")

	g, err = OccupancyGrid(msg, 0, 0.75, voxel.UnknownIsOccupied)
	require.NoError(t, err)
	_, err = m.Apply(g)
	require.NoError(t, err)
	require.Equal(t, voxel.Lethal, m.Cost(voxel.Key{X: 6, Y: 8, Z: 1}))
}

func TestOccupancyGridYaw(t *testing.T) {
	msg := gridMsg()
	msg.Info.Origin.Orientation = tf.YawQuat(math.Pi / 2).Msg()
	g, err := OccupancyGrid(msg, 0, 1, voxel.UnknownIsFree)
	require.NoError(t, err)
	require.InDelta(t, math.Pi/2, g.Yaw, 1e-15)

	msg.Info.Origin.Orientation = geometry_msgs.Quaternion{}
	g, err = OccupancyGrid(msg, 0, 1, voxel.UnknownIsFree)
	require.NoError(t, err, "an unset orientation is no rotation")
	require.Zero(t, g.Yaw)

	msg.Info.Origin.Orientation = geometry_msgs.Quaternion{X: 0.0004, W: 1} // 0.8 mrad of roll
	_, err = OccupancyGrid(msg, 0, 1, voxel.UnknownIsFree)
	require.NoError(t, err, "within MaxGridTilt")
}

// TestOccupancyGridResolution: a 0.05 m map (float32 on the wire) at
// Nav2's usual origin lines up with 0.05 m voxels, cell for voxel.
func TestOccupancyGridResolution(t *testing.T) {
	msg := gridMsg()
	msg.Info.Resolution = 0.05
	msg.Info.Origin.Position = geometry_msgs.Point{X: -10, Y: -10}
	g, err := OccupancyGrid(msg, 0, 0.05, voxel.UnknownStays)
	require.NoError(t, err)
	require.Equal(t, 0.05, g.Resolution)
	m, err := voxel.New(voxel.Config{Resolution: 0.05})
	require.NoError(t, err)
	_, err = m.Apply(g)
	require.NoError(t, err)
	require.Equal(t, voxel.Lethal, m.Cost(voxel.Key{X: -200, Y: -200}))
	require.Equal(t, voxel.Free, m.Cost(voxel.Key{X: -199, Y: -200}), "not widened by a misaligned resampling")
	require.Equal(t, voxel.Unknown, m.Cost(voxel.Key{X: -201, Y: -200}))
	require.Equal(t, voxel.Lethal, m.Cost(voxel.Key{X: -197, Y: -198}))
	require.Equal(t, voxel.Free, m.Cost(voxel.Key{X: -198, Y: -198}))
	require.Equal(t, 0.1, decimal32(0.1))
	require.Equal(t, 0.3, decimal32(0.3))
	require.Equal(t, 1e-40, decimal32(1e-40), "subnormal")
}

func TestOccupancyGridMalformed(t *testing.T) {
	for name, c := range map[string]struct {
		edit       func(*nav_msgs.OccupancyGrid)
		zmin, zmax float64
		unknown    voxel.UnknownAs
		want       error
	}{
		"zero width":      {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Width = 0; m.Data = nil }},
		"zero height":     {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Height = 0; m.Data = nil }},
		"short data":      {edit: func(m *nav_msgs.OccupancyGrid) { m.Data = m.Data[:11] }},
		"long data":       {edit: func(m *nav_msgs.OccupancyGrid) { m.Data = append(m.Data, 0) }},
		"huge":            {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Width, m.Info.Height = math.MaxUint32, math.MaxUint32 }, want: ErrTooLarge},
		"just too large":  {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Width, m.Info.Height = 1<<14, 1<<14+1 }, want: ErrTooLarge},
		"zero resolution": {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Resolution = 0 }},
		"negative res":    {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Resolution = -0.1 }},
		"NaN resolution":  {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Resolution = float32(math.NaN()) }},
		"Inf resolution":  {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Resolution = float32(math.Inf(1)) }},
		"NaN origin":      {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Origin.Position.Y = math.NaN() }},
		"Inf origin":      {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Origin.Position.X = math.Inf(-1) }},
		"NaN orientation": {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Origin.Orientation.W = math.NaN() }},
		"tilted": {edit: func(m *nav_msgs.OccupancyGrid) {
			m.Info.Origin.Orientation = geometry_msgs.Quaternion{X: math.Sin(0.05), W: math.Cos(0.05)}
		}},
		"upside down":  {edit: func(m *nav_msgs.OccupancyGrid) { m.Info.Origin.Orientation = geometry_msgs.Quaternion{Y: 1} }},
		"value 101":    {edit: func(m *nav_msgs.OccupancyGrid) { m.Data[5] = 101 }},
		"value -2":     {edit: func(m *nav_msgs.OccupancyGrid) { m.Data[7] = -2 }},
		"empty band":   {zmin: 1, zmax: 1},
		"reverse band": {zmin: 1, zmax: 0},
		"NaN band":     {zmin: math.NaN(), zmax: 1},
		"Inf band":     {zmin: 0, zmax: math.Inf(1)},
		"bad unknown":  {unknown: 7},
	} {
		msg := gridMsg()
		if c.edit != nil {
			c.edit(msg)
		}
		if c.zmin == 0 && c.zmax == 0 {
			c.zmax = 1
		}
		if c.want == nil {
			c.want = ErrInvalid
		}
		g, err := OccupancyGrid(msg, c.zmin, c.zmax, c.unknown)
		require.ErrorIs(t, err, c.want, name)
		require.Nil(t, g)
		t.Logf("%s: %v", name, err)
	}
}

func TestCostGrid(t *testing.T) {
	costs := []voxel.Cost{0, 1, 2, 126, 251, 252, 253, 254, 255}
	msg, err := CostGrid(costs, 3, 3, 0.05, vec(-1, 2, 0.25), "map", 3*time.Second)
	require.NoError(t, err)
	require.Equal(t, []int8{0, 1, 1, 49, 97, 98, 99, 100, -1}, msg.Data)
	require.Equal(t, "map", msg.Header.FrameID)
	require.Equal(t, int32(3), msg.Header.Stamp.Sec)
	require.Equal(t, msg.Header.Stamp, msg.Info.MapLoadTime)
	require.Equal(t, float32(0.05), msg.Info.Resolution)
	require.Equal(t, uint32(3), msg.Info.Width)
	require.Equal(t, geometry_msgs.Pose{Position: geometry_msgs.Point{X: -1, Y: 2, Z: 0.25}, Orientation: geometry_msgs.Quaternion{W: 1}}, msg.Info.Origin)

	prev := int8(0)
	for c := range 253 {
		v := occupancyOf[c]
		require.True(t, v >= prev && v <= 98, "monotonic within 0..98 at %d", c)
		require.Equal(t, c > 0, v > 0, "only free is 0")
		prev = v
	}

	for name, c := range map[string]struct {
		costs []voxel.Cost
		w, h  int
		res   float64
		want  error
	}{
		"zero width":    {nil, 0, 1, 0.1, ErrInvalid},
		"negative":      {nil, -1, -1, 0.1, ErrInvalid},
		"mismatch":      {costs, 2, 4, 0.1, ErrInvalid},
		"too large":     {costs, 1 << 20, 1 << 20, 0.1, ErrTooLarge},
		"no resolution": {costs, 3, 3, 0, ErrInvalid},
		"NaN":           {costs, 3, 3, math.NaN(), ErrInvalid},
		"tiny":          {costs, 3, 3, 1e-300, ErrInvalid},
		"huge":          {costs, 3, 3, 1e39, ErrInvalid}, // +Inf as the message's float32
	} {
		_, err := CostGrid(c.costs, c.w, c.h, c.res, vec(0, 0, 0), "map", 0)
		require.ErrorIs(t, err, c.want, name)
	}
	_, err = CostGrid(costs, 3, 3, 0.1, vec(math.NaN(), 0, 0), "map", 0)
	require.ErrorIs(t, err, ErrInvalid)
}

// TestCostGridRoundTrip projects a map with an obstacle to a grid and
// reads the grid back as a static layer: lethal cells stay occupied.
func TestCostGridRoundTrip(t *testing.T) {
	const res = 0.125
	m, err := voxel.New(voxel.Config{Resolution: res, Robot: voxel.Robot{Radius: 0.15, InflationRadius: 0.4}})
	require.NoError(t, err)
	_, err = m.Apply(voxel.PutShape{ID: "box", Solid: &voxel.BoxShape{Pose: voxel.Pose{Position: vec(5.5*res, 5.5*res, res/2),
		Orientation: voxel.Identity}, Size: vec(res/2, res/2, res/2)}})
	require.NoError(t, err)
	box := voxel.Box{Min: voxel.Key{X: 0, Y: 0, Z: 0}, Max: voxel.Key{X: 9, Y: 9, Z: 0}}
	costs := m.Project(box, nil)
	msg, err := CostGridBox(m.Frame(), box, costs, "map", 0)
	require.NoError(t, err)
	require.Equal(t, int8(100), msg.Data[5+5*10])
	require.Equal(t, int8(99), msg.Data[6+5*10], "inscribed")
	require.Equal(t, int8(-1), msg.Data[0], "unknown")

	g, err := OccupancyGrid(&msg, 0, res, voxel.UnknownStays)
	require.NoError(t, err)
	m2, err := voxel.New(voxel.Config{Resolution: res})
	require.NoError(t, err)
	_, err = m2.Apply(g)
	require.NoError(t, err)
	require.Equal(t, voxel.Lethal, m2.Cost(voxel.Key{X: 5, Y: 5, Z: 0}))
	require.Equal(t, voxel.Free, m2.Cost(voxel.Key{X: 6, Y: 5, Z: 0}), "99 is below the occupied threshold")

	_, err = CostGridBox(m.Frame(), voxel.Box{Min: voxel.Key{X: 1}}, nil, "map", 0)
	require.ErrorIs(t, err, ErrInvalid)
}
