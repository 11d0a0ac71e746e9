package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/syncbuf"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
	"github.com/navnode/navnode/sim"
)

// loopback puts this process's default middleware on domain, loopback
// only, as test/node does for navnode, and returns a peer node there.
func loopback(t *testing.T, ctx context.Context, domain uint32) *ros.Node {
	t.Setenv("ROS_DOMAIN_ID", fmt.Sprint(domain))
	t.Setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
	t.Setenv("CYCLONEDDS_URI", dds.LoopbackInterface)
	mw, err := dds.New(dds.Loopback(domain))
	require.NoError(t, err)
	n, err := ros.NewNode(ctx, "peer", ros.WithMiddleware(mw))
	require.NoError(t, err)
	t.Cleanup(func() { n.Close() })
	return n
}

// inbox keeps copies of the messages of one topic.
type inbox[T any] struct {
	mu   sync.Mutex
	msgs []T
}

func (b *inbox[T]) add(m T) {
	b.mu.Lock()
	b.msgs = append(b.msgs, m)
	b.mu.Unlock()
}

func (b *inbox[T]) all() []T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]T(nil), b.msgs...)
}

// listen subscribes to topic, keeping a copy of each message made by cp
// (the subscription reuses its message).
func listen[T any, PT ros.Message[T]](t *testing.T, n *ros.Node, topic string, q ros.QoS, cp func(*T) T) *inbox[T] {
	b := &inbox[T]{}
	_, err := ros.Subscribe[T, PT](n, topic, q, func(m *T) { b.add(cp(m)) })
	require.NoError(t, err)
	return b
}

// TestNavsimOverDDS runs navsim with testdata/short.yaml while a peer
// plays navnode: it advertises plan and subscribes to goal_pose (so the
// mission starts), sends a plan and diagnostics, and checks that odom,
// points, scan, tf, tf_static, obstacles and goal_pose arrive well
// formed, the robot follows the plan, and the log tells the mission.
func TestNavsimOverDDS(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	peer := loopback(t, ctx, 193)
	odom := listen[nav_msgs.Odometry](t, peer, "/odom", ros.QoSDefault, func(m *nav_msgs.Odometry) nav_msgs.Odometry { return *m })
	points := listen[sensor_msgs.PointCloud2](t, peer, "/points", ros.QoSSensorData, func(m *sensor_msgs.PointCloud2) sensor_msgs.PointCloud2 {
		c := *m
		c.Fields, c.Data = append(c.Fields[:0:0], m.Fields...), append(c.Data[:0:0], m.Data...)
		return c
	})
	scans := listen[sensor_msgs.LaserScan](t, peer, "/scan", ros.QoSSensorData, func(m *sensor_msgs.LaserScan) sensor_msgs.LaserScan {
		c := *m
		c.Ranges = append(c.Ranges[:0:0], m.Ranges...)
		return c
	})
	tfCopy := func(m *tf2_msgs.TFMessage) tf2_msgs.TFMessage {
		return tf2_msgs.TFMessage{Transforms: append(m.Transforms[:0:0], m.Transforms...)}
	}
	tfs := listen[tf2_msgs.TFMessage](t, peer, "/tf", ros.QoSDefault, tfCopy)
	static := listen[tf2_msgs.TFMessage](t, peer, "/tf_static", ros.QoSMap, tfCopy)
	markers := listen[visualization_msgs.MarkerArray](t, peer, "/obstacles", ros.QoSDefault, func(m *visualization_msgs.MarkerArray) visualization_msgs.MarkerArray {
		return visualization_msgs.MarkerArray{Markers: append(m.Markers[:0:0], m.Markers...)}
	})
	goals := listen[geometry_msgs.PoseStamped](t, peer, "/goal_pose", ros.QoSDefault, func(m *geometry_msgs.PoseStamped) geometry_msgs.PoseStamped { return *m })
	plan, err := ros.NewPublisher[nav_msgs.Path](peer, "/plan", ros.QoSDefault)
	require.NoError(t, err)
	diag, err := ros.NewPublisher[diagnostic_msgs.DiagnosticArray](peer, "/diagnostics", ros.QoSDefault)
	require.NoError(t, err)

	logPath := filepath.Join(t.TempDir(), "mission.jsonl")
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-scenario", "testdata/short.yaml", "-log", logPath, "-wait", "30s", "--ros-args", "-r", "__node:=navsim"}, &out)
	}()
	require.Eventually(t, func() bool { return len(goals.all()) > 0 }, 30*time.Second, 10*time.Millisecond, "no goal: the mission did not start")
	require.NoError(t, plan.WaitMatched(ctx, 1))
	path := rosconv.Path([]r3.Vector{{X: 1, Y: 3, Z: 1}, {X: 3, Y: 3, Z: 1}}, "map", 0)
	require.NoError(t, plan.Publish(&path))
	require.NoError(t, diag.Publish(&diagnostic_msgs.DiagnosticArray{Status: []diagnostic_msgs.DiagnosticStatus{
		{Name: plannerStatus, Values: []diagnostic_msgs.KeyValue{{Key: "status", Value: "following"}, {Key: "replans", Value: "1"}, {Key: "repair p50", Value: "0.250 ms"}}},
		{Name: "navnode: inputs", Values: []diagnostic_msgs.KeyValue{{Key: "goal_pose malformed", Value: "1"}, {Key: "points malformed", Value: "2"}}},
	}}))
	select {
	case err := <-done:
		require.NoError(t, err, "navsim output:\n%s", out.String())
	case <-time.After(30 * time.Second):
		t.Fatal("navsim did not end its 3 s mission")
	}
	require.Contains(t, out.String(), "navsim: timeout in 3.0 s")

	checkOdom(t, odom.all())
	checkPoints(t, points.all())
	checkScans(t, scans.all())
	checkTF(t, tfs.all(), static.all())
	checkObstacles(t, markers.all())
	g := goals.all()
	require.Len(t, g, 2, "the goal and a hostile NaN goal")
	require.Equal(t, "map", g[0].Header.FrameID)
	require.Equal(t, geometry_msgs.Point{X: 7, Y: 3, Z: 1}, g[0].Pose.Position)
	require.True(t, math.IsNaN(g[1].Pose.Position.X))

	f, err := os.Open(logPath)
	require.NoError(t, err)
	defer f.Close()
	log, err := sim.ReadLog(f)
	require.NoError(t, err)
	o := log.Outcome
	require.NotNil(t, o)
	require.Equal(t, sim.Timeout, o.Result)
	require.True(t, o.OK, o.Why)
	require.Equal(t, []string{"following"}, o.Statuses)
	require.Equal(t, 1, o.Replans)
	require.Equal(t, 3, o.Malformed)
	require.Equal(t, 1, o.Plans)
	require.Len(t, log.Obstacles, 3)
	require.Len(t, log.Hostile, 1)
	require.Greater(t, o.Distance, 1.0, "the robot followed the plan")
}

