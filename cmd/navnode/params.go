package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/replanner"
	"github.com/navnode/navnode/ros"
)

// params are navnode's ROS parameters (config/navnode.yaml lists them
// with the same defaults, descriptions and ranges).
type params struct {
	MapFrame, OdomFrame, BaseFrame string
	Mode, Planner                  string
	Resolution                     float64   // m
	Origin, Size                   r3.Vector // planning volume corner and extent, m
	RobotRadius, RobotHeight       float64   // m
	MinObstacleHeight              float64   // m, ground robots
	InflationRadius, CostScaling   float64   // m, 1/m
	CostWeight                     float64
	MinAltitude, MaxAltitude       float64 // m
	Epsilon0, EpsilonStep          float64
	Budget                         time.Duration // per tick, AD*
	RepairBudget                   time.Duration // per tick, D* Lite after a change on the path
	SwitchDelay                    time.Duration
	TickHz                         float64
	Decay                          time.Duration
	SensorMinRange, SensorMaxRange float64 // m
	GoalTolerance, ReachedTol      float64 // m
	TunnelWidth                    float64 // m
	UnknownIsFree                  bool
	UnknownCost                    float64
	DiagnosticsHz, VoxelsHz        float64
	CostmapHz                      float64
	TFTimeout                      time.Duration
	SimTime                        bool
}

// declareParams declares every parameter on node and returns their values.
func declareParams(n *ros.Node) (params, error) {
	var p params
	var errs []error
	str := func(dst *string, name, def, desc string) {
		v, err := ros.Declare(n, name, def, desc)
		*dst, errs = v, append(errs, err)
	}
	num := func(dst *float64, name string, def float64, desc string, lo, hi float64) {
		v, err := ros.Declare(n, name, def, desc, ros.Range(lo, hi))
		*dst, errs = v, append(errs, err)
	}
	dur := func(dst *time.Duration, name string, def float64, desc string, lo, hi float64, unit time.Duration) {
		var v float64
		num(&v, name, def, desc, lo, hi)
		*dst = time.Duration(v * float64(unit))
	}
	str(&p.MapFrame, "map_frame", "map", "fixed frame of the costmap, the plan and goals")
	str(&p.OdomFrame, "odom_frame", "odom", "odometry frame (REP-105); not read: /odom messages are placed through /tf from their own header's frame")
	str(&p.BaseFrame, "base_frame", "base_link", "the robot's body frame")
	str(&p.Mode, "mode", "aerial", "robot kind: aerial (3D, 26-connected) or ground (floor layer, 8-connected)")
	str(&p.Planner, "planner", "auto", "auto (D* Lite; AD* when budget_ms > 0), dstarlite, adstar, dpastar, tunnel or astar")
	num(&p.Resolution, "resolution", 0.1, "voxel edge, m", voxel.MinResolution, voxel.MaxResolution)
	num(&p.Origin.X, "origin_x", -10, "planning volume corner in the map frame, x, m", -1e6, 1e6)
	num(&p.Origin.Y, "origin_y", -10, "planning volume corner in the map frame, y, m", -1e6, 1e6)
	num(&p.Origin.Z, "origin_z", 0, "planning volume corner in the map frame, z, m (ground: the floor)", -1e6, 1e6)
	num(&p.Size.X, "size_x", 20, "planning volume extent along x, m", 0.1, 1000)
	num(&p.Size.Y, "size_y", 20, "planning volume extent along y, m", 0.1, 1000)
	num(&p.Size.Z, "size_z", 4, "planning volume extent along z, m", 0.1, 1000)
	num(&p.RobotRadius, "robot_radius", 0.3, "inscribed radius: closer to an obstacle is a collision, m", 0, 10)
	num(&p.RobotHeight, "robot_height", 0.5, "ground robots: height above the floor to keep clear, m", 0.01, 10)
	num(&p.MinObstacleHeight, "min_obstacle_height", 0.05, "ground robots: point cloud and scan returns lower than this above origin_z are the floor: their rays clear and they mark nothing, m", 0, 10)
	num(&p.InflationRadius, "inflation_radius", 0.6, "costs are graded up to this distance from obstacles, m (≥ robot_radius)", 0, 25)
	num(&p.CostScaling, "cost_scaling", 3, "Nav2's cost_scaling_factor: how fast graded costs fall, 1/m", 0, 100)
	num(&p.CostWeight, "cost_weight", 1, "a voxel of cost c weighs 1 + cost_weight·c/252 per metre", 0, 100)
	num(&p.MinAltitude, "min_altitude", 0.3, "aerial robots: lowest altitude to fly at, m", -1e6, 1e6)
	num(&p.MaxAltitude, "max_altitude", 3, "aerial robots: highest altitude to fly at, m", -1e6, 1e6)
	num(&p.Epsilon0, "epsilon0", 2.5, "AD*: first inflation factor", 1, 100)
	num(&p.EpsilonStep, "epsilon_step", 0.5, "AD*: how much ε falls per improvement", 0.001, 100)
	dur(&p.Budget, "budget_ms", 0, "planning time per tick (0: none); with planner auto a budget selects AD*, ms", 0, 10000, time.Millisecond)
	dur(&p.RepairBudget, "repair_budget_ms", 5, "D* Lite without budget_ms: search time per tick after a change blocks the path; past it a local detour is published and the repair finishes on later ticks (0: none), ms", 0, 10000, time.Millisecond)
	dur(&p.SwitchDelay, "switch_delay_s", 1, "a cheaper route found after obstacles clear away from the path replaces the path, while it stays legal, only after searches have kept finding it this long, on the wall clock (0: at once), s", 0, 60, time.Second)
	num(&p.TickHz, "tick_hz", 10, "replanning loop rate, Hz (changes and goals also replan at once)", 0.1, 1000)
	dur(&p.Decay, "decay_s", 0, "sensor marks not seen again for this long, on the sensors' clock, are forgotten (0: never), s", 0, 3600, time.Second)
	num(&p.SensorMinRange, "sensor_min_range", 0.1, "points nearer than this are ignored (robot self-hits), m", 0, 100)
	num(&p.SensorMaxRange, "sensor_max_range", 20, "rays clear up to this range and mark nothing beyond, m", 0.1, 400)
	num(&p.GoalTolerance, "goal_tolerance", 0.5, "a goal inside an obstacle moves to the nearest free voxel within this, m", 0, 10)
	num(&p.ReachedTol, "reached_tolerance", 0.25, "the goal is reached within this distance, m", 0, 10)
	num(&p.TunnelWidth, "tunnel_width", 0, "planner tunnel: voxels within this of the navigation mesh route are searched, m (0: five voxels)", 0, 100)
	v, err := ros.Declare(n, "unknown_is_free", true, "plan through voxels nothing has observed")
	p.UnknownIsFree, errs = v, append(errs, err)
	num(&p.UnknownCost, "unknown_cost", 252, "with unknown_is_free: the cost an unobserved voxel weighs as (252: paths keep to observed space; 0: as free space, searches across unobserved space far narrower)", 0, 252)
	num(&p.DiagnosticsHz, "diagnostics_hz", 1, "/diagnostics rate, Hz", 0.1, 100)
	num(&p.VoxelsHz, "voxels_hz", 1, "~/voxels rate (occupied voxels as a PointCloud2), Hz (0: off)", 0, 100)
	num(&p.CostmapHz, "costmap_hz", 1, "~/costmap rate (2D projection for RViz), Hz (0: off)", 0, 100)
	dur(&p.TFTimeout, "tf_timeout", 0.5, "how far past its newest transform a frame may be looked up, s", 0, 10, time.Second)
	st, err := ros.Declare(n, "use_sim_time", false, "stamp outputs with the latest input stamp instead of the wall clock (navnode does not read /clock)")
	p.SimTime, errs = st, append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return p, err
	}
	// Frames as tf2 keys them, and as the node keys every input's
	// frame_id: "/map" (ROS 1's habit) is "map".
	p.MapFrame, p.OdomFrame, p.BaseFrame = tf.FrameName(p.MapFrame), tf.FrameName(p.OdomFrame), tf.FrameName(p.BaseFrame)
	return p, p.check()
}

