package main

import (
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/sim"
)

// transform returns child's pose t in parent as a TransformStamped.
func transform(parent, child string, now time.Duration, t tf.Transform) geometry_msgs.TransformStamped {
	return geometry_msgs.TransformStamped{Header: rosconv.Header(parent, now), ChildFrameID: child, Transform: t.Msg()}
}

// occupancyGrid returns the world's map as map_server publishes it.
func occupancyGrid(g *voxel.Grid, now time.Duration) *nav_msgs.OccupancyGrid {
	m := &nav_msgs.OccupancyGrid{Header: rosconv.Header(frameMap, now), Data: g.Cells}
	m.Info.MapLoadTime = tf.TimeMsg(now)
	m.Info.Resolution = float32(g.Resolution)
	m.Info.Width, m.Info.Height = uint32(g.Width), uint32(g.Height)
	m.Info.Origin = rosconv.PoseMsg(tf.Transform{Translation: g.Origin, Rotation: tf.YawQuat(g.Yaw)})
	return m
}

// goalMsg returns a goal at p, facing along x.
func goalMsg(p r3.Vector, frame string, now time.Duration) *geometry_msgs.PoseStamped {
	return &geometry_msgs.PoseStamped{Header: rosconv.Header(frame, now),
		Pose: rosconv.PoseMsg(tf.Transform{Translation: p, Rotation: tf.NoRotation})}
}

// markerNamespace is the namespace of the scenario's obstacles on
// obstacles; navnode names their shapes "scenario/<n>".
const markerNamespace = "scenario"

// markerIDs numbers the scenario's obstacle ids for markers, in order of
// first appearance.
type markerIDs map[string]int32

func (ids *markerIDs) id(name string) int32 {
	if *ids == nil {
		*ids = markerIDs{}
	}
	n, ok := (*ids)[name]
	if !ok {
		n = int32(len(*ids))
		(*ids)[name] = n
	}
	return n
}

// array returns obstacle changes as markers: an add or a move is an ADD
// of the shape where it now is, a delete a DELETE.
func (ids *markerIDs) array(changes []sim.ObstacleChange, now time.Duration) *visualization_msgs.MarkerArray {
	a := &visualization_msgs.MarkerArray{}
	for _, c := range changes {
		m := visualization_msgs.Marker{Header: rosconv.Header(frameMap, now), Ns: markerNamespace, ID: ids.id(c.ID),
			Color: std_msgs.ColorRGBA{R: 0.9, G: 0.5, B: 0.1, A: 0.8}}
		m.Pose.Orientation.W = 1
		if c.Action == sim.Delete {
			m.Action = visualization_msgs.Marker_DELETE
			a.Markers = append(a.Markers, m)
			continue
		}
		m.Action = visualization_msgs.Marker_ADD
		s := c.Shape
		m.Pose = rosconv.PoseMsg(tf.Transform{Translation: s.Center, Rotation: tf.YawQuat(s.Yaw)})
		switch s.Kind {
		case sim.KindBox:
			m.Type, m.Scale = visualization_msgs.Marker_CUBE, geometry_msgs.Vector3{X: s.Size.X, Y: s.Size.Y, Z: s.Size.Z}
		case sim.KindCylinder:
			m.Type, m.Scale = visualization_msgs.Marker_CYLINDER, geometry_msgs.Vector3{X: 2 * s.Radius, Y: 2 * s.Radius, Z: s.Height}
		default:
			m.Type, m.Scale = visualization_msgs.Marker_SPHERE, geometry_msgs.Vector3{X: 2 * s.Radius, Y: 2 * s.Radius, Z: 2 * s.Radius}
		}
		a.Markers = append(a.Markers, m)
	}
	return a
}
