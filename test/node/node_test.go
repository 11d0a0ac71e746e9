package node

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
)

// The world of the end-to-end test: a 10 m × 10 m ground map at 0.1 m
// with a wall from y = 0 to 7 m at x = 4.5..5 m; the robot at (1, 1), the
// goal at (9, 1), so the path goes round the wall's end.
const (
	res        = 0.1
	cellsX     = 100
	cellsY     = 100
	robotRad   = 0.2
	inflation  = 0.3
	wallX0     = 4.5
	wallX1     = 5.0
	wallY1     = 7.0
	clearance  = 0.1 // a path point may come no nearer an obstacle than this
	planWait   = 30 * time.Second
	domainBase = 150
)

func groundParams(t testing.TB) string {
	return writeParams(t, map[string]any{
		"mode": "ground", "resolution": res, "origin_x": 0.0, "origin_y": 0.0, "origin_z": 0.0,
		"size_x": 10.0, "size_y": 10.0, "size_z": 1.0, "robot_radius": robotRad, "robot_height": 0.4,
		"inflation_radius": inflation, "diagnostics_hz": 5.0, "tick_hz": 20.0, "unknown_is_free": false,
	})
}

func wallMap() *nav_msgs.OccupancyGrid {
	m := &nav_msgs.OccupancyGrid{Header: std_msgs.Header{FrameID: "map"}}
	m.Info.Resolution, m.Info.Width, m.Info.Height = res, cellsX, cellsY
	m.Info.Origin.Orientation.W = 1
	m.Data = make([]int8, cellsX*cellsY)
	for y := 0; y < int(wallY1/res); y++ {
		for x := int(wallX0 / res); x < int(wallX1/res); x++ {
			m.Data[x+y*cellsX] = 100
		}
	}
	return m
}

// box is an axis-aligned obstacle footprint, metres.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) dist(x, y float64) float64 {
	dx := math.Max(0, math.Max(b.x0-x, x-b.x1))
	dy := math.Max(0, math.Max(b.y0-y, y-b.y1))
	return math.Hypot(dx, dy)
}

// checkPath checks that the plan runs from near start to near goal in the
// map frame and that no point along it comes within clearance of an
// obstacle.
func checkPath(t *testing.T, p *nav_msgs.Path, start, goal [2]float64, obstacles ...box) {
	t.Helper()
	require.Equal(t, "map", p.Header.FrameID)
	require.GreaterOrEqual(t, len(p.Poses), 2)
	first, last := p.Poses[0].Pose.Position, p.Poses[len(p.Poses)-1].Pose.Position
	require.InDelta(t, start[0], first.X, 0.15)
	require.InDelta(t, start[1], first.Y, 0.15)
	require.InDelta(t, goal[0], last.X, 0.15)
	require.InDelta(t, goal[1], last.Y, 0.15)
	for i := 1; i < len(p.Poses); i++ {
		a, b := p.Poses[i-1].Pose.Position, p.Poses[i].Pose.Position
		steps := int(math.Hypot(b.X-a.X, b.Y-a.Y)/0.01) + 1
		for s := 0; s <= steps; s++ {
			f := float64(s) / float64(steps)
			x, y := a.X+f*(b.X-a.X), a.Y+f*(b.Y-a.Y)
			for _, o := range obstacles {
				require.Greater(t, o.dist(x, y), clearance, "path point (%.2f, %.2f) of segment %d is inside obstacle %+v", x, y, i, o)
			}
		}
	}
}

// diagValue returns a value of a diagnostics status, or "".
func diagValue(d *diagnostic_msgs.DiagnosticArray, status, key string) string {
	for _, s := range d.Status {
		if s.Name != status {
			continue
		}
		for _, kv := range s.Values {
			if kv.Key == key {
				return kv.Value
			}
		}
	}
	return ""
}

func pose(x, y float64) geometry_msgs.Pose {
	return geometry_msgs.Pose{Position: geometry_msgs.Point{X: x, Y: y}, Orientation: geometry_msgs.Quaternion{W: 1}}
}

func cube(ns string, id int32, x, y, size float64, action int32) visualization_msgs.Marker {
	m := visualization_msgs.Marker{Header: std_msgs.Header{FrameID: "map"}, Ns: ns, ID: id,
		Type: visualization_msgs.Marker_CUBE, Action: action, Pose: pose(x, y)}
	m.Pose.Position.Z = 0.2
	m.Scale = geometry_msgs.Vector3{X: size, Y: size, Z: 0.4}
	return m
}