// check validates what single ranges cannot.
func (p *params) check() error {
	switch {
	case p.Mode != "aerial" && p.Mode != "ground":
		return fmt.Errorf("parameter mode %q: want aerial or ground", p.Mode)
	case !slices.Contains([]string{"auto", "dstarlite", "adstar", "dpastar", "tunnel", "astar"}, p.Planner):
		return fmt.Errorf("parameter planner %q: want auto, dstarlite, adstar, dpastar, tunnel or astar", p.Planner)
	case p.InflationRadius > 0 && p.InflationRadius < p.RobotRadius:
		return fmt.Errorf("parameter inflation_radius %v m is smaller than robot_radius %v m", p.InflationRadius, p.RobotRadius)
	case p.Mode == "aerial" && !(p.MinAltitude < p.MaxAltitude):
		return fmt.Errorf("parameters min_altitude %v and max_altitude %v: want min < max", p.MinAltitude, p.MaxAltitude)
	case p.SensorMinRange >= p.SensorMaxRange:
		return fmt.Errorf("parameters sensor_min_range %v and sensor_max_range %v: want min < max", p.SensorMinRange, p.SensorMaxRange)
	case p.SensorMaxRange > voxel.MaxRangeVoxels*p.Resolution:
		// The costmap would refuse every cloud and scan.
		return fmt.Errorf("parameter sensor_max_range %v m is more than %d voxels of resolution %v m", p.SensorMaxRange, voxel.MaxRangeVoxels, p.Resolution)
	case p.GoalTolerance > replanner.MaxToleranceVoxels*p.Resolution:
		return fmt.Errorf("parameter goal_tolerance %v m is more than %d voxels of resolution %v m", p.GoalTolerance, replanner.MaxToleranceVoxels, p.Resolution)
	case p.MapFrame == "" || p.BaseFrame == "":
		return errors.New("parameters map_frame and base_frame must not be empty")
	}
	// The planner's own limits, checked here so that the node refuses the
	// parameters at start, naming them, rather than failing when it builds
	// the planner.
	b := p.volume()
	if b.Empty() {
		return fmt.Errorf("parameters min_altitude %v and max_altitude %v leave no layer of %v m between origin_z %v and origin_z + size_z %v",
			p.MinAltitude, p.MaxAltitude, p.Resolution, p.Origin.Z, p.Origin.Z+p.Size.Z)
	}
	if cells := b.Volume(); cells > replanner.MaxCells {
		return fmt.Errorf("a planning volume of %d voxels is too large (at most %d): raise resolution or shrink size_*", cells, replanner.MaxCells)
	}
	return nil
}

