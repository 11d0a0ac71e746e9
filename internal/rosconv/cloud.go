package rosconv

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/sensor_msgs"
)

// PointCloud2 appends to dst[:0] the points of a sensor_msgs/PointCloud2,
// moved into the map frame by t (the transform from the cloud's frame to
// the map frame at its stamp), and returns the extended slice. With a dst
// of enough capacity it allocates nothing.
//
// Points keep their order and count, row by row (height·width of them):
// a point with a non-finite coordinate comes out as (NaN, NaN, NaN) rather
// than being dropped, so that organised clouds keep their indices and the
// costmap counts it (voxel.InputStats.NonFinite).
//
// The layout may be any: x, y and z are found by name, anywhere in the
// point, with datatype FLOAT32 (7) or FLOAT64 (8), in the byte order
// is_bigendian gives; other fields are ignored and not checked. It checks,
// in 64-bit arithmetic so nothing overflows:
//
//   - x, y, z exist once each, float, count ≥ 1 (ErrNoXYZ; ErrLayout for a
//     repeated name);
//   - each of them lies within point_step and they do not overlap
//     (ErrLayout);
//   - width·point_step ≤ row_step and row_step·height = len(data)
//     (ErrLayout): every point read lies inside data.
func PointCloud2(msg *sensor_msgs.PointCloud2, t tf.Transform, dst []r3.Vector) ([]r3.Vector, error) {
	l, err := cloudLayout(msg)
	if err != nil {
		return dst[:0], err
	}
	n := int(uint64(msg.Width) * uint64(msg.Height)) // ≤ len(data)/12: fits
	if n == 0 {
		return dst[:0], nil // no rows to walk, however many the header says
	}
	dst = slices.Grow(dst[:0], n)[:n]
	nan := math.NaN()
	data, w, step, row := msg.Data, int(msg.Width), int(msg.PointStep), int(msg.RowStep)
	i := 0
	for r := range int(msg.Height) {
		for c := range w {
			p := data[r*row+c*step:][:step]
			v := r3.Vector{X: l.xyz[0].read(p, l.big), Y: l.xyz[1].read(p, l.big), Z: l.xyz[2].read(p, l.big)}
			if tf.Finite(v) {
				v = t.Apply(v)
			} else {
				v = r3.Vector{X: nan, Y: nan, Z: nan}
			}
			dst[i] = v
			i++
		}
	}
	return dst, nil
}

// field is where one coordinate lies in a point.
type field struct {
	off  uint32 // bytes from the point's start
	wide bool   // FLOAT64, else FLOAT32
}

func (f field) read(p []byte, big bool) float64 {
	switch {
	case f.wide && big:
		return math.Float64frombits(binary.BigEndian.Uint64(p[f.off:]))
	case f.wide:
		return math.Float64frombits(binary.LittleEndian.Uint64(p[f.off:]))
	case big:
		return float64(math.Float32frombits(binary.BigEndian.Uint32(p[f.off:])))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(p[f.off:])))
}

func (f field) size() uint64 {
	if f.wide {
		return 8
	}
	return 4
}

type layout struct {
	xyz [3]field
	big bool
}

// axisOf returns 0, 1, 2 for the fields named x, y, z, else -1.
func axisOf(name string) int {
	switch name {
	case "x":
		return 0
	case "y":
		return 1
	case "z":
		return 2
	}
	return -1
}

