package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
)

func reviewCrate(size float64, action int32) visualization_msgs.Marker {
	return visualization_msgs.Marker{
		Header: std_msgs.Header{FrameID: "map"}, Ns: "crates", ID: 1, Type: visualization_msgs.Marker_CUBE, Action: action,
		Pose:  geometry_msgs.Pose{Position: geometry_msgs.Point{X: 1, Y: 1, Z: 1}, Orientation: geometry_msgs.Quaternion{W: 1}},
		Scale: geometry_msgs.Vector3{X: size, Y: size, Z: size}, Color: std_msgs.ColorRGBA{R: 1, A: 1}}
}

// TestReviewRefusedThenAddedSameArrayDeletable: one MarkerArray holding
// an ADD of crates/1 that the costmap refuses (too large) followed by a
// valid ADD of the same id. Markers remembers the id; the refused Put
// makes onObstacles call forgetShape, after which the second Put puts the
// crate in the costmap while the marker state no longer knows it. A later
// DELETE (or DELETEALL) of crates/1 then does nothing: an obstacle nobody
// can remove. Want: the crate the costmap holds is deleted by DELETE.
func TestReviewRefusedThenAddedSameArrayDeletable(t *testing.T) {
	n, _ := testNode(t, 201)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	n.onObstacles(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{
		reviewCrate(1000, visualization_msgs.Marker_ADD), // refused by the costmap: too many voxels
		reviewCrate(0.5, visualization_msgs.Marker_ADD),
	}})
	(<-n.inbox)(w)
	require.True(t, w.vm.HasShape("crates/1"), "the second ADD holds")

	n.onObstacles(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{reviewCrate(0.5, visualization_msgs.Marker_DELETE)}})
	(<-n.inbox)(w)
	require.False(t, w.vm.HasShape("crates/1"), "DELETE must remove the crate the costmap holds")

	n.onObstacles(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{{Action: visualization_msgs.Marker_DELETEALL}}})
	(<-n.inbox)(w)
	require.False(t, w.vm.HasShape("crates/1"), "nor does DELETEALL remove it")
}

// TestReviewMalformedCountsMessages: one MarkerArray whose three markers
// all have zero scale is one malformed message, as README's Topics and
// the /diagnostics "malformed" key say (and as /tf counts, joining the
// errors of one TFMessage). onObstacles calls n.bad once per bad marker,
// so "obstacles malformed" reads 3 for 1 received message.
func TestReviewMalformedCountsMessages(t *testing.T) {
	n, _ := testNode(t, 202)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	n.cnt.got(topicObstacles) // what sub's wrapper counts on arrival
	m := &visualization_msgs.MarkerArray{}
	for id := range int32(3) {
		c := reviewCrate(0, visualization_msgs.Marker_ADD)
		c.ID = id
		m.Markers = append(m.Markers, c)
	}
	n.onObstacles(m)
	(<-n.inbox)(w)
	n.cnt.mu.Lock()
	defer n.cnt.mu.Unlock()
	require.LessOrEqual(t, n.cnt.bad[topicObstacles], n.cnt.received[topicObstacles],
		"malformed messages (%d) exceed received messages (%d)", n.cnt.bad[topicObstacles], n.cnt.received[topicObstacles])
}
