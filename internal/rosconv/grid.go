package rosconv

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
)

// MaxGridCells bounds an occupancy grid, in and out: 2^28 cells (16384²),
// the costmap's own limit.
const MaxGridCells = 1 << 28

// MaxGridTilt is how far a grid's origin orientation may lean from a pure
// yaw, radians: the angle between its z axis and the map's.
const MaxGridTilt = 1e-3

// OccupancyGrid converts a nav_msgs/OccupancyGrid to the costmap's static
// layer, extruded over [zmin, zmax) metres of the map frame; unknown says
// what -1 cells become. The grid must be in the map frame (the caller
// checks header.frame_id). It checks:
//
//   - width and height > 0, width·height ≤ MaxGridCells (ErrTooLarge);
//   - len(data) = width·height, every value -1 or 0..100;
//   - resolution finite and > 0 (metres per cell). The message's float32
//     is read as the shortest decimal that rounds to it (0.05f is 0.05,
//     not 0.0500000007), the value the map's YAML file held, so that a
//     grid lines up with voxels of that size;
//   - the origin position finite; its orientation finite and a rotation
//     about z only, within MaxGridTilt, whose yaw becomes Grid.Yaw. An
//     all-zero quaternion (an unset field) counts as no rotation, since
//     Nav2's costmaps ignore the orientation altogether;
//   - zmin < zmax, both finite, and unknown a valid UnknownAs.
//
// Errors wrap ErrInvalid or ErrTooLarge. The cells are copied.
func OccupancyGrid(msg *nav_msgs.OccupancyGrid, zmin, zmax float64, unknown voxel.UnknownAs) (*voxel.Grid, error) {
	info := &msg.Info
	w, h := uint64(info.Width), uint64(info.Height)
	switch {
	case w == 0 || h == 0:
		return nil, fmt.Errorf("%w: grid of %d×%d cells", ErrInvalid, w, h)
	case w*h > MaxGridCells:
		return nil, fmt.Errorf("%w: grid of %d×%d cells (limit %d)", ErrTooLarge, w, h, MaxGridCells)
	case uint64(len(msg.Data)) != w*h:
		return nil, fmt.Errorf("%w: grid of %d×%d cells has %d values", ErrInvalid, w, h, len(msg.Data))
	case !(info.Resolution > 0) || math.IsInf(float64(info.Resolution), 0):
		return nil, fmt.Errorf("%w: grid resolution %v m", ErrInvalid, info.Resolution)
	case math.IsNaN(zmin) || math.IsNaN(zmax) || math.IsInf(zmin, 0) || math.IsInf(zmax, 0) || !(zmin < zmax):
		return nil, fmt.Errorf("%w: extrusion band [%v, %v) m", ErrInvalid, zmin, zmax)
	case unknown < voxel.UnknownStays || unknown > voxel.UnknownIsOccupied:
		return nil, fmt.Errorf("%w: unknown-cell treatment %d", ErrInvalid, unknown)
	}
	origin := Vector(info.Origin.Position)
	if !tf.Finite(origin) {
		return nil, fmt.Errorf("%w: grid origin %s is not finite", ErrInvalid, vecString(origin))
	}
	yaw, err := gridYaw(info.Origin.Orientation)
	if err != nil {
		return nil, err
	}
	for i, v := range msg.Data {
		if v < -1 || v > 100 {
			return nil, fmt.Errorf("%w: grid cell %d (column %d, row %d) is %d: want -1 or 0..100",
				ErrInvalid, i, uint64(i)%w, uint64(i)/w, v)
		}
	}
	return &voxel.Grid{
		Width: int(w), Height: int(h),
		Resolution: decimal32(info.Resolution),
		Origin:     origin,
		Yaw:        yaw,
		Cells:      append([]int8(nil), msg.Data...),
		ZMin:       zmin, ZMax: zmax,
		Unknown: unknown,
	}, nil
}

// decimal32 returns the float64 nearest to the shortest decimal that
// rounds to f.
func decimal32(f float32) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil {
		return float64(f)
	}
	return v
}

