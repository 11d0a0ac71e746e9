package replanner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/stretchr/testify/require"
)

// clutter200 is costmap/voxel's benchmark world, built again here: 200 ×
// 200 × 40 voxels at 0.1 m, a static floor, 400 random pillars and 300
// random boxes, a sphere robot of radius 0.2 m inflated to 0.5 m.
func clutter200(tb testing.TB) *voxel.Map {
	m, err := voxel.New(voxel.Config{Resolution: 0.1, Robot: voxel.Robot{Radius: 0.2, InflationRadius: 0.5}})
	require.NoError(tb, err)
	rng := rand.New(rand.NewPCG(20, 21))
	s := &voxel.StaticVoxels{Box: voxel.Box{Max: voxel.Key{X: 199, Y: 199, Z: 39}}}
	for x := int32(0); x < 200; x++ {
		for y := int32(0); y < 200; y++ {
			s.Blocked = append(s.Blocked, voxel.Key{X: x, Y: y})
		}
	}
	for range 400 {
		x, y, h := rng.Int32N(200), rng.Int32N(200), 5+rng.Int32N(35)
		for z := int32(1); z < h; z++ {
			s.Blocked = append(s.Blocked, voxel.Key{X: x, Y: y, Z: z})
		}
	}
	_, err = m.Apply(s)
	require.NoError(tb, err)
	for i := range 300 {
		_, err := m.Apply(voxel.PutShape{ID: voxel.ShapeID(fmt.Sprint("clutter", i)), Solid: &voxel.BoxShape{
			Pose: voxel.Pose{Position: vec(rng.Float64()*20, rng.Float64()*20, rng.Float64()*4), Orientation: voxel.YawQuat(rng.Float64() * 3)},
			Size: vec(0.1+rng.Float64()*0.6, 0.1+rng.Float64()*0.6, 0.1+rng.Float64()*0.6)}})
		require.NoError(tb, err)
	}
	return m
}

// benchLoop returns a loop with strategy s over clutter200's volume
// above the floor, following its path from one corner to the other.
func benchLoop(b *testing.B, m *voxel.Map, s Strategy) *Loop {
	l, err := New(m, Config{Strategy: s, Volume: voxel.Box{Min: voxel.Key{Z: 1}, Max: voxel.Key{X: 199, Y: 199, Z: 39}}})
	require.NoError(b, err)
	require.NoError(b, l.SetPose(vec(0.5, 0.5, 1.5)))
	require.NoError(b, l.SetGoal(vec(19.5, 19.5, 1.5)))
	require.Equal(b, Following, l.Tick(context.Background()).Status)
	return l
}

// benchEvent applies event i to m, into cs: for even i a 0.5 m box on a
// voxel of the middle third of the path raw, for odd i its deletion.
func benchEvent(b *testing.B, m *voxel.Map, cs *voxel.ChangeSet, rng *rand.Rand, raw []voxel.Key, i int) {
	var u voxel.Update = voxel.DeleteShape{ID: "event"}
	if i%2 == 0 {
		k := raw[len(raw)/3+rng.IntN(len(raw)/3)]
		u = voxel.PutShape{ID: "event", Solid: &voxel.BoxShape{
			Pose: voxel.Pose{Position: m.Frame().Center(k), Orientation: voxel.Identity}, Size: vec(0.5, 0.5, 0.5)}}
	}
	if err := m.ApplyInto(cs, u); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRepair: one op is one event on the path in clutter200, a
// 0.5 m box put on a voxel of the middle third of the current path or
// deleted again, handed to a D* Lite loop and to an A* loop (the
// baseline, which searches from scratch). µs/repair is Changed + Tick of
// the D* Lite loop (lattice update, repair, smoothing); astar-µs/repair
// the same for A*; changed-µs/repair the D* Lite loop's Changed alone
// (lattice update and the planner's Update).
func BenchmarkRepair(b *testing.B) {
	m := clutter200(b)
	d, a := benchLoop(b, m, DStarLite), benchLoop(b, m, AStar)
	rng := rand.New(rand.NewPCG(22, 23))
	cs := new(voxel.ChangeSet)
	var dTime, dUpdate, aTime time.Duration
	dExp, aExp, repairs := 0, 0, 0
	raw := d.Tick(context.Background()).Raw
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		benchEvent(b, m, cs, rng, raw, i)
		began := time.Now()
		d.Changed(cs)
		dUpdate += time.Since(began)
		out := d.Tick(context.Background())
		dTime += time.Since(began)
		began = time.Now()
		a.Changed(cs)
		base := a.Tick(context.Background())
		aTime += time.Since(began)
		if out.Status != Following || base.Status != Following || !relEqual(out.RawCost, base.RawCost) {
			b.Fatalf("event %d: D* Lite %v cost %v, A* %v cost %v", i, out.Status, out.RawCost, base.Status, base.RawCost)
		}
		if out.Replanned {
			repairs++
		}
		dExp += out.Stats.Expansions
		aExp += base.Stats.Expansions
		raw = out.Raw
	}
	n := float64(b.N)
	b.ReportMetric(dTime.Seconds()*1e6/n, "µs/repair")
	b.ReportMetric(dUpdate.Seconds()*1e6/n, "changed-µs/repair")
	b.ReportMetric(aTime.Seconds()*1e6/n, "astar-µs/repair")
	b.ReportMetric(aTime.Seconds()/dTime.Seconds(), "x-faster-than-astar")
	b.ReportMetric(float64(dExp)/n, "expansions/repair")
	b.ReportMetric(float64(aExp)/n, "astar-expansions/repair")
	b.ReportMetric(float64(repairs)/n, "searches/event")
}