// cloudLayout finds and checks x, y, z and the cloud's dimensions.
func cloudLayout(msg *sensor_msgs.PointCloud2) (layout, error) {
	l := layout{big: msg.IsBigendian}
	var found [3]bool
	var ends [3]uint64 // where each of x, y, z ends in a point
	for i := range msg.Fields {
		f := &msg.Fields[i]
		a := axisOf(f.Name)
		if a < 0 {
			continue
		}
		if found[a] {
			return l, fmt.Errorf("%w: field %.64q appears twice", ErrLayout, f.Name)
		}
		found[a] = true
		if f.Datatype != sensor_msgs.PointField_FLOAT32 && f.Datatype != sensor_msgs.PointField_FLOAT64 {
			return l, fmt.Errorf("%w: field %.64q has datatype %d: want FLOAT32 (7) or FLOAT64 (8)", ErrNoXYZ, f.Name, f.Datatype)
		}
		if f.Count == 0 {
			return l, fmt.Errorf("%w: field %.64q has count 0", ErrNoXYZ, f.Name)
		}
		fd := field{off: f.Offset, wide: f.Datatype == sensor_msgs.PointField_FLOAT64}
		end := uint64(f.Offset) + fd.size()*uint64(f.Count) // all count elements: none may overlap another field
		if end > uint64(msg.PointStep) {
			return l, fmt.Errorf("%w: field %.64q spans bytes %d..%d of a %d-byte point", ErrLayout, f.Name, f.Offset, end, msg.PointStep)
		}
		l.xyz[a], ends[a] = fd, end
	}
	for a, ok := range found {
		if !ok {
			return l, fmt.Errorf("%w: no field %q among %d fields", ErrNoXYZ, "xyz"[a:a+1], len(msg.Fields))
		}
	}
	for a := range ends {
		for b := a + 1; b < 3; b++ {
			if uint64(l.xyz[a].off) < ends[b] && uint64(l.xyz[b].off) < ends[a] {
				return l, fmt.Errorf("%w: fields %q and %q overlap", ErrLayout, "xyz"[a:a+1], "xyz"[b:b+1])
			}
		}
	}
	w, h := uint64(msg.Width), uint64(msg.Height)
	step, row := uint64(msg.PointStep), uint64(msg.RowStep)
	switch {
	case w*step > row:
		return l, fmt.Errorf("%w: %d points of %d bytes do not fit a row_step of %d", ErrLayout, w, step, row)
	case row*h != uint64(len(msg.Data)):
		return l, fmt.Errorf("%w: %d rows of %d bytes need %d bytes of data, have %d", ErrLayout, h, row, row*h, len(msg.Data))
	}
	return l, nil
}

// KeyCentres appends to dst[:0] the centres of keys' voxels in frame f
// (metres), for VoxelCloud.
func KeyCentres(f voxel.Frame, keys []voxel.Key, dst []r3.Vector) []r3.Vector {
	dst = dst[:0]
	for _, k := range keys {
		dst = append(dst, f.Center(k))
	}
	return dst
}

// cloudPointStep is VoxelCloud's point: x, y, z float32.
const cloudPointStep = 12

// VoxelCloud returns points (metres, in frame) as an unorganised
// sensor_msgs/PointCloud2 (height 1) with float32 fields x, y, z at
// offsets 0, 4, 8, little-endian, point_step 12, row_step 12·len(points);
// is_dense says whether every point is finite (as float32: coordinates
// beyond ±3.4e38 m become infinite). It refuses (ErrTooLarge) more points
// than a row_step can count.
func VoxelCloud(points []r3.Vector, frame string, stamp time.Duration) (sensor_msgs.PointCloud2, error) {
	if uint64(len(points)) > math.MaxUint32/cloudPointStep {
		return sensor_msgs.PointCloud2{}, fmt.Errorf("%w: %d points in one cloud", ErrTooLarge, len(points))
	}
	data := make([]byte, 0, cloudPointStep*len(points))
	dense := true
	for _, p := range points {
		x, y, z := float32(p.X), float32(p.Y), float32(p.Z)
		dense = dense && tf.Finite(r3.Vector{X: float64(x), Y: float64(y), Z: float64(z)})
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(y))
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(z))
	}
	return sensor_msgs.PointCloud2{
		Header: Header(frame, stamp),
		Height: 1,
		Width:  uint32(len(points)),
		Fields: []sensor_msgs.PointField{
			{Name: "x", Offset: 0, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1},
			{Name: "y", Offset: 4, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1},
			{Name: "z", Offset: 8, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1},
		},
		PointStep: cloudPointStep,
		RowStep:   uint32(cloudPointStep * len(points)),
		Data:      data,
		IsDense:   dense,
	}, nil
}
