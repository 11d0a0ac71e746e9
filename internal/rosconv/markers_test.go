package rosconv

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
)

// odomInMap places odom 10 m along x of the map, turned 90°.
var odomInMap = tf.Transform{Translation: vec(10, 0, 0), Rotation: tf.YawQuat(math.Pi / 2)}

// lookupMap knows the map and odom frames.
func lookupMap(frame string, _ time.Duration) (tf.Transform, error) {
	switch frame {
	case "map":
		return tf.Identity, nil
	case "odom":
		return odomInMap, nil
	}
	return tf.Transform{}, fmt.Errorf("%w: %q", tf.ErrUnknownFrame, frame)
}

func marker(ns string, id, typ, action int32, frame string, pos geometry_msgs.Point, scale geometry_msgs.Vector3) visualization_msgs.Marker {
	m := visualization_msgs.NewMarker()
	m.Header = Header(frame, 0)
	m.Ns, m.ID, m.Type, m.Action = ns, id, typ, action
	m.Pose.Position = pos
	m.Scale = scale
	return m
}

const (
	cube, sphere, cylinder = visualization_msgs.Marker_CUBE, visualization_msgs.Marker_SPHERE, visualization_msgs.Marker_CYLINDER
	add, del, delAll       = visualization_msgs.Marker_ADD, visualization_msgs.Marker_DELETE, visualization_msgs.Marker_DELETEALL
)

func markers(ms ...visualization_msgs.Marker) *visualization_msgs.MarkerArray {
	return &visualization_msgs.MarkerArray{Markers: ms}
}

func TestMarkersShapes(t *testing.T) {
	var state MarkerState
	ups, errs := Markers(markers(
		marker("crates", 1, cube, add, "map", geometry_msgs.Point{X: 1, Y: 2, Z: 0.5}, geometry_msgs.Vector3{X: 1, Y: 2, Z: 1}),
		marker("crates", 2, sphere, add, "/odom", geometry_msgs.Point{X: 1}, geometry_msgs.Vector3{X: 0.5, Y: 0.8, Z: 0.6}),
		marker("poles", -3, cylinder, add, "odom", geometry_msgs.Point{Y: 1}, geometry_msgs.Vector3{X: 0.2, Y: 0.4, Z: 3}),
	), lookupMap, &state)
	require.Empty(t, errs)
	require.Len(t, ups, 3)
	require.Equal(t, voxel.PutShape{ID: "crates/1", Solid: &voxel.BoxShape{
		Pose: voxel.Pose{Position: vec(1, 2, 0.5), Orientation: voxel.Identity}, Size: vec(1, 2, 1)}}, ups[0])

	s := ups[1].(voxel.PutShape)
	require.Equal(t, voxel.ShapeID("crates/2"), s.ID)
	sp := s.Solid.(*voxel.SphereShape)
	requireVec(t, vec(10, 1, 0), sp.Center, 1e-12, "1 m along odom's x is +y in the map")
	require.Equal(t, 0.4, sp.Radius, "the largest half axis")

	s = ups[2].(voxel.PutShape)
	require.Equal(t, voxel.ShapeID("poles/-3"), s.ID)
	cy := s.Solid.(*voxel.CylinderShape)
	requireVec(t, vec(9, 0, 0), cy.Pose.Position, 1e-12)
	require.InDelta(t, math.Pi/2, tf.Quat(cy.Pose.Orientation).Yaw(), 1e-12)
	require.Equal(t, 0.2, cy.Radius)
	require.Equal(t, 3.0, cy.Height)
	require.Equal(t, 3, state.Len())

	// Into a map: shapes appear; the marker namespace deletes them.
	m, err := voxel.New(voxel.Config{Resolution: 0.1})
	require.NoError(t, err)
	for _, u := range ups {
		_, err := m.Apply(u)
		require.NoError(t, err)
	}
	require.Equal(t, 3, m.Shapes())
	c, _ := m.CostAt(vec(1, 2, 0.5))
	require.Equal(t, voxel.Lethal, c)
	c, _ = m.CostAt(vec(9, 0, 1.4))
	require.Equal(t, voxel.Lethal, c, "inside the pole")

	ups, errs = Markers(markers(marker("crates", 0, 0, delAll, "", geometry_msgs.Point{}, geometry_msgs.Vector3{})), lookupMap, &state)
	require.Empty(t, errs)
	require.Equal(t, []voxel.Update{voxel.DeleteShape{ID: "crates/1"}, voxel.DeleteShape{ID: "crates/2"}}, ups)
	for _, u := range ups {
		_, err := m.Apply(u)
		require.NoError(t, err)
	}
	require.Equal(t, 1, m.Shapes())
	require.Equal(t, 1, state.Len())
}

