package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros"
)

// TestFrameParamsWithLeadingSlash: map_frame and base_frame written as
// in ROS 1 ("/map", "/base_link") name the frames tf2 keys without the
// slash, as the node keys every input's frame_id. A review found a map
// stamped "map" dropped with map_frame "/map" (its frame was compared
// with the parameter as written), and outputs stamped "/map", a frame_id
// tf2 refuses.
func TestFrameParamsWithLeadingSlash(t *testing.T) {
	n, mw := testNode(t, 227)
	args := []string{"--ros-args", "-p", "map_frame:=/map", "-p", "base_frame:=/base_link", "-p", "odom_frame:=/odom"}
	node, err := ros.NewNode(context.Background(), "navnode", ros.WithMiddleware(mw), ros.WithArgs(args))
	require.NoError(t, err)
	defer node.Close()
	n.p, err = declareParams(node)
	require.NoError(t, err)
	require.Equal(t, [3]string{"map", "odom", "base_link"}, [3]string{n.p.MapFrame, n.p.OdomFrame, n.p.BaseFrame})

	m := &nav_msgs.OccupancyGrid{Header: std_msgs.Header{FrameID: "map"}}
	m.Info.Width, m.Info.Height, m.Info.Resolution = 2, 2, 0.1
	m.Info.Origin.Orientation.W = 1
	m.Data = []int8{0, 100, 0, 0}
	n.onMap(m)
	n.cnt.mu.Lock()
	dropped := n.cnt.dropped[topicMap]
	n.cnt.mu.Unlock()
	require.Zero(t, dropped, "a map in frame map dropped")
	require.Len(t, n.inbox, 1, "the map did not reach the planner")
}
