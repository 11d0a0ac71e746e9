package main

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
)

// inboxSize bounds the updates waiting for the planning goroutine; a
// subscription blocks when it is full, and DDS history then drops sensor
// data (best effort) rather than memory growing.
const inboxSize = 64

// navnode is the running node. Subscriptions decode and convert messages
// on their own goroutines and hand the results to the one goroutine that
// owns the costmap and the planning loop, through inbox.
type navnode struct {
	node *ros.Node
	log  *zap.Logger
	p    params
	tf   *tf.Buffer
	cnt  *counters

	lastOdom atomic.Int64 // Unix ns of the last odometry pose: poses from /tf wait while it is fresh
	tfPoseAt atomic.Int64 // the time the last pose taken from /tf held at, ns, plus 1 (0: none since start or a clock jump)
	simNow   atomic.Int64 // with use_sim_time: the latest stamp received, ns
	stamps   sensorStamps // refuses clouds and scans stamped far ahead

	inbox chan func(*world)

	plan     *ros.Publisher[nav_msgs.Path, *nav_msgs.Path]
	diag     *ros.Publisher[diagnostic_msgs.DiagnosticArray, *diagnostic_msgs.DiagnosticArray]
	voxels   *ros.Publisher[sensor_msgs.PointCloud2, *sensor_msgs.PointCloud2]
	markers  *ros.Publisher[visualization_msgs.MarkerArray, *visualization_msgs.MarkerArray]
	costGrid *ros.Publisher[nav_msgs.OccupancyGrid, *nav_msgs.OccupancyGrid]
}

// run starts navnode and serves until ctx ends.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	_, rest, err := ros.ParseArgs(args)
	if err != nil {
		return err
	}
	for _, a := range rest {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(stdout, usage)
			return nil
		}
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected arguments %q outside --ros-args (navnode -h for usage)", rest)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	node, err := ros.NewNode(ctx, "navnode", ros.WithArgs(args))
	if err != nil {
		return err
	}
	defer node.Close()
	p, err := declareParams(node)
	if err != nil {
		return err
	}
	if err := node.CheckParams(); err != nil {
		return err
	}
	w, err := newWorld(p)
	if err != nil {
		return err
	}
	buf, err := tf.NewBuffer(tf.Options{Tolerance: p.TFTimeout})
	if err != nil {
		return err
	}
	n := &navnode{node: node, log: node.Logger(), p: p, tf: buf, cnt: newCounters(),
		inbox: make(chan func(*world), inboxSize)}
	if err := n.advertise(); err != nil {
		return err
	}
	if err := n.subscribe(); err != nil {
		return err
	}
	n.log.Info("navnode up", zap.String("mode", p.Mode), zap.String("planner", w.plannerName()),
		zap.Float64("resolution", p.Resolution), zap.Stringer("volume", boxString(p.volume())))
	return n.serve(ctx, w)
}

// usage is what navnode -h prints.
const usage = `usage: navnode [--ros-args -r from:=to -p name:=value --params-file FILE --log-level LEVEL]

navnode keeps a voxel costmap of what it receives and repairs the robot's
path to the goal as the robot moves and the world changes.

subscribes  map (nav_msgs/OccupancyGrid, transient local), points
            (sensor_msgs/PointCloud2, sensor QoS), scan (sensor_msgs/LaserScan),
            obstacles (visualization_msgs/MarkerArray), odom (nav_msgs/Odometry),
            tf, tf_static (tf2_msgs/TFMessage), goal_pose (geometry_msgs/PoseStamped)
publishes   plan (nav_msgs/Path), /diagnostics (diagnostic_msgs/DiagnosticArray),
            ~/voxels (sensor_msgs/PointCloud2), ~/markers (visualization_msgs/MarkerArray),
            ~/costmap (nav_msgs/OccupancyGrid)
parameters  config/navnode.yaml lists every one with its default, meaning and range

SIGINT or SIGTERM stops it.
`

type boxString voxel.Box

func (b boxString) String() string {
	return fmt.Sprintf("%d×%d×%d voxels from %v", b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1, b.Max.Z-b.Min.Z+1, b.Min)
}

// advertise creates the publishers.
func (n *navnode) advertise() error {
	var err error
	if n.plan, err = ros.NewPublisher[nav_msgs.Path](n.node, "plan", ros.QoSDefault); err != nil {
		return err
	}
	if n.diag, err = ros.NewPublisher[diagnostic_msgs.DiagnosticArray](n.node, "/diagnostics", ros.QoSDefault); err != nil {
		return err
	}
	if n.voxels, err = ros.NewPublisher[sensor_msgs.PointCloud2](n.node, "~/voxels", ros.QoSDefault); err != nil {
		return err
	}
	if n.markers, err = ros.NewPublisher[visualization_msgs.MarkerArray](n.node, "~/markers", ros.QoSDefault); err != nil {
		return err
	}
	if n.costGrid, err = ros.NewPublisher[nav_msgs.OccupancyGrid](n.node, "~/costmap", ros.QoSMap); err != nil {
		return err
	}
	return nil
}

// serve is the planning goroutine: it applies what the subscriptions
// send, ticks the planning loop and publishes, until ctx ends.
func (n *navnode) serve(ctx context.Context, w *world) error {
	tick := time.NewTicker(time.Duration(float64(time.Second) / n.p.TickHz))
	defer tick.Stop()
	diag := time.NewTicker(time.Duration(float64(time.Second) / n.p.DiagnosticsHz))
	defer diag.Stop()
	var voxels, grid <-chan time.Time
	if n.p.VoxelsHz > 0 {
		t := time.NewTicker(time.Duration(float64(time.Second) / n.p.VoxelsHz))
		defer t.Stop()
		voxels = t.C
	}
	if n.p.CostmapHz > 0 {
		t := time.NewTicker(time.Duration(float64(time.Second) / n.p.CostmapHz))
		defer t.Stop()
		grid = t.C
	}
	var soon <-chan time.Time // a search is unfinished: go on with it before the next tick
	for {
		select {
		case <-ctx.Done():
			n.log.Info("navnode stopping")
			return nil
		case f := <-n.inbox:
			f(w)
			n.drain(w)
			soon = n.step(ctx, w)
		case <-tick.C:
			soon = n.step(ctx, w)
		case <-soon:
			soon = n.step(ctx, w)
		case <-diag.C:
			n.publishDiagnostics(w)
		case <-voxels:
			n.publishVoxels(w)
		case <-grid:
			n.publishCostGrid(w)
		}
	}
}

// drain applies whatever else is already waiting, so that one replan
// covers a burst of updates.
func (n *navnode) drain(w *world) {
	for {
		select {
		case f := <-n.inbox:
			f(w)
		default:
			return
		}
	}
}

// step ticks the planning loop and publishes a changed plan. While the
// loop's search is unfinished it returns a channel that fires at once,
// so that the search goes on between messages instead of waiting for the
// next tick.
func (n *navnode) step(ctx context.Context, w *world) <-chan time.Time {
	out, changed := w.tick(ctx)
	if changed {
		n.publishPlan(w, out)
	}
	if out.Pending {
		return time.After(0)
	}
	return nil
}

// send hands f to the planning goroutine, unless the node is closing.
func (n *navnode) send(f func(*world)) {
	select {
	case n.inbox <- f:
	case <-n.node.Done():
	}
}
