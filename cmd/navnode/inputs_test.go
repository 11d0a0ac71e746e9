package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
)

// testParams are an aerial robot's parameters over a 20 m square.
func testParams() params {
	return params{MapFrame: "map", BaseFrame: "base_link", Mode: "aerial", Planner: "auto", Resolution: 0.1,
		Origin: r3.Vector{X: -10, Y: -10}, Size: r3.Vector{X: 20, Y: 20, Z: 4}, MinAltitude: 0.3, MaxAltitude: 3,
		SensorMinRange: 0.1, SensorMaxRange: 20, RobotRadius: 0.3, InflationRadius: 0.6, CostScaling: 3, CostWeight: 1,
		Epsilon0: 2.5, EpsilonStep: 0.5, GoalTolerance: 0.5, ReachedTol: 0.25, UnknownIsFree: true, UnknownCost: 252, TickHz: 10,
		DiagnosticsHz: 1, TFTimeout: 500 * time.Millisecond}
}

// testNode is a navnode on a loopback DDS domain, not yet subscribed,
// closed when the test ends; its inbox is the planning goroutine's,
// drained by whoever the test makes the planner.
func testNode(t *testing.T, domain uint32) (*navnode, *dds.Middleware) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	mw, err := dds.New(dds.Loopback(domain))
	require.NoError(t, err)
	node, err := ros.NewNode(ctx, "navnode", ros.WithMiddleware(mw))
	require.NoError(t, err)
	t.Cleanup(func() { node.Close() })
	p := testParams()
	buf, err := tf.NewBuffer(tf.Options{Tolerance: p.TFTimeout})
	require.NoError(t, err)
	return &navnode{node: node, log: node.Logger(), p: p, tf: buf, cnt: newCounters(), inbox: make(chan func(*world), inboxSize)}, mw
}

// TestObstaclesWhilePlannerBusy: MarkerArrays that arrive while the
// planning goroutine is busy all reach the costmap. The subscription
// decodes each message into the same struct, so the handler must hand
// the planner a copy (run with -race, this test also caught the race).
func TestObstaclesWhilePlannerBusy(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, _ := testNode(t, 172)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	require.NoError(t, n.advertise())
	require.NoError(t, n.subscribe())
	pub, err := ros.NewPublisher[visualization_msgs.MarkerArray](n.node, "obstacles", ros.QoSDefault)
	require.NoError(t, err)
	require.NoError(t, pub.WaitMatched(ctx, 1))

	busy := make(chan struct{})
	n.inbox <- func(*world) { <-busy }
	done := make(chan struct{})
	go func() { n.serve(ctx, w); close(done) }()
	const boxes = 10
	for i := range boxes {
		m := visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{{
			Header: std_msgs.Header{FrameID: "map"},
			Ns:     fmt.Sprintf("box%d", i), ID: int32(i), Type: visualization_msgs.Marker_CUBE,
			Pose:  geometry_msgs.Pose{Position: geometry_msgs.Point{X: float64(i) - 5, Y: 2, Z: 1}, Orientation: geometry_msgs.Quaternion{W: 1}},
			Scale: geometry_msgs.Vector3{X: 0.5, Y: 0.5, Z: 0.5}, Color: std_msgs.ColorRGBA{R: 1, A: 1}}}}
		require.NoError(t, pub.Publish(&m))
	}
	require.Eventually(t, func() bool { return received(n.cnt, topicObstacles) == boxes }, 5*time.Second, 10*time.Millisecond)
	close(busy)
	seen := make(chan int)
	require.Eventually(t, func() bool {
		n.send(func(w *world) { seen <- w.markers.Len() })
		return <-seen == boxes
	}, 5*time.Second, 10*time.Millisecond, "every box in the marker state")
	cancel()
	<-done
}

// received is how many messages of topic arrived.
func received(c *counters, topic string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.received[topic]
}

