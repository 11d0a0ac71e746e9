package voxel

import (
	"fmt"
	"math"
	"time"

	"github.com/golang/geo/r3"
)

// Cost is a voxel's traversal cost, on Nav2's scale.
type Cost = uint8

// Cost values, as Nav2's costmap_2d names them.
const (
	Free      Cost = 0   // no obstacle within the inflation radius
	Inscribed Cost = 253 // the robot placed here would touch an obstacle
	Lethal    Cost = 254 // the voxel itself is occupied
	Unknown   Cost = 255 // nothing known about the voxel
	// Costs 1..252 grade the distance to the nearest obstacle beyond the
	// inscribed radius: 252·exp(−k·(d − r)).
)

// Shape is the robot's shape for inflation.
type Shape int

const (
	// Sphere: an aerial robot; distances are 3D, measured from the voxel
	// holding the robot's centre.
	Sphere Shape = iota
	// Cylinder: a ground robot, a vertical cylinder standing on the voxel
	// that holds its base; distances are horizontal, to obstacles between
	// the base and the top of the robot.
	Cylinder
)

// Robot describes what inflation protects.
type Robot struct {
	Shape  Shape
	Radius float64 // inscribed radius, metres: costs within it are Inscribed
	Height float64 // Cylinder only: height above the base voxel, metres (> 0)
	// InflationRadius is how far costs are graded, metres (≥ Radius); 0
	// turns inflation off (occupied voxels Lethal, everything else Free or
	// Unknown). As in Nav2, every voxel within ceil(InflationRadius /
	// Resolution) voxel edges of an obstacle gets a cost.
	InflationRadius float64
	// CostScaling is Nav2's cost_scaling_factor k, 1/metres (default 3).
	CostScaling float64
	// InflateUnknown gives unknown voxels their graded cost, as Nav2's
	// inflate_unknown; by default they stay Unknown unless inscribed.
	InflateUnknown bool
}

// SensorModel sets how hits and misses change a voxel's evidence, in
// log-odds; the defaults are OctoMap's (hit 0.7, miss 0.4, clamped to
// probabilities 0.12..0.97). Values are rounded to 1/8.
type SensorModel struct {
	Hit, Miss float64 // log-odds added per hit (> 0) and per miss (< 0)
	Min, Max  float64 // clamping bounds (Min < 0 < Max, within ±15)
}

// DefaultSensorModel is OctoMap's.
var DefaultSensorModel = SensorModel{Hit: 0.85, Miss: -0.4, Min: -2, Max: 3.5}

// Config sets up a Map.
type Config struct {
	Resolution float64   // voxel edge, metres, 0.02..2
	Origin     r3.Vector // map-frame corner of voxel (0,0,0), metres
	Robot      Robot
	Sensor     SensorModel // zero value: DefaultSensorModel
	// Decay forgets a voxel marked by a sensor when it has not been hit
	// again for this long (the spatio-temporal voxel layer's decay); 0
	// keeps marks until rays clear them. Decay happens on Apply(Expire{…}).
	Decay time.Duration
	// Window, when not zero, keeps sensor evidence only near the robot:
	// half extents of a box around the centre given by MoveWindow, metres.
	// Evidence in bricks wholly outside it is dropped (static map and
	// shapes stay), so a local map's memory stays bounded however far the
	// robot goes.
	Window r3.Vector
	// MaxBricks caps memory: updates that would hold more bricks of 8×8×8
	// voxels (about 1–7 KB each) fail with ErrMemory. 0 means 4 million.
	MaxBricks int
}

// Resolution limits.
const (
	MinResolution = 0.02
	MaxResolution = 2.0
)

// maxRadiusVoxels bounds the inflation radius in voxels, so squared
// distances fit uint16.
const maxRadiusVoxels = 250