func TestMarkersActions(t *testing.T) {
	var state MarkerState
	unit := geometry_msgs.Vector3{X: 1, Y: 1, Z: 1}
	put := func(ns string, id int32) visualization_msgs.Marker {
		return marker(ns, id, cube, add, "map", geometry_msgs.Point{}, unit)
	}
	ups, errs := Markers(markers(put("a", 1), put("a", 2), put("b", 1), put("b", 7), put("a", 1)), lookupMap, &state)
	require.Empty(t, errs)
	require.Len(t, ups, 5, "a repeated id is put again (it replaces)")
	require.Equal(t, 4, state.Len())

	ups, errs = Markers(markers(
		marker("a", 2, cube, del, "", geometry_msgs.Point{}, geometry_msgs.Vector3{}),
		marker("a", 2, cube, del, "", geometry_msgs.Point{}, geometry_msgs.Vector3{}),  // gone: nothing
		marker("a", 99, cube, del, "", geometry_msgs.Point{}, geometry_msgs.Vector3{}), // never was: nothing
		marker("c", 0, 0, delAll, "", geometry_msgs.Point{}, geometry_msgs.Vector3{}),  // empty namespace
	), lookupMap, &state)
	require.Empty(t, errs)
	require.Equal(t, []voxel.Update{voxel.DeleteShape{ID: "a/2"}}, ups)
	require.Equal(t, 3, state.Len())

	ups, errs = Markers(markers(put("c", 5), marker("", 0, 0, delAll, "", geometry_msgs.Point{}, geometry_msgs.Vector3{}), put("a", 3)), lookupMap, &state)
	require.Empty(t, errs)
	require.Equal(t, []voxel.Update{ups[0],
		voxel.DeleteShape{ID: "a/1"}, voxel.DeleteShape{ID: "b/1"}, voxel.DeleteShape{ID: "b/7"}, voxel.DeleteShape{ID: "c/5"},
		ups[5]}, ups, "DELETEALL with no namespace deletes everything, in order")
	require.Equal(t, voxel.ShapeID("a/3"), ups[5].(voxel.PutShape).ID)
	require.Equal(t, 1, state.Len())
	state.Forget("a", 3)
	state.Forget("a", 3)
	state.Forget("zz", 3)
	require.Zero(t, state.Len())
}

// TestMarkersErrorsBounded: an array of many bad markers yields
// MaxMarkerErrors errors and one that counts the rest, each quoting names
// cut short, and namespaces longer than MaxNamespace are refused. A review
// found 10,000 cubes in a 1,000-byte unknown frame (a 12 MB message)
// holding 300 MB of error text.
func TestMarkersErrorsBounded(t *testing.T) {
	unit := geometry_msgs.Vector3{X: 1, Y: 1, Z: 1}
	frame := strings.Repeat("\x01", 1000)
	var arr visualization_msgs.MarkerArray
	for i := range 10000 {
		arr.Markers = append(arr.Markers, marker("n", int32(i), cube, add, frame, geometry_msgs.Point{}, unit))
	}
	buf, err := tf.NewBuffer(tf.Options{})
	require.NoError(t, err)
	ts := geometry_msgs.NewTransformStamped()
	ts.Header.FrameID, ts.ChildFrameID = "map", "odom"
	require.NoError(t, buf.Add(&ts, true))
	lookup := func(frame string, stamp time.Duration) (tf.Transform, error) { return buf.Lookup("map", frame, stamp) }
	var state MarkerState
	ups, errs := Markers(&arr, lookup, &state)
	require.Empty(t, ups)
	require.Len(t, errs, MaxMarkerErrors+1)
	require.ErrorIs(t, errs[0], tf.ErrUnknownFrame)
	require.EqualError(t, errs[MaxMarkerErrors], fmt.Sprintf("and %d more markers refused", 10000-MaxMarkerErrors))
	require.Less(t, len(errors.Join(errs...).Error()), 16*1024)

	longest := strings.Repeat("n", MaxNamespace)
	ups, errs = Markers(markers(
		marker(longest, 1, cube, add, "map", geometry_msgs.Point{}, unit),
		marker(longest+"s", 1, cube, add, "map", geometry_msgs.Point{}, unit),
		marker(longest+"s", 1, cube, del, "map", geometry_msgs.Point{}, unit),
	), lookupMap, &state)
	require.Len(t, ups, 1)
	require.Len(t, errs, 2)
	for _, err := range errs {
		require.ErrorIs(t, err, ErrInvalid)
		require.ErrorContains(t, err, "namespace of 257 bytes")
	}
	require.Equal(t, 1, state.Len())
}