// TestMalformedPayloadsInDiagnostics: payloads that do not decode are
// counted in the inputs' diagnostics, which turn WARN.
func TestMalformedPayloadsInDiagnostics(t *testing.T) {
	n, mw := testNode(t, 173)
	require.NoError(t, n.subscribe())
	raw, err := mw.NewNode("hostile", "/")
	require.NoError(t, err)
	defer raw.Close()
	wr, err := raw.NewWriter("/goal_pose", (&geometry_msgs.PoseStamped{}).MsgType(), ros.QoSDefault, nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return wr.Matched() > 0 }, 5*time.Second, 10*time.Millisecond)
	// An XCDR1 little-endian header, a stamp, then a frame_id of 2^31 bytes.
	bad := []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f}
	const sent = 5
	for range sent {
		require.NoError(t, wr.Write(bad))
	}
	require.NoError(t, wr.WaitAcked(2*time.Second))
	var inputs diagnostic_msgs.DiagnosticStatus
	require.Eventually(t, func() bool {
		d := report(n.cnt, &diagState{repairs: &repairTimes{}}, time.Now(), std_msgs.Header{})
		inputs = d.Status[1]
		return value(inputs, "goal_pose malformed") == fmt.Sprint(sent)
	}, 5*time.Second, 20*time.Millisecond, "goal_pose malformed: %v", inputs.Values)
	require.Equal(t, diagnostic_msgs.DiagnosticStatus_WARN, inputs.Level)
	require.Contains(t, inputs.Message, fmt.Sprintf("%d malformed", sent))
}

// value returns the value of a status's key, "" if absent.
func value(s diagnostic_msgs.DiagnosticStatus, key string) string {
	for _, kv := range s.Values {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// TestRefusedValuesLoggedOnce: refusals that differ only in the values
// they carry from the wire are one kind: logged once, remembered once.
func TestRefusedValuesLoggedOnce(t *testing.T) {
	n, _ := testNode(t, 174)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	const goals = 2000
	for i := range goals {
		g := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map", Stamp: builtin_interfaces.Time{Sec: 1}}}
		g.Pose.Position = geometry_msgs.Point{X: 1000 + float64(i), Z: 1} // outside the planning volume
		g.Pose.Orientation.W = 1
		n.onGoal(g)
		(<-n.inbox)(w)
	}
	n.cnt.mu.Lock()
	defer n.cnt.mu.Unlock()
	require.Equal(t, goals, n.cnt.bad[topicGoal])
	require.Len(t, n.cnt.warned, 1)
}

// transformAt is a map → base_link transform at sec seconds, x metres out.
func transformAt(sec int32, x float64) *tf2_msgs.TFMessage { return tfMsg("map", "base_link", sec, x) }

// TestTFAfterClockJumpsBack: after a transform stamped far in the future
// (or a simulation reset that takes the clock back), the robot's
// transforms are taken again and give its pose; static ones stay.
func TestTFAfterClockJumpsBack(t *testing.T) {
	n, _ := testNode(t, 175)
	laser := &tf2_msgs.TFMessage{Transforms: []geometry_msgs.TransformStamped{{
		Header: std_msgs.Header{FrameID: "base_link"}, ChildFrameID: "laser",
		Transform: geometry_msgs.Transform{Translation: geometry_msgs.Vector3{Z: 0.2}, Rotation: geometry_msgs.Quaternion{W: 1}}}}}
	n.onTF(true)(laser)
	on := n.onTF(false)
	on(transformAt(1<<31-1, 0)) // 2038
	for s := int32(1); s <= 20; s++ {
		on(transformAt(s, float64(s)/10))
	}
	got, err := n.tf.Lookup("map", "laser", 10*time.Second)
	require.NoError(t, err)
	require.InDelta(t, 1.0, got.Translation.X, 1e-12)
	require.InDelta(t, 0.2+1, got.Translation.Z, 1e-12)
	got, err = n.tf.Lookup("map", "base_link", 0)
	require.NoError(t, err)
	require.InDelta(t, 2.0, got.Translation.X, 1e-12, "the pose the planner gets follows the robot")
	n.cnt.mu.Lock()
	defer n.cnt.mu.Unlock()
	require.Zero(t, n.cnt.bad[topicTF])
	require.Equal(t, 1, n.cnt.dropped[topicTF], "one jump back")
}

// TestSimTimeFollowsClockBack: with use_sim_time, outputs are stamped
// with the newest input stamp, and follow the clock back when it jumps
// back (a simulation reset, or a stamp from the future before).
func TestSimTimeFollowsClockBack(t *testing.T) {
	n, _ := testNode(t, 176)
	n.p.SimTime = true
	odom := func(sec int32) *nav_msgs.Odometry {
		o := &nav_msgs.Odometry{Header: std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: sec}, FrameID: "map"}, ChildFrameID: "base_link"}
		o.Pose.Pose.Orientation.W = 1
		return o
	}
	for _, c := range []struct {
		sec  int32
		want time.Duration
	}{
		{100, 100 * time.Second},
		{99, 100 * time.Second}, // a little late: the clock stays
		{1<<31 - 1, (1<<31 - 1) * time.Second},
		{101, 101 * time.Second},
		{102, 102 * time.Second},
		{5, 5 * time.Second}, // a reset
	} {
		n.onOdom(odom(c.sec))
		require.Equal(t, c.want, n.stamp(), "after odometry at %d s", c.sec)
	}
}

