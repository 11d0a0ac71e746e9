package node

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
)

// BenchmarkObstacleToPlan is the node's latency benchmark: the time from
// an /obstacles message sent by a peer to the repaired /plan received,
// on a 200×200×40 voxel world at 0.1 m (aerial, 20 m × 20 m × 4 m, with
// 60 pillars). One op is two events: a 1 m box dropped on the plan (put:
// the plan must be repaired round it), then deleted again (delete: the
// plan may improve, the old one stays legal); "ahead" drops it 2 m ahead
// of the robot along the plan, as a sensor would see it, "midway" halfway
// to the goal 13 m away. It reports percentiles for each kind of event.
// Run it with -benchtime 200x for 200 of each:
//
//	go test -run '^$' -bench ObstacleToPlan -benchtime 200x ./test/node/
func BenchmarkObstacleToPlan(b *testing.B) {
	for i, c := range []struct {
		name    string
		planner string
		budget  float64 // ms per tick
		metres  float64
	}{
		{"ahead", "dstarlite", 0, 2}, {"midway", "dstarlite", 0, -1},
		{"ahead-astar", "astar", 0, 2}, {"midway-astar", "astar", 0, -1},
		{"ahead-dpastar", "dpastar", 0, 2}, {"midway-dpastar", "dpastar", 0, -1},
		{"ahead-tunnel", "tunnel", 0, 2}, {"midway-tunnel", "tunnel", 0, -1},
	} {
		b.Run(c.name, func(b *testing.B) { obstacleToPlan(b, domainBase+1+uint32(i), c.planner, c.budget, c.metres) })
	}
}

// obstacleToPlan runs the benchmark with boxes dropped at metres along
// the plan from the robot, or at its middle when metres < 0. The -astar
// variants are the baseline: navnode with A* from scratch on each event.
func obstacleToPlan(b *testing.B, domain uint32, planner string, budget, metres float64) {
	params := writeParams(b, map[string]any{
		"mode": "aerial", "resolution": 0.1, "origin_x": 0.0, "origin_y": 0.0, "origin_z": 0.0,
		"size_x": 20.0, "size_y": 20.0, "size_z": 4.0, "min_altitude": 0.0, "max_altitude": 4.0,
		"robot_radius": 0.2, "inflation_radius": 0.5, "voxels_hz": 0.0, "costmap_hz": 0.0, "planner": planner, "budget_ms": budget,
	})
	nav := launch(b, domain, params, "log_level:=debug")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	peer := peer(b, ctx, domain)
	plans := make(chan *nav_msgs.Path, 16)
	_, err := ros.Subscribe[nav_msgs.Path](peer, "/plan", ros.QoSDefault, func(m *nav_msgs.Path) {
		c := *m
		c.Poses = append([]geometry_msgs.PoseStamped(nil), m.Poses...)
		plans <- &c
	})
	require.NoError(b, err)
	odomPub, err := ros.NewPublisher[nav_msgs.Odometry](peer, "/odom", ros.QoSDefault)
	require.NoError(b, err)
	goalPub, err := ros.NewPublisher[geometry_msgs.PoseStamped](peer, "/goal_pose", ros.QoSDefault)
	require.NoError(b, err)
	obstPub, err := ros.NewPublisher[visualization_msgs.MarkerArray](peer, "/obstacles", ros.QoSDefault)
	require.NoError(b, err)
	for _, wait := range []func(context.Context, int) error{odomPub.WaitMatched, goalPub.WaitMatched, obstPub.WaitMatched} {
		require.NoError(b, wait(ctx, 1), "navnode did not subscribe:\n%s", nav.out.String())
	}

	rng := rand.New(rand.NewPCG(3, 4))
	var pillars visualization_msgs.MarkerArray
	for i := range 60 {
		m := cube("pillars", int32(i), 2+rng.Float64()*16, 2+rng.Float64()*16, 0.4, visualization_msgs.Marker_ADD)
		m.Type = visualization_msgs.Marker_CYLINDER
		m.Pose.Position.Z, m.Scale.Z = 2, 4
		pillars.Markers = append(pillars.Markers, m)
	}
	require.NoError(b, obstPub.Publish(&pillars))
	odom := &nav_msgs.Odometry{Header: std_msgs.Header{FrameID: "map"}}
	odom.Pose.Pose = pose(1, 1)
	odom.Pose.Pose.Position.Z = 2
	require.NoError(b, odomPub.Publish(odom))
	time.Sleep(300 * time.Millisecond)
	goal := &geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map"}, Pose: pose(19, 19)}
	goal.Pose.Position.Z = 2
	require.NoError(b, goalPub.Publish(goal))
	plan := waitPlan(b, plans, 30*time.Second)
	for len(plan.Poses) < 2 {
		plan = waitPlan(b, plans, 30*time.Second)
	}
	drain(plans)

	var put, del []time.Duration
	event := func(m visualization_msgs.Marker, lat *[]time.Duration) *nav_msgs.Path {
		sent := time.Now()
		require.NoError(b, obstPub.Publish(&visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{m}}))
		p := waitPlan(b, plans, 10*time.Second)
		*lat = append(*lat, time.Since(sent))
		require.GreaterOrEqual(b, len(p.Poses), 2, "an event left no path:\n%s", nav.out.String())
		return p
	}
	for b.Loop() {
		at := metres
		if at < 0 {
			at = pathLength(plan) / 2
		}
		mid := pointAlong(plan, at)
		box := cube("event", 0, mid.X, mid.Y, 1, visualization_msgs.Marker_ADD)
		box.Pose.Position.Z, box.Scale.Z = mid.Z, 1
		around := event(box, &put)
		require.False(b, passes3D(around, mid, 0.5), "the plan after the box still runs through it")
		box.Action = visualization_msgs.Marker_DELETE
		plan = event(box, &del)
	}
	b.StopTimer()
	q := func(lat []time.Duration, f float64) float64 {
		slices.Sort(lat)
		return float64(lat[min(len(lat)-1, int(math.Ceil(f*float64(len(lat))))-1)]) / float64(time.Millisecond)
	}
	b.ReportMetric(q(put, 0.5), "put-p50-ms")
	b.ReportMetric(q(put, 0.99), "put-p99-ms")
	b.ReportMetric(q(del, 0.5), "delete-p50-ms")
	b.ReportMetric(q(del, 0.99), "delete-p99-ms")
	b.ReportMetric(float64(len(put)), "puts")
	b.ReportMetric(0, "ns/op")
}

