package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
)

// tfMsg is one transform, parent → child, stamped sec, at (x, 1, 1).
func tfMsg(parent, child string, sec int32, x float64) *tf2_msgs.TFMessage {
	return &tf2_msgs.TFMessage{Transforms: []geometry_msgs.TransformStamped{{
		Header:       std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: sec}, FrameID: parent},
		ChildFrameID: child,
		Transform:    geometry_msgs.Transform{Translation: geometry_msgs.Vector3{X: x, Y: 1, Z: 1}, Rotation: geometry_msgs.Quaternion{W: 1}}}}}
}

// TestPoseFromTFThroughFootprint: a robot without odometry messages
// whose TF tree is map → odom → base_footprint → base_link (base_link a
// static child of base_footprint, REP-120 and Nav2's usual tree) gets its
// pose from /tf (it used to, only when base_link itself moved).
func TestPoseFromTFThroughFootprint(t *testing.T) {
	n, _ := testNode(t, 211)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	n.onTF(true)(tfMsg("map", "odom", 0, 0))
	static := tfMsg("base_footprint", "base_link", 0, 0)
	static.Transforms[0].Transform.Translation = geometry_msgs.Vector3{Z: 0.1}
	n.onTF(true)(static)
	for s := int32(1); s <= 5; s++ {
		n.onTF(false)(tfMsg("odom", "base_footprint", s, float64(s)))
	}
	_, err = n.tf.Lookup("map", "base_link", 0)
	require.NoError(t, err, "map → base_link is in the buffer")
	select {
	case f := <-n.inbox:
		f(w)
	default:
	}
	require.False(t, w.poseAt.IsZero(), "the robot's pose never reached the planner")
}

// TestSimTimeFromTF: with use_sim_time, /tf stamps are input stamps, so
// a robot whose pose comes from /tf and that has no sensor yet stamps its
// outputs with them (they were stamped 0).
func TestSimTimeFromTF(t *testing.T) {
	n, _ := testNode(t, 214)
	n.p.SimTime = true
	n.onTF(false)(transformAt(100, 0))
	require.Equal(t, 100*time.Second, n.stamp())
}