func TestMarkersBad(t *testing.T) {
	var state MarkerState
	unit := geometry_msgs.Vector3{X: 1, Y: 1, Z: 1}
	at := geometry_msgs.Point{X: 1}
	good := marker("ok", 1, cube, add, "map", at, unit)
	bad := func(edit func(m *visualization_msgs.Marker)) visualization_msgs.Marker {
		m := marker("bad", 0, sphere, add, "map", at, unit)
		edit(&m)
		return m
	}
	msg := markers(
		bad(func(m *visualization_msgs.Marker) { m.Scale.X = 0 }),
		bad(func(m *visualization_msgs.Marker) { m.Scale.Y = -1 }),
		bad(func(m *visualization_msgs.Marker) { m.Scale.Z = math.NaN() }),
		bad(func(m *visualization_msgs.Marker) { m.Scale.X = math.Inf(1) }),
		bad(func(m *visualization_msgs.Marker) { m.Type = visualization_msgs.Marker_ARROW }),
		bad(func(m *visualization_msgs.Marker) { m.Type = 99 }),
		bad(func(m *visualization_msgs.Marker) { m.Action = 1 }),
		bad(func(m *visualization_msgs.Marker) { m.Action = -7 }),
		bad(func(m *visualization_msgs.Marker) { m.Header.FrameID = "nowhere" }),
		bad(func(m *visualization_msgs.Marker) { m.Header.FrameID = "" }),
		bad(func(m *visualization_msgs.Marker) { m.Pose.Orientation = geometry_msgs.Quaternion{} }),
		bad(func(m *visualization_msgs.Marker) { m.Pose.Position.Z = math.NaN() }),
		bad(func(m *visualization_msgs.Marker) { m.Header.Stamp.Sec = -1 }),
		good,
	)
	ups, errs := Markers(msg, lookupMap, &state)
	require.Len(t, errs, len(msg.Markers)-1, "one error per bad marker")
	require.Len(t, ups, 1, "the good one applies")
	require.Equal(t, voxel.ShapeID("ok/1"), ups[0].(voxel.PutShape).ID)
	require.Equal(t, 1, state.Len(), "bad markers are not remembered")
	wants := []error{ErrInvalid, ErrInvalid, ErrInvalid, ErrInvalid, ErrUnsupported, ErrUnsupported, ErrUnsupported, ErrUnsupported,
		tf.ErrUnknownFrame, tf.ErrUnknownFrame, ErrInvalid, ErrInvalid, ErrInvalid}
	for i, err := range errs {
		require.ErrorIs(t, err, wants[i], "marker %d", i)
		require.ErrorContains(t, err, fmt.Sprintf("marker %d (bad/0)", i))
		t.Log(err)
	}

	// A bad update of a known id leaves the old shape.
	m := marker("ok", 1, cube, add, "map", at, geometry_msgs.Vector3{X: -1, Y: 1, Z: 1})
	ups, errs = Markers(markers(m), lookupMap, &state)
	require.Len(t, errs, 1)
	require.Empty(t, ups)
	require.Equal(t, 1, state.Len())

	// A lookup returning junk is caught too.
	junk := func(string, time.Duration) (tf.Transform, error) {
		return tf.Transform{Translation: vec(math.NaN(), 0, 0), Rotation: tf.NoRotation}, nil
	}
	ups, errs = Markers(markers(good), junk, &state)
	require.Empty(t, ups)
	require.ErrorIs(t, errs[0], ErrInvalid)
}