// pointAlong returns the point d metres along the plan from its start.
func pointAlong(p *nav_msgs.Path, d float64) geometry_msgs.Point {
	for i := 1; i < len(p.Poses); i++ {
		a, z := p.Poses[i-1].Pose.Position, p.Poses[i].Pose.Position
		l := math.Sqrt((z.X-a.X)*(z.X-a.X) + (z.Y-a.Y)*(z.Y-a.Y) + (z.Z-a.Z)*(z.Z-a.Z))
		if d <= l || i == len(p.Poses)-1 {
			f := math.Min(1, d/math.Max(l, 1e-9))
			return geometry_msgs.Point{X: a.X + f*(z.X-a.X), Y: a.Y + f*(z.Y-a.Y), Z: a.Z + f*(z.Z-a.Z)}
		}
		d -= l
	}
	return p.Poses[0].Pose.Position
}

// passes3D reports whether the path runs through the cube of half edge
// half around c.
func passes3D(p *nav_msgs.Path, c geometry_msgs.Point, half float64) bool {
	for i := 1; i < len(p.Poses); i++ {
		a, z := p.Poses[i-1].Pose.Position, p.Poses[i].Pose.Position
		for s := 0; s <= 200; s++ {
			f := float64(s) / 200
			x, y, h := a.X+f*(z.X-a.X)-c.X, a.Y+f*(z.Y-a.Y)-c.Y, a.Z+f*(z.Z-a.Z)-c.Z
			if math.Abs(x) < half && math.Abs(y) < half && math.Abs(h) < half {
				return true
			}
		}
	}
	return false
}

func waitPlan(tb testing.TB, plans <-chan *nav_msgs.Path, d time.Duration) *nav_msgs.Path {
	tb.Helper()
	select {
	case p := <-plans:
		return p
	case <-time.After(d):
		tb.Fatal("no plan within", d)
		return nil
	}
}

func drain(plans <-chan *nav_msgs.Path) {
	for {
		select {
		case <-plans:
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}