func checkOdom(t *testing.T, msgs []nav_msgs.Odometry) {
	require.Greater(t, len(msgs), 50, "odometry at 50 Hz for 3 s")
	for _, m := range msgs {
		require.Equal(t, "odom", m.Header.FrameID)
		require.Equal(t, "base_link", m.ChildFrameID)
		_, err := rosconv.Odometry(&m)
		require.NoError(t, err)
	}
	first, last := msgs[0].Pose.Pose.Position, msgs[len(msgs)-1].Pose.Pose.Position
	require.Equal(t, geometry_msgs.Point{X: 1, Y: 3, Z: 1}, first)
	require.InDelta(t, 3, last.X, 0.05, "the robot went to the end of the plan")
	require.InDelta(t, 3, last.Y, 1e-6)
}

func checkPoints(t *testing.T, msgs []sensor_msgs.PointCloud2) {
	require.GreaterOrEqual(t, len(msgs), 10, "10 Hz for 3 s, best effort")
	for _, m := range msgs {
		require.Equal(t, "lidar", m.Header.FrameID)
		pts, err := rosconv.PointCloud2(&m, tf.Identity, nil)
		require.NoError(t, err)
		require.Len(t, pts, 4*64)
		hits := 0
		for _, p := range pts {
			d := p.Norm()
			require.True(t, d <= 8 || math.Abs(d-16) < 1e-4, "a return within range, or a no-return at twice the range: %v", d)
			if d <= 8 {
				hits++
			}
		}
		require.Positive(t, hits, "the pillar ahead is in view")
	}
}

