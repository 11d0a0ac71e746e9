package sim

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Param is a navnode parameter a scenario needs.
type Param struct {
	Name  string
	Value any    // float64, bool or string
	Why   string // a comment for the parameters file
}

// Params is an ordered list of parameters.
type Params []Param

// Get returns the value of parameter name, or nil.
func (p Params) Get(name string) any {
	for _, q := range p {
		if q.Name == name {
			return q.Value
		}
	}
	return nil
}

// set replaces or appends a parameter.
func (p *Params) set(name string, v any, why string) {
	for i := range *p {
		if (*p)[i].Name == name {
			(*p)[i].Value, (*p)[i].Why = v, why
			return
		}
	}
	*p = append(*p, Param{name, v, why})
}

// NavnodeParams returns the navnode parameters scenario sc needs in world
// w, overriding config/navnode.yaml's defaults:
//
//   - mode from the robot type; resolution (Scenario.Resolution);
//   - the planning volume (origin_*, size_*) from the world's bounds;
//   - robot_radius: the robot's radius plus one voxel (navnode measures
//     clearance between voxel centres, so a path may pass up to a voxel
//     nearer the real surfaces) plus the controller's corner tolerance;
//     inflation_radius 0.4 m beyond it; robot_height for ground robots;
//   - aerial robots: min_altitude and max_altitude, a voxel plus the
//     radius inside the bounds (at least 0.5 m above the floor);
//   - sensor_max_range: the shortest sensor range, so that the LiDAR's
//     no-return points (at twice the range) only clear;
//   - reached_tolerance: half the scenario's goal tolerance, at most
//     0.25 m; diagnostics_hz 5, so statuses and replans arrive promptly.
//
// The scenario's navnode block comes last and wins.
func NavnodeParams(sc *Scenario, w *World) Params {
	res := sc.Resolution()
	b, size := w.Bounds, w.Bounds.Size()
	r := sc.Robot.Radius
	var p Params
	p.set("mode", sc.Robot.Type, "the scenario's robot")
	p.set("resolution", res, "voxel edge, m")
	for i, axis := range []string{"x", "y", "z"} {
		p.set("origin_"+axis, round4([]float64{b.Min.X, b.Min.Y, b.Min.Z}[i]), "the world's bounds, m")
	}
	for i, axis := range []string{"x", "y", "z"} {
		p.set("size_"+axis, round4(clamp([]float64{size.X, size.Y, size.Z}[i], 0.1, 1000)), "the world's bounds, m")
	}
	rr := round3(r + res + sc.Controller.Tolerance)
	p.set("robot_radius", rr, fmt.Sprintf("the robot's %g m, one voxel and the controller's %g m corner tolerance", r, sc.Controller.Tolerance))
	p.set("inflation_radius", round3(rr+0.4), "costs graded 0.4 m beyond robot_radius, m")
	if sc.Robot.Type == Ground {
		p.set("robot_height", sc.Robot.Height, "the robot's height, m")
	} else {
		lo := b.Min.Z + max(0.5, r+res)
		hi := max(lo+res, b.Max.Z-r-res)
		p.set("min_altitude", round3(lo), "a voxel and the robot's radius above the floor, at least 0.5 m")
		p.set("max_altitude", round3(hi), "a voxel and the robot's radius below the top of the world, m")
	}
	rng := math.Inf(1)
	if sc.Lidar != nil {
		rng = sc.Lidar.Range
	}
	if sc.Laser != nil {
		rng = min(rng, sc.Laser.Range)
	}
	if !math.IsInf(rng, 1) {
		p.set("sensor_max_range", rng, "the sensors' range: farther points (the LiDAR's no-returns) only clear, m")
	}
	p.set("reached_tolerance", round3(min(0.25, sc.GoalTolerance/2)), "well inside the scenario's goal tolerance, m")
	p.set("diagnostics_hz", 5.0, "navsim reads statuses and replans from /diagnostics, Hz")
	keys := make([]string, 0, len(sc.Navnode))
	for k := range sc.Navnode {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p.set(k, sc.Navnode[k], "set by the scenario")
	}
	return p
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// WriteParams writes p as a ROS 2 parameters file for a node named
// navnode in any namespace (/**/navnode), each parameter after a comment
// saying why (when there is one), under a header of comment lines.
func WriteParams(w io.Writer, p Params, header string) error {
	bw := bufio.NewWriter(w)
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		fmt.Fprintf(bw, "# %s\n", line)
	}
	bw.WriteString("/**/navnode:\n  ros__parameters:\n")
	for _, q := range p {
		if q.Why != "" {
			fmt.Fprintf(bw, "    # %s\n", q.Why)
		}
		fmt.Fprintf(bw, "    %s: %s\n", q.Name, paramValue(q.Value))
	}
	return bw.Flush()
}

// paramValue writes a value as YAML that ROS reads back with its type: a
// double always with a decimal point, a string quoted.
func paramValue(v any) string {
	switch v := v.(type) {
	case float64:
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	case string:
		return strconv.Quote(v)
	}
	return fmt.Sprint(v)
}