// gridYaw returns the yaw of a grid origin's orientation, refusing tilts.
func gridYaw(o geometry_msgs.Quaternion) (float64, error) {
	if o == (geometry_msgs.Quaternion{}) {
		return 0, nil
	}
	q, err := tf.QuatFromMsg(o)
	if err != nil {
		return 0, fmt.Errorf("%w: grid origin orientation: %w", ErrInvalid, err)
	}
	if tilt := q.Tilt(); tilt > MaxGridTilt {
		return 0, fmt.Errorf("%w: grid origin orientation %+v tilts %.3g rad out of the x-y plane (limit %v)",
			ErrInvalid, o, tilt, MaxGridTilt)
	}
	return q.Yaw(), nil
}

// CostGrid returns costs (a row-major width×height projection, as
// voxel.Map.Project writes it, x fastest) as a nav_msgs/OccupancyGrid with
// cells resolution metres wide, cell (0,0)'s outer corner at origin (map
// frame, metres; the grid is not rotated), in frame at stamp. Costs map as
// Nav2's costmap publisher does: Free 0 → 0, 1..252 → 1..98 scaled,
// Inscribed 253 → 99, Lethal 254 → 100, Unknown 255 → -1.
//
// It checks width, height > 0 with width·height ≤ MaxGridCells,
// len(costs) = width·height, resolution finite and > 0 and origin finite;
// errors wrap ErrInvalid or ErrTooLarge.
func CostGrid(costs []voxel.Cost, width, height int, resolution float64, origin r3.Vector,
	frame string, stamp time.Duration) (nav_msgs.OccupancyGrid, error) {
	switch {
	case width <= 0 || height <= 0:
		return nav_msgs.OccupancyGrid{}, fmt.Errorf("%w: grid of %d×%d cells", ErrInvalid, width, height)
	case uint64(width)*uint64(height) > MaxGridCells:
		return nav_msgs.OccupancyGrid{}, fmt.Errorf("%w: grid of %d×%d cells (limit %d)", ErrTooLarge, width, height, MaxGridCells)
	case len(costs) != width*height:
		return nav_msgs.OccupancyGrid{}, fmt.Errorf("%w: grid of %d×%d cells has %d costs", ErrInvalid, width, height, len(costs))
	case !(resolution > 0) || math.IsInf(float64(float32(resolution)), 0) || float32(resolution) == 0:
		return nav_msgs.OccupancyGrid{}, fmt.Errorf("%w: grid resolution %v m", ErrInvalid, resolution)
	case !tf.Finite(origin):
		return nav_msgs.OccupancyGrid{}, fmt.Errorf("%w: grid origin %s is not finite", ErrInvalid, vecString(origin))
	}
	data := make([]int8, len(costs))
	for i, c := range costs {
		data[i] = occupancyOf[c]
	}
	t := tf.TimeMsg(stamp)
	return nav_msgs.OccupancyGrid{
		Header: Header(frame, stamp),
		Info: nav_msgs.MapMetaData{
			MapLoadTime: t,
			Resolution:  float32(resolution),
			Width:       uint32(width), Height: uint32(height),
			Origin: geometry_msgs.Pose{Position: Point(origin), Orientation: tf.NoRotation.Msg()},
		},
		Data: data,
	}, nil
}

// CostGridBox is CostGrid for the projection of box b (voxel.Map.Project
// of b) of a map with voxel frame f: the grid's cells are b's columns.
func CostGridBox(f voxel.Frame, b voxel.Box, costs []voxel.Cost, frame string, stamp time.Duration) (nav_msgs.OccupancyGrid, error) {
	if b.Empty() {
		return nav_msgs.OccupancyGrid{}, fmt.Errorf("%w: empty box %v..%v", ErrInvalid, b.Min, b.Max)
	}
	w, h := int(b.Max.X)-int(b.Min.X)+1, int(b.Max.Y)-int(b.Min.Y)+1
	return CostGrid(costs, w, h, f.Resolution, f.Corner(b.Min), frame, stamp)
}

// occupancyOf maps costs to OccupancyGrid values.
var occupancyOf = func() (t [256]int8) {
	for c := 1; c < int(voxel.Inscribed); c++ {
		t[c] = int8(1 + 97*(c-1)/251)
	}
	t[voxel.Free], t[voxel.Inscribed], t[voxel.Lethal], t[voxel.Unknown] = 0, 99, 100, -1
	return t
}()