// TestNavnodeEndToEnd launches navnode from launch/navnode.launch.xml and
// drives it over DDS: a map, the robot's odometry and a goal give a legal
// plan and diagnostics; a box dropped on the plan gives a repaired plan
// around it, reported in diagnostics; hostile input (a NaN goal, a marker
// of zero size, a cloud without x/y/z) is counted, not fatal; SIGINT
// stops it cleanly.
func TestNavnodeEndToEnd(t *testing.T) {
	domain := uint32(domainBase)
	nav := launch(t, domain, groundParams(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	peer := peer(t, ctx, domain)

	plans := make(chan *nav_msgs.Path, 16)
	_, err := ros.Subscribe[nav_msgs.Path](peer, "/plan", ros.QoSDefault, func(m *nav_msgs.Path) {
		c := *m // the subscription reuses m: keep a copy
		c.Poses = append([]geometry_msgs.PoseStamped(nil), m.Poses...)
		plans <- &c
	})
	require.NoError(t, err)
	diags := make(chan *diagnostic_msgs.DiagnosticArray, 64)
	_, err = ros.Subscribe[diagnostic_msgs.DiagnosticArray](peer, "/diagnostics", ros.QoSDefault, func(m *diagnostic_msgs.DiagnosticArray) {
		c := *m // the subscription reuses m: keep a deep copy
		c.Status = append([]diagnostic_msgs.DiagnosticStatus(nil), m.Status...)
		for i := range c.Status {
			c.Status[i].Values = append([]diagnostic_msgs.KeyValue(nil), c.Status[i].Values...)
		}
		select {
		case diags <- &c:
		default:
		}
	})
	require.NoError(t, err)
	mapPub, err := ros.NewPublisher[nav_msgs.OccupancyGrid](peer, "/map", ros.QoSMap)
	require.NoError(t, err)
	odomPub, err := ros.NewPublisher[nav_msgs.Odometry](peer, "/odom", ros.QoSDefault)
	require.NoError(t, err)
	goalPub, err := ros.NewPublisher[geometry_msgs.PoseStamped](peer, "/goal_pose", ros.QoSDefault)
	require.NoError(t, err)
	obstPub, err := ros.NewPublisher[visualization_msgs.MarkerArray](peer, "/obstacles", ros.QoSDefault)
	require.NoError(t, err)
	cloudPub, err := ros.NewPublisher[sensor_msgs.PointCloud2](peer, "/points", ros.QoSSensorData)
	require.NoError(t, err)
	for _, wait := range []func(context.Context, int) error{mapPub.WaitMatched, odomPub.WaitMatched, goalPub.WaitMatched, obstPub.WaitMatched, cloudPub.WaitMatched} {
		require.NoError(t, wait(ctx, 1), "navnode did not subscribe:\n%s", nav.out.String())
	}

	wall := box{wallX0, 0, wallX1, wallY1}
	require.NoError(t, mapPub.Publish(wallMap()))
	odom := &nav_msgs.Odometry{Header: std_msgs.Header{FrameID: "map"}, ChildFrameID: "base_link"}
	odom.Pose.Pose = pose(1, 1)
	require.NoError(t, odomPub.Publish(odom))
	time.Sleep(200 * time.Millisecond) // map and pose first; DDS keeps per-topic order only
	goal := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map"}, Pose: pose(9, 1)}
	require.NoError(t, goalPub.Publish(goal))

	plan := nextPlan(t, plans, func(p *nav_msgs.Path) bool { return len(p.Poses) >= 2 })
	checkPath(t, plan, [2]float64{1, 1}, [2]float64{9, 1}, wall)

	d := nextDiag(t, diags, func(d *diagnostic_msgs.DiagnosticArray) bool {
		return diagValue(d, "navnode: planner", "status") == "following"
	})
	replans, err := strconv.Atoi(diagValue(d, "navnode: planner", "replans"))
	require.NoError(t, err)
	require.Positive(t, replans)

	// A box on the plan where it rounds the wall's end.
	mid := plan.Poses[len(plan.Poses)/2].Pose.Position
	for _, ps := range plan.Poses {
		if ps.Pose.Position.Y > mid.Y {
			mid = ps.Pose.Position
		}
	}
	obstacle := box{mid.X - 0.4, mid.Y - 0.4, mid.X + 0.4, mid.Y + 0.4}
	require.True(t, passes(plan, obstacle))
	require.NoError(t, obstPub.Publish(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{
		cube("test", 1, mid.X, mid.Y, 0.8, visualization_msgs.Marker_ADD)}}))
	repaired := nextPlan(t, plans, func(p *nav_msgs.Path) bool { return !passes(p, obstacle) })
	checkPath(t, repaired, [2]float64{1, 1}, [2]float64{9, 1}, wall, obstacle)
	t.Logf("plan %.2f m (%d poses); box at (%.2f, %.2f); repaired %.2f m (%d poses)",
		pathLength(plan), len(plan.Poses), mid.X, mid.Y, pathLength(repaired), len(repaired.Poses))
	nextDiag(t, diags, func(d *diagnostic_msgs.DiagnosticArray) bool {
		n, _ := strconv.Atoi(diagValue(d, "navnode: planner", "replans"))
		return n > replans
	})

	// Hostile input: counted in diagnostics, and the node goes on.
	bad := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map"}, Pose: pose(math.NaN(), 1)}
	require.NoError(t, goalPub.Publish(bad))
	require.NoError(t, obstPub.Publish(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{
		cube("test", 2, 2, 8, 0, visualization_msgs.Marker_ADD)}}))
	noXYZ := &sensor_msgs.PointCloud2{Header: std_msgs.Header{FrameID: "map"}, Height: 1, Width: 2, PointStep: 4, RowStep: 8,
		Fields: []sensor_msgs.PointField{{Name: "intensity", Offset: 0, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1}},
		Data:   make([]byte, 8)}
	require.NoError(t, cloudPub.Publish(noXYZ))
	nextDiag(t, diags, func(d *diagnostic_msgs.DiagnosticArray) bool {
		return diagValue(d, "navnode: inputs", "goal_pose malformed") == "1" &&
			diagValue(d, "navnode: inputs", "obstacles malformed") == "1" &&
			diagValue(d, "navnode: inputs", "points malformed") == "1"
	})
	require.NoError(t, obstPub.Publish(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{
		cube("test", 1, 0, 0, 0, visualization_msgs.Marker_DELETE)}}))
	// Only a plan made after the box went can run through its place, as
	// the first one did. (The repaired plan above may be a detour
	// published while the repair ran past repair_budget_ms, with the
	// finished repair after it, so "shorter than that plan" is no test.)
	back := nextPlan(t, plans, func(p *nav_msgs.Path) bool { return passes(p, obstacle) })
	require.InDelta(t, pathLength(plan), pathLength(back), 1e-6, "the plan after the box went differs from the first")
	checkPath(t, back, [2]float64{1, 1}, [2]float64{9, 1}, wall)
	t.Logf("after the box went: %.2f m", pathLength(back))

	require.NoError(t, nav.stop(t), "navlaunch exit:\n%s", nav.out.String())
	require.Contains(t, nav.out.String(), "navnode stopping")
}