// TestRefusedReplacementDeletable: a marker re-added with a size the
// costmap refuses leaves the first one, and a later DELETE removes it.
func TestRefusedReplacementDeletable(t *testing.T) {
	n, _ := testNode(t, 177)
	w, err := newWorld(n.p)
	require.NoError(t, err)
	crate := func(size float64, action int32) *visualization_msgs.MarkerArray {
		return &visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{{
			Header: std_msgs.Header{FrameID: "map"}, Ns: "crates", ID: 1, Type: visualization_msgs.Marker_CUBE, Action: action,
			Pose:  geometry_msgs.Pose{Position: geometry_msgs.Point{X: 1, Y: 1, Z: 1}, Orientation: geometry_msgs.Quaternion{W: 1}},
			Scale: geometry_msgs.Vector3{X: size, Y: size, Z: size}, Color: std_msgs.ColorRGBA{R: 1, A: 1}}}}
	}
	for _, m := range []*visualization_msgs.MarkerArray{
		crate(0.5, visualization_msgs.Marker_ADD),
		crate(1000, visualization_msgs.Marker_ADD), // too large: refused
	} {
		n.onObstacles(m)
		(<-n.inbox)(w)
	}
	require.True(t, w.vm.HasShape("crates/1"))
	n.onObstacles(crate(0.5, visualization_msgs.Marker_DELETE))
	(<-n.inbox)(w)
	require.False(t, w.vm.HasShape("crates/1"), "the first crate is deleted")
	n.cnt.mu.Lock()
	defer n.cnt.mu.Unlock()
	require.Equal(t, 1, n.cnt.bad[topicObstacles], "only the refused one is malformed")
}

// TestDecayForgetsMarks: with decay_s, a sensor mark that no cloud hits
// again for longer than decay_s, on the clouds' own clock, is forgotten;
// one hit again within it stays.
func TestDecayForgetsMarks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, _ := testNode(t, 178)
	n.p.Decay = time.Second
	w, err := newWorld(n.p)
	require.NoError(t, err)
	require.NoError(t, n.advertise())
	done := make(chan struct{})
	go func() { n.serve(ctx, w); close(done) }()

	gone, kept := r3.Vector{X: 3.05, Y: 0.05, Z: 1.05}, r3.Vector{X: -3.05, Y: 0.05, Z: 1.05} // voxel centres
	cloud := func(stamp time.Duration, pts ...r3.Vector) {
		c, err := rosconv.VoxelCloud(pts, "map", stamp)
		require.NoError(t, err)
		n.onPoints(&c)
	}
	occupied := func(p r3.Vector) bool {
		got := make(chan bool)
		n.send(func(w *world) { c, _ := w.vm.CostAt(p); got <- c == voxel.Lethal })
		return <-got
	}
	cloud(100*time.Second, gone, kept)
	require.True(t, occupied(gone))
	cloud(100*time.Second+900*time.Millisecond, kept)
	require.True(t, occupied(gone), "0.9 s old: within decay_s")
	cloud(101*time.Second+500*time.Millisecond, kept)
	require.False(t, occupied(gone), "1.5 s old on the clouds' clock")
	require.True(t, occupied(kept), "hit again 0.6 s ago")
	cancel()
	<-done
}