func checkScans(t *testing.T, msgs []sensor_msgs.LaserScan) {
	require.GreaterOrEqual(t, len(msgs), 10)
	for _, m := range msgs {
		require.Equal(t, "laser", m.Header.FrameID)
		require.Len(t, m.Ranges, 90)
		require.InDelta(t, -math.Pi, m.AngleMin, 1e-6)
		require.InDelta(t, 2*math.Pi/90, m.AngleIncrement, 1e-6)
		_, err := rosconv.LaserScan(&m, voxel.Pose{Orientation: voxel.Identity})
		require.NoError(t, err)
	}
	r := msgs[0].Ranges[45] // straight ahead, from (1, 3) to the pillar's face at x = 4.5
	require.InDelta(t, 3.5, r, 1e-4)
	require.True(t, math.IsInf(float64(msgs[0].Ranges[0]), 1), "nothing behind: +Inf")
}

func checkTF(t *testing.T, dynamic, static []tf2_msgs.TFMessage) {
	require.Greater(t, len(dynamic), 50)
	buf, err := tf.NewBuffer(tf.Options{Tolerance: time.Second})
	require.NoError(t, err)
	for _, m := range append(static, dynamic...) {
		require.NoError(t, buf.AddMessage(&m, len(m.Transforms) > 0 && m.Transforms[0].Header.FrameID == "base_link"))
	}
	require.Len(t, static, 1)
	lidar, err := buf.Lookup("map", "lidar", 0)
	require.NoError(t, err, "map → odom → base_link → lidar")
	require.InDelta(t, 1, lidar.Translation.Z, 1e-9)
	laser, err := buf.Lookup("base_link", "laser", 0)
	require.NoError(t, err)
	require.InDelta(t, 0.1, laser.Translation.Z, 1e-9)
}

func checkObstacles(t *testing.T, msgs []visualization_msgs.MarkerArray) {
	require.Len(t, msgs, 3, "add, move, delete")
	var state rosconv.MarkerState
	lookup := func(frame string, _ time.Duration) (tf.Transform, error) {
		require.Equal(t, "map", frame)
		return tf.Identity, nil
	}
	for _, m := range msgs {
		require.Len(t, m.Markers, 1)
		require.Equal(t, "scenario", m.Markers[0].Ns)
		updates, errs := rosconv.Markers(&m, lookup, &state)
		require.Empty(t, errs)
		require.Len(t, updates, 1)
	}
	add, move, del := msgs[0].Markers[0], msgs[1].Markers[0], msgs[2].Markers[0]
	require.Equal(t, visualization_msgs.Marker_SPHERE, add.Type)
	require.Equal(t, geometry_msgs.Vector3{X: 0.6, Y: 0.6, Z: 0.6}, add.Scale)
	require.Equal(t, geometry_msgs.Point{X: 3, Y: 1, Z: 1}, add.Pose.Position)
	require.Equal(t, visualization_msgs.Marker_ADD, move.Action)
	require.Equal(t, geometry_msgs.Point{X: 3, Y: 5, Z: 1}, move.Pose.Position)
	require.Equal(t, visualization_msgs.Marker_DELETE, del.Action)
	require.Equal(t, add.ID, del.ID)
	require.Zero(t, state.Len())
}

// TestNavsimStops runs navsim without a scenario (goals from goal_pose,
// no timeout) and stops it as SIGINT would: it ends cleanly, its log
// saying stopped, after taking a goal from the wire.
func TestNavsimStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	peer := loopback(t, ctx, 194)
	goal, err := ros.NewPublisher[geometry_msgs.PoseStamped](peer, "/goal_pose", ros.QoSDefault)
	require.NoError(t, err)
	logPath := filepath.Join(t.TempDir(), "mission.jsonl")
	runCtx, stop := context.WithCancel(ctx)
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- run(runCtx, []string{"-world", "testdata/room.yaml", "-log", logPath}, &out) }()
	require.NoError(t, goal.WaitMatched(ctx, 1))
	require.NoError(t, goal.Publish(&geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map"},
		Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: 6, Y: 3, Z: 1}, Orientation: geometry_msgs.Quaternion{W: 1}}}))
	time.Sleep(500 * time.Millisecond)
	stop()
	require.NoError(t, <-done)
	text, err := os.ReadFile(logPath)
	require.NoError(t, err)
	log, err := sim.ReadLog(bytes.NewReader(text))
	require.NoError(t, err)
	require.Equal(t, sim.Stopped, log.Outcome.Result)
	require.Len(t, log.Goals, 1, "the goal from the wire")
	require.Contains(t, out.String(), "navsim: stopped")
}