// BenchmarkTunnel: BenchmarkRepair's events (a 0.5 m box put on the
// middle third of the path in clutter200, then deleted), handed to a
// Tunnel loop and to an A* loop in turn; both plan from scratch after
// each event, the Tunnel loop only in the tunnel round its mesh route.
// µs/event is the Tunnel loop's Changed + Tick (mesh update included),
// astar-µs/event the A* loop's; mesh-µs/event the mesh update alone;
// over-optimal-% the mean and worst excess of the tunnel path's cost over
// A*'s.
func BenchmarkTunnel(b *testing.B) {
	m := clutter200(b)
	tn, a := benchLoop(b, m, Tunnel), benchLoop(b, m, AStar)
	rng := rand.New(rand.NewPCG(22, 23))
	cs := new(voxel.ChangeSet)
	var tTime, aTime, meshTime time.Duration
	tExp, aExp, coarse := 0, 0, 0
	over, worst := 0.0, 0.0
	raw := a.Tick(context.Background()).Raw
	for i := 0; b.Loop(); i++ {
		benchEvent(b, m, cs, rng, raw, i)
		began := time.Now()
		tn.Changed(cs)
		out := tn.Tick(context.Background())
		tTime += time.Since(began)
		began = time.Now()
		a.Changed(cs)
		base := a.Tick(context.Background())
		aTime += time.Since(began)
		if out.Status != Following || base.Status != Following || out.RawCost < base.RawCost*(1-1e-9) {
			b.Fatalf("event %d: tunnel %v cost %v, A* %v cost %v", i, out.Status, out.RawCost, base.Status, base.RawCost)
		}
		st, _ := tn.TunnelStats()
		meshTime += st.MeshUpdate
		if out.Replanned {
			coarse += st.CoarseNodes
		}
		excess := 100 * (out.RawCost/base.RawCost - 1)
		over, worst = over+excess, max(worst, excess)
		tExp += out.Stats.Expansions
		aExp += base.Stats.Expansions
		raw = base.Raw
	}
	n := float64(b.N)
	b.ReportMetric(tTime.Seconds()*1e6/n, "µs/event")
	b.ReportMetric(meshTime.Seconds()*1e6/n, "mesh-µs/event")
	b.ReportMetric(aTime.Seconds()*1e6/n, "astar-µs/event")
	b.ReportMetric(aTime.Seconds()/tTime.Seconds(), "x-faster-than-astar")
	b.ReportMetric(float64(tExp)/n, "expansions/event")
	b.ReportMetric(float64(aExp)/n, "astar-expansions/event")
	b.ReportMetric(float64(coarse)/n, "route-expansions/event")
	b.ReportMetric(over/n, "over-optimal-%")
	b.ReportMetric(worst, "worst-over-optimal-%")
	st, _ := tn.TunnelStats()
	b.ReportMetric(float64(st.Regions), "regions")
}
