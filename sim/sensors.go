package sim

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"
)

// What a LiDAR does with a beam that hits nothing within its range
// (Lidar.NoReturn).
const (
	// NoReturnClear publishes the beam as a point at twice the range, so
	// that navnode, whose sensor_max_range the scenario sets to the range,
	// clears space along it and marks nothing. The default.
	NoReturnClear = "clear"
	// NoReturnInf publishes a point at +Inf, as Gazebo's gpu_lidar does
	// (navnode skips it: such beams clear nothing).
	NoReturnInf = "inf"
	// NoReturnDrop leaves the beam out, as many drivers do.
	NoReturnDrop = "drop"
)

// Lidar is a spinning multi-beam 3D LiDAR on the robot: Beams rings
// spread evenly over VerticalFOV, centred on the horizon, each sampled at
// Samples azimuths over a full turn, starting straight ahead and turning
// counter-clockwise. Its frame (lidar) is the robot's body frame raised
// by Z.
type Lidar struct {
	Beams       int     // rings, 1 to 128
	VerticalFOV float64 // degrees, [0, 180); one beam looks at the horizon
	Samples     int     // azimuths per ring, 8 to 4096
	Range       float64 // metres, (0, 200]
	Rate        float64 // scans per second, (0, 50]: at most one a step
	Z           float64 // height above base_link, metres
	NoReturn    string  // NoReturnClear (default), NoReturnInf or NoReturnDrop

	dirs []r3.Vector // unit ray directions in the sensor frame, ring by ring
}

// Laser is a 2D laser scanner on the robot: Samples beams over a full
// turn from −π, counter-clockwise, in the plane of its frame (laser), the
// robot's body frame raised by Z.
type Laser struct {
	Samples int     // 8 to 8192
	Range   float64 // metres, (0, 200]
	Rate    float64 // scans per second, (0, 50]: at most one a step
	Z       float64 // height above base_link, metres
}

// check validates a LiDAR's settings.
func (l *Lidar) check() error {
	switch {
	case l.Beams < 1 || l.Beams > 128:
		return fmt.Errorf("lidar beams %d: want 1 to 128", l.Beams)
	case !(l.VerticalFOV >= 0 && l.VerticalFOV < 180):
		return fmt.Errorf("lidar vertical_fov %v°: want [0, 180)", l.VerticalFOV)
	case l.Samples < 8 || l.Samples > 4096:
		return fmt.Errorf("lidar samples %d: want 8 to 4096", l.Samples)
	case l.NoReturn != NoReturnClear && l.NoReturn != NoReturnInf && l.NoReturn != NoReturnDrop:
		return fmt.Errorf("lidar no_return %q: want clear, inf or drop", l.NoReturn)
	}
	return checkRange("lidar", l.Range, l.Rate, l.Z)
}

// check validates a laser's settings.
func (l *Laser) check() error {
	if l.Samples < 8 || l.Samples > 8192 {
		return fmt.Errorf("laser samples %d: want 8 to 8192", l.Samples)
	}
	return checkRange("laser", l.Range, l.Rate, l.Z)
}

func checkRange(name string, rng, rate, z float64) error {
	switch {
	case !(rng > 0 && rng <= 200):
		return fmt.Errorf("%s range %v m: want (0, 200]", name, rng)
	case !(rate > 0 && rate <= 1/StepDT):
		return fmt.Errorf("%s rate %v Hz: want (0, %v]: the simulation steps every %v s", name, rate, 1/StepDT, StepDT)
	case !(math.Abs(z) <= 10):
		return fmt.Errorf("%s z %v m: want within 10 m of base_link", name, z)
	}
	return nil
}

// Elevation returns the elevation of ring i, radians.
func (l *Lidar) Elevation(i int) float64 {
	if l.Beams == 1 {
		return 0
	}
	fov := l.VerticalFOV * math.Pi / 180
	return -fov/2 + fov*float64(i)/float64(l.Beams-1)
}

// directions returns the rays in the sensor frame, made once.
func (l *Lidar) directions() []r3.Vector {
	if len(l.dirs) == l.Beams*l.Samples {
		return l.dirs
	}
	l.dirs = l.dirs[:0]
	for i := range l.Beams {
		se, ce := math.Sincos(l.Elevation(i))
		for j := range l.Samples {
			sa, ca := math.Sincos(2 * math.Pi * float64(j) / float64(l.Samples))
			l.dirs = append(l.dirs, r3.Vector{X: ce * ca, Y: ce * sa, Z: se})
		}
	}
	return l.dirs
}

// Scan casts every beam from the sensor on a robot at pos with yaw in w,
// and appends the returns to dst[:0] in the sensor frame, ring by ring
// (Beams·Samples points unless NoReturn is NoReturnDrop).
func (l *Lidar) Scan(w *World, pos r3.Vector, yaw float64, dst []r3.Vector) []r3.Vector {
	dst = dst[:0]
	origin := pos.Add(r3.Vector{Z: l.Z})
	s, c := math.Sincos(yaw)
	for _, d := range l.directions() {
		wd := r3.Vector{X: c*d.X - s*d.Y, Y: s*d.X + c*d.Y, Z: d.Z}
		t, hit := w.Raycast(origin, wd, l.Range)
		switch {
		case hit:
			dst = append(dst, d.Mul(t))
		case l.NoReturn == NoReturnClear:
			dst = append(dst, d.Mul(2*l.Range))
		case l.NoReturn == NoReturnInf:
			inf := math.Inf(1)
			dst = append(dst, r3.Vector{X: inf, Y: inf, Z: inf})
		}
	}
	return dst
}

// AngleMin is the angle of the scan's first beam, radians.
func (l *Laser) AngleMin() float64 { return -math.Pi }

// Increment is the angle between beams, radians.
func (l *Laser) Increment() float64 { return 2 * math.Pi / float64(l.Samples) }

// LaserRangeMin is the simulated laser's least range, metres: a return
// nearer than that reads −Inf, too close (REP 117).
const LaserRangeMin = 0.05

// Scan casts every beam from the scanner on a robot at pos with yaw in w
// and appends the ranges to dst[:0], metres: +Inf where nothing is within
// Range, −Inf where the return is nearer than LaserRangeMin (REP 117).
func (l *Laser) Scan(w *World, pos r3.Vector, yaw float64, dst []float32) []float32 {
	dst = dst[:0]
	origin := pos.Add(r3.Vector{Z: l.Z})
	for i := range l.Samples {
		s, c := math.Sincos(yaw + l.AngleMin() + float64(i)*l.Increment())
		t, hit := w.Raycast(origin, r3.Vector{X: c, Y: s}, l.Range)
		switch {
		case !hit:
			t = math.Inf(1)
		case float32(t) < LaserRangeMin:
			t = math.Inf(-1)
		}
		dst = append(dst, float32(t))
	}
	return dst
}