func (c *Config) validate() error {
	if !(c.Resolution >= MinResolution && c.Resolution <= MaxResolution) {
		return fmt.Errorf("%w: resolution %v m is outside [%v, %v]", ErrConfig, c.Resolution, MinResolution, MaxResolution)
	}
	if !finite(c.Origin) {
		return fmt.Errorf("%w: origin %v is not finite", ErrConfig, c.Origin)
	}
	r := c.Robot
	switch {
	case r.Shape != Sphere && r.Shape != Cylinder:
		return fmt.Errorf("%w: unknown robot shape %d", ErrConfig, r.Shape)
	case !(r.Radius >= 0) || math.IsInf(r.Radius, 0):
		return fmt.Errorf("%w: robot radius %v", ErrConfig, r.Radius)
	case !(r.InflationRadius >= 0) || math.IsInf(r.InflationRadius, 0):
		return fmt.Errorf("%w: inflation radius %v", ErrConfig, r.InflationRadius)
	case r.InflationRadius > 0 && r.InflationRadius < r.Radius:
		return fmt.Errorf("%w: inflation radius %v m is smaller than the robot radius %v m", ErrConfig, r.InflationRadius, r.Radius)
	case math.Ceil(r.InflationRadius/c.Resolution) > maxRadiusVoxels:
		return fmt.Errorf("%w: inflation radius %v m is more than %d voxels", ErrConfig, r.InflationRadius, maxRadiusVoxels)
	case r.Shape == Cylinder && !(r.Height > 0 && r.Height/c.Resolution <= maxRadiusVoxels):
		return fmt.Errorf("%w: cylinder height %v m must be > 0 and at most %d voxels", ErrConfig, r.Height, maxRadiusVoxels)
	case !(r.CostScaling >= 0) || math.IsInf(r.CostScaling, 0):
		return fmt.Errorf("%w: cost scaling %v", ErrConfig, r.CostScaling)
	}
	s := c.Sensor
	if !(s.Hit > 0 && s.Miss < 0 && s.Min < 0 && s.Max > 0 && s.Min >= -15 && s.Max <= 15 && s.Hit <= 15 && s.Miss >= -15) {
		return fmt.Errorf("%w: sensor model %+v: want Hit > 0 > Miss and Min < 0 < Max, all within ±15", ErrConfig, s)
	}
	if c.Decay < 0 {
		return fmt.Errorf("%w: negative decay %v", ErrConfig, c.Decay)
	}
	if !finite(c.Window) || c.Window.X < 0 || c.Window.Y < 0 || c.Window.Z < 0 {
		return fmt.Errorf("%w: window half extents %v", ErrConfig, c.Window)
	}
	if c.MaxBricks < 0 {
		return fmt.Errorf("%w: negative MaxBricks", ErrConfig)
	}
	return nil
}

func (c *Config) setDefaults() {
	if c.Sensor == (SensorModel{}) {
		c.Sensor = DefaultSensorModel
	}
	if c.Robot.CostScaling == 0 && c.Robot.InflationRadius > 0 {
		c.Robot.CostScaling = 3
	}
	if c.MaxBricks == 0 {
		c.MaxBricks = 4 << 20
	}
}

// inflation is the robot's kernel in voxels and the cost of every squared
// distance within it.
type inflation struct {
	shape  Shape
	radius int32   // voxels: distances up to radius get a cost
	height int32   // Cylinder: voxels above the base that count, ≥ 1
	cost   []uint8 // [len = radius²+1] cost at squared distance d², in voxels²
	unk    bool    // InflateUnknown
}

func newInflation(c Config) inflation {
	r := c.Robot
	in := inflation{shape: r.Shape, unk: r.InflateUnknown, height: 1}
	if r.Shape == Cylinder {
		in.height = int32(math.Ceil(r.Height/c.Resolution - 1e-9))
	}
	if r.InflationRadius == 0 {
		return in
	}
	in.radius = int32(math.Ceil(r.InflationRadius/c.Resolution - 1e-9))
	in.cost = make([]uint8, in.radius*in.radius+1)
	for d2 := range in.cost {
		d := math.Sqrt(float64(d2)) * c.Resolution
		switch {
		case d2 == 0 && r.Shape == Sphere:
			in.cost[d2] = Lethal // only an obstacle is at distance 0 from itself
		case d <= r.Radius:
			in.cost[d2] = Inscribed
		default:
			in.cost[d2] = uint8(float64(Inscribed-1) * math.Exp(-r.CostScaling*(d-r.Radius)))
		}
	}
	return in
}

// far is the squared distance stored for "no obstacle within the radius".
const far = math.MaxUint16

// costOf returns the cost of a voxel in state occ at squared distance d2.
func (in *inflation) costOf(occ uint8, d2 uint16) Cost {
	if occ == occupied {
		return Lethal
	}
	c := Free
	if d2 != far {
		c = in.cost[d2]
	}
	if occ == unknown && c < Inscribed && (!in.unk || c == Free) {
		return Unknown
	}
	return c
}