// passes reports whether the path runs through the obstacle.
func passes(p *nav_msgs.Path, o box) bool {
	for i := 1; i < len(p.Poses); i++ {
		a, b := p.Poses[i-1].Pose.Position, p.Poses[i].Pose.Position
		for s := 0; s <= 100; s++ {
			f := float64(s) / 100
			if o.dist(a.X+f*(b.X-a.X), a.Y+f*(b.Y-a.Y)) == 0 {
				return true
			}
		}
	}
	return false
}

func pathLength(p *nav_msgs.Path) float64 {
	l := 0.0
	for i := 1; i < len(p.Poses); i++ {
		a, b := p.Poses[i-1].Pose.Position, p.Poses[i].Pose.Position
		l += math.Hypot(b.X-a.X, b.Y-a.Y)
	}
	return l
}

func nextPlan(t *testing.T, plans <-chan *nav_msgs.Path, ok func(*nav_msgs.Path) bool) *nav_msgs.Path {
	t.Helper()
	timeout := time.After(planWait)
	for {
		select {
		case p := <-plans:
			if ok(p) {
				return p
			}
		case <-timeout:
			t.Fatal("no matching plan within", planWait)
		}
	}
}

func nextDiag(t *testing.T, diags <-chan *diagnostic_msgs.DiagnosticArray, ok func(*diagnostic_msgs.DiagnosticArray) bool) *diagnostic_msgs.DiagnosticArray {
	t.Helper()
	timeout := time.After(planWait)
	var last *diagnostic_msgs.DiagnosticArray
	for {
		select {
		case d := <-diags:
			if ok(d) {
				return d
			}
			last = d
		case <-timeout:
			t.Fatalf("no matching diagnostics within %v; last: %+v", planWait, last)
		}
	}
}
