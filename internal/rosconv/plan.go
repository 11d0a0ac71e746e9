package rosconv

import (
	"math"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
)

// Path returns points (metres, in frame) as a nav_msgs/Path, every pose
// stamped with frame and stamp as Nav2's planners do. Orientations are
// yaws only (no pitch, even for a drone climbing): pose i faces point i+1
// in the x-y plane. The last pose keeps the heading of the segment before
// it (the robot arrives facing along the path; a goal orientation is the
// caller's to set). Vertical or zero-length segments keep the heading
// before them; those at the start take the first heading after them; a
// path with no horizontal motion is all identity. Points are written as
// given, not checked.
func Path(points []r3.Vector, frame string, stamp time.Duration) nav_msgs.Path {
	h := Header(frame, stamp)
	poses := make([]geometry_msgs.PoseStamped, len(points))
	const still = 1e-9 // metres: shorter horizontal steps have no heading
	first := -1        // index of the first point with a heading
	yaw := 0.0
	for i, p := range points {
		if i+1 < len(points) {
			if d := points[i+1].Sub(p); math.Hypot(d.X, d.Y) > still {
				yaw = math.Atan2(d.Y, d.X)
				if first < 0 {
					first = i
				}
			}
		}
		poses[i] = geometry_msgs.PoseStamped{Header: h, Pose: PoseMsg(tf.Transform{Translation: p, Rotation: tf.YawQuat(yaw)})}
	}
	for i := range first { // before the first heading: take it
		poses[i].Pose.Orientation = poses[first].Pose.Orientation
	}
	return nav_msgs.Path{Header: h, Poses: poses}
}

// Plan markers' namespace, ids and looks.
const (
	PlanNamespace = "navnode"
	PathMarkerID  = 0    // LINE_STRIP of the path
	StartMarkerID = 1    // SPHERE at the start
	GoalMarkerID  = 2    // SPHERE at the goal
	RouteMarkerID = 3    // LINE_STRIP of the tunnel planner's mesh route
	PathWidth     = 0.05 // line width, metres
	EndDiameter   = 0.3  // start and goal spheres, metres
)

// PlanMarkers returns RViz markers for a plan in frame at stamp, in
// namespace PlanNamespace: the path as a green LINE_STRIP (deleted when it
// has fewer than two points, which RViz cannot draw), the start as a blue
// sphere and the goal as a red one (each deleted when nil). Re-publishing
// replaces the previous plan's markers (same ids).
func PlanMarkers(path []r3.Vector, start, goal *r3.Vector, frame string, stamp time.Duration) visualization_msgs.MarkerArray {
	h := Header(frame, stamp)
	marker := func(id, typ int32, scale float64, c std_msgs.ColorRGBA) visualization_msgs.Marker {
		m := visualization_msgs.NewMarker()
		m.Header, m.Ns, m.ID, m.Type, m.Action = h, PlanNamespace, id, typ, visualization_msgs.Marker_ADD
		m.Scale = geometry_msgs.Vector3{X: scale, Y: scale, Z: scale}
		m.Color = c
		return m
	}
	line := marker(PathMarkerID, visualization_msgs.Marker_LINE_STRIP, PathWidth, std_msgs.ColorRGBA{G: 1, A: 1})
	if len(path) < 2 {
		line.Action = visualization_msgs.Marker_DELETE
	} else {
		line.Points = make([]geometry_msgs.Point, len(path))
		for i, p := range path {
			line.Points[i] = Point(p)
		}
	}
	sphere := func(id int32, at *r3.Vector, c std_msgs.ColorRGBA) visualization_msgs.Marker {
		m := marker(id, visualization_msgs.Marker_SPHERE, EndDiameter, c)
		if at == nil {
			m.Action = visualization_msgs.Marker_DELETE
		} else {
			m.Pose.Position = Point(*at)
		}
		return m
	}
	s := sphere(StartMarkerID, start, std_msgs.ColorRGBA{G: 0.4, B: 1, A: 1})
	g := sphere(GoalMarkerID, goal, std_msgs.ColorRGBA{R: 1, A: 1})
	return visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{line, s, g}}
}

// RouteMarker returns the tunnel planner's mesh route as an orange
// LINE_STRIP in namespace PlanNamespace (deleted when it has fewer than
// two points), in frame at stamp.
func RouteMarker(route []r3.Vector, frame string, stamp time.Duration) visualization_msgs.Marker {
	m := visualization_msgs.NewMarker()
	m.Header, m.Ns, m.ID, m.Type = Header(frame, stamp), PlanNamespace, RouteMarkerID, visualization_msgs.Marker_LINE_STRIP
	m.Scale = geometry_msgs.Vector3{X: PathWidth / 2, Y: PathWidth / 2, Z: PathWidth / 2}
	m.Color = std_msgs.ColorRGBA{R: 1, G: 0.55, A: 0.8}
	if len(route) < 2 {
		m.Action = visualization_msgs.Marker_DELETE
		return m
	}
	m.Points = make([]geometry_msgs.Point, len(route))
	for i, p := range route {
		m.Points[i] = Point(p)
	}
	return m
}
