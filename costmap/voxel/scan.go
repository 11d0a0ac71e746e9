package voxel

import (
	"math"
	"time"

	"github.com/golang/geo/r3"
)

// Scan is a planar laser scan (sensor_msgs/LaserScan's content) with the
// sensor's pose in the map frame: beam i points at AngleMin +
// i·AngleIncrement about the sensor's z axis, in its x-y plane, and is cast
// in 3D from the pose.
type Scan struct {
	Pose                     Pose
	AngleMin, AngleIncrement float64   // radians
	Ranges                   []float32 // metres
	RangeMin, RangeMax       float64   // metres
	Stamp                    time.Duration
	Floor                    bool    // as Cloud's: returns below FloorZ clear and mark nothing
	FloorZ                   float64 // metres, map frame
}

// apply follows REP 117: NaN ranges are skipped as erroneous, -Inf (an
// object nearer than RangeMin) is skipped, +Inf (no return) and ranges
// beyond RangeMax clear up to RangeMax, ranges below RangeMin (negative
// ones too) are skipped, and RangeMin ≤ range ≤ RangeMax is a return.
func (s *Scan) apply(m *Map) error {
	rot, err := poseRotation(s.Pose)
	if err != nil {
		return err
	}
	if math.IsNaN(s.AngleMin) || math.IsInf(s.AngleMin, 0) || math.IsNaN(s.AngleIncrement) || math.IsInf(s.AngleIncrement, 0) {
		m.cs.Input.NonFinite += len(s.Ranges)
		return nil
	}
	c := Cloud{Origin: s.Pose.Position, MinRange: s.RangeMin, MaxRange: s.RangeMax, Stamp: s.Stamp, Floor: s.Floor, FloorZ: s.FloorZ}
	if err := m.checkSensor(c.Origin, c.MinRange, c.MaxRange); err != nil {
		return err
	}
	pts := m.scanPoints[:0]
	// Ranges are classed by their value, before they become points: a
	// negative range would become a point behind the sensor, and one at
	// RangeMax, rotated, lands a rounding error either side of it.
	for i, r := range s.Ranges {
		d := float64(r)
		switch {
		case math.IsNaN(d) || math.IsInf(d, -1):
			m.cs.Input.NonFinite++
			continue
		case d < s.RangeMin: // negative ones too
			m.cs.Input.TooClose++
			continue
		case d > s.RangeMax: // +Inf too
			d = 2 * s.RangeMax // beyond: clears to RangeMax
		default: // a return: kept inside the limits however the point rounds
			d = min(max(d, s.RangeMin*(1+rangeSlack)), s.RangeMax*(1-rangeSlack))
		}
		sin, cos := math.Sincos(s.AngleMin + float64(i)*s.AngleIncrement)
		pts = append(pts, c.Origin.Add(mul(rot, r3.Vector{X: d * cos, Y: d * sin})))
	}
	m.scanPoints = pts
	c.Points = pts
	return c.apply(m)
}

// rangeSlack is how far, relative, a scan's return is moved inside its
// range limits: far above a float64 point's rounding (1e-16), far below
// any sensor's resolution.
const rangeSlack = 1e-9