// voxelConfig is the costmap's configuration.
func (p *params) voxelConfig() voxel.Config {
	shape := voxel.Sphere
	if p.Mode == "ground" {
		shape = voxel.Cylinder
	}
	return voxel.Config{
		Resolution: p.Resolution,
		Origin:     p.Origin,
		Robot: voxel.Robot{Shape: shape, Radius: p.RobotRadius, Height: p.RobotHeight,
			InflationRadius: p.InflationRadius, CostScaling: p.CostScaling},
		Decay: p.Decay,
	}
}

// volume returns the voxels the planner covers: the whole size_* box, or
// for aerial robots its part between the altitude limits, and for ground
// robots its bottom layer.
func (p *params) volume() voxel.Box {
	n := func(v float64) int32 { return int32(math.Max(1, math.Round(v/p.Resolution))) }
	b := voxel.Box{Max: voxel.Key{X: n(p.Size.X) - 1, Y: n(p.Size.Y) - 1, Z: n(p.Size.Z) - 1}}
	if p.Mode == "ground" {
		b.Max.Z = 0
		return b
	}
	lo := int32(math.Ceil((p.MinAltitude-p.Origin.Z)/p.Resolution - 1e-9))
	hi := int32(math.Floor((p.MaxAltitude-p.Origin.Z)/p.Resolution+1e-9)) - 1
	b.Min.Z, b.Max.Z = max(b.Min.Z, lo), min(b.Max.Z, hi)
	return b
}

// floor returns whether sensor returns may be the floor, and the height
// below which they are: for ground robots, min_obstacle_height above the
// floor (origin_z), so that a 3D LiDAR's floor returns do not block the
// floor layer.
func (p *params) floor() (bool, float64) {
	return p.Mode == "ground", p.Origin.Z + p.MinObstacleHeight
}

// liftGoal moves an aerial goal below min_altitude up to the centre of
// the lowest layer plans use, and reports whether it did: RViz's 2D Goal
// Pose tool sends z = 0.
func (p *params) liftGoal(g r3.Vector) (r3.Vector, bool) {
	if p.Mode != "aerial" {
		return g, false
	}
	low := p.volume().Min.Z
	if math.Floor((g.Z-p.Origin.Z)/p.Resolution) >= float64(low) {
		return g, false
	}
	g.Z = p.Origin.Z + (float64(low)+0.5)*p.Resolution
	return g, true
}

// costWeight maps the cost_weight parameter to replanner.Config's: there
// 0 means the default and a negative value means 0.
func costWeight(w float64) float64 {
	if w == 0 {
		return -1
	}
	return w
}

// replannerConfig is the planning loop's configuration.
func (p *params) replannerConfig() replanner.Config {
	c := replanner.Config{
		Volume:           p.volume(),
		Budget:           p.Budget,
		RepairBudget:     p.RepairBudget,
		SwitchDelay:      p.SwitchDelay,
		Epsilon0:         p.Epsilon0,
		EpsilonStep:      p.EpsilonStep,
		UnknownIsFree:    p.UnknownIsFree,
		UnknownCost:      p.UnknownCost,
		CostWeight:       costWeight(p.CostWeight),
		GoalTolerance:    p.GoalTolerance,
		ReachedTolerance: p.ReachedTol,
		TunnelWidth:      p.TunnelWidth,
	}
	if p.Mode == "ground" {
		c.Mode = replanner.Ground
	}
	switch p.Planner {
	case "dstarlite":
		c.Strategy = replanner.DStarLite
	case "adstar":
		c.Strategy = replanner.ADStar
	case "astar":
		c.Strategy = replanner.AStar
	case "dpastar":
		c.Strategy = replanner.DPAStar
	case "tunnel":
		c.Strategy = replanner.Tunnel
	}
	return c
}
