package rosconv

import (
	"fmt"
	"math"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/sensor_msgs"
)

// MaxBeams bounds the ranges of one laser scan.
const MaxBeams = 1 << 20

// LaserScan converts a sensor_msgs/LaserScan taken from sensorPose (the
// scanner frame's pose in the map frame at the scan's stamp, which the
// caller looks up). Ranges are copied as they are: the costmap applies REP
// 117 to NaN and ±Inf ranges. It checks:
//
//   - angle_min, angle_max, angle_increment finite, angle_increment ≠ 0;
//   - the beam count: len(ranges) ≤ MaxBeams (ErrTooLarge), and within
//     one beam of (angle_max − angle_min)/angle_increment + 1, so that
//     drivers that count the last beam either way pass;
//   - 0 ≤ range_min < range_max, both finite (metres);
//   - the header stamp, and sensorPose: position finite, orientation
//     finite and non-zero (it is normalised).
//
// Intensities are not used and not checked. Errors wrap ErrInvalid or
// ErrTooLarge.
func LaserScan(msg *sensor_msgs.LaserScan, sensorPose voxel.Pose) (*voxel.Scan, error) {
	lo, hi, inc := float64(msg.AngleMin), float64(msg.AngleMax), float64(msg.AngleIncrement)
	rmin, rmax := float64(msg.RangeMin), float64(msg.RangeMax)
	n := len(msg.Ranges)
	switch {
	case !finite(lo, hi, inc) || inc == 0:
		return nil, fmt.Errorf("%w: scan angles min %v max %v increment %v rad", ErrInvalid, lo, hi, inc)
	case n > MaxBeams:
		return nil, fmt.Errorf("%w: %d ranges (limit %d)", ErrTooLarge, n, MaxBeams)
	case n > 0 && math.Abs((hi-lo)/inc+1-float64(n)) > 1.01:
		return nil, fmt.Errorf("%w: %d ranges, but angles %v..%v rad by %v make %.6g beams",
			ErrInvalid, n, lo, hi, inc, (hi-lo)/inc+1)
	case !finite(rmin, rmax) || !(rmin >= 0 && rmin < rmax):
		return nil, fmt.Errorf("%w: scan ranges min %v max %v m", ErrInvalid, rmin, rmax)
	}
	stamp, err := stampOf(&msg.Header)
	if err != nil {
		return nil, err
	}
	if !tf.Finite(sensorPose.Position) {
		return nil, fmt.Errorf("%w: sensor position %s is not finite", ErrInvalid, vecString(sensorPose.Position))
	}
	o := sensorPose.Orientation
	q, err := tf.NewQuat(o.X, o.Y, o.Z, o.W)
	if err != nil {
		return nil, fmt.Errorf("%w: sensor orientation: %w", ErrInvalid, err)
	}
	return &voxel.Scan{
		Pose:           voxel.Pose{Position: sensorPose.Position, Orientation: q.Voxel()},
		AngleMin:       lo,
		AngleIncrement: inc,
		Ranges:         append([]float32(nil), msg.Ranges...),
		RangeMin:       rmin,
		RangeMax:       rmax,
		Stamp:          stamp,
	}, nil
}

// finite reports whether every value is finite.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
