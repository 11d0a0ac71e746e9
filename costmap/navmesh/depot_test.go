package navmesh

import (
	"math/rand/v2"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/shareddata"
)

// depotMap loads a Nav2 map into a voxel map (one layer, a cylinder
// robot of radius 0.2 m inflated to 0.3 m) and returns it with the
// ground mesh configuration covering it.
func nav2Map(tb testing.TB, name string) (*voxel.Map, Config) {
	g, err := voxel.LoadMapServer(shareddata.Path(tb, "data", "nav2-maps", name+".yaml"))
	require.NoError(tb, err)
	g.ZMin, g.ZMax = 0, g.Resolution
	m, err := voxel.New(voxel.Config{
		Resolution: g.Resolution, Origin: r3.Vector{X: g.Origin.X, Y: g.Origin.Y},
		Robot: voxel.Robot{Shape: voxel.Cylinder, Radius: 0.2, Height: g.Resolution, InflationRadius: 0.3},
	})
	require.NoError(tb, err)
	_, err = m.Apply(g)
	require.NoError(tb, err)
	cfg := Config{Mode: Ground, ImplicitFloor: true, Tile: 16,
		Bounds: voxel.Box{Max: voxel.Key{X: int32(g.Width) - 1, Y: int32(g.Height) - 1}}}
	return m, cfg
}

// TestNav2Maps builds the mesh of every Nav2 map: regions cover exactly
// the walkable cells.
func TestNav2Maps(t *testing.T) {
	for _, name := range []string{"depot", "warehouse", "map_circular", "tb3_sandbox"} {
		t.Run(name, func(t *testing.T) {
			if raceDetector && name == "warehouse" {
				t.Skip("10 M cells: checked in the run without -race")
			}
			vm, cfg := nav2Map(t, name)
			m, err := New(vm, cfg)
			require.NoError(t, err)
			require.Positive(t, m.NumRegions())
			checkCover(t, m, cellTest(m, vm))
			t.Logf("%d regions", m.NumRegions())
		})
	}
}

// TestDepotShapes: 2×2 m boxes put on and taken off the depot through the
// voxel costmap, inflation included: after every event the mesh equals
// one built from scratch, and removing every box gives back the first
// mesh.
func TestDepotShapes(t *testing.T) {
	vm, cfg := nav2Map(t, "depot")
	m, err := New(vm, cfg)
	require.NoError(t, err)
	first := canon(m)
	rng := rand.New(rand.NewPCG(7, 8))
	var d Delta
	events := 40
	if testing.Short() {
		events = 10
	}
	for ev := range events {
		id := voxel.ShapeID(string(rune('a' + rng.IntN(4))))
		var u voxel.Update = voxel.PutShape{ID: id, Solid: &voxel.BoxShape{
			Pose: voxel.Pose{Position: r3.Vector{X: 1 + rng.Float64()*28, Y: 1 + rng.Float64()*13, Z: 0.025}, Orientation: voxel.YawQuat(rng.Float64())},
			Size: r3.Vector{X: 2, Y: 2, Z: 0.05}}}
		if rng.IntN(3) == 0 {
			u = voxel.DeleteShape{ID: id}
		}
		cs, err := vm.Apply(u)
		if err != nil {
			require.ErrorIs(t, err, voxel.ErrUnknownShape)
			continue
		}
		m.Update(cs, &d)
		if ev%5 == 0 || ev == events-1 {
			fresh, err := New(vm, cfg)
			require.NoError(t, err)
			require.Equal(t, canon(fresh), canon(m), "event %d", ev)
		}
	}
	cs, err := vm.Apply(voxel.ClearShapes{})
	require.NoError(t, err)
	m.Update(cs, &d)
	require.Equal(t, first, canon(m))
}

// BenchmarkDepot: building the depot's mesh, and one obstacle event (a
// 2×2 m box put or deleted) through the costmap and the mesh.
func BenchmarkDepot(b *testing.B) {
	vm, cfg := nav2Map(b, "depot")
	b.Run("build", func(b *testing.B) {
		var m *Mesh
		for b.Loop() {
			var err error
			if m, err = New(vm, cfg); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(m.NumRegions()), "regions")
	})
	b.Run("event", func(b *testing.B) {
		m, err := New(vm, cfg)
		require.NoError(b, err)
		rng := rand.New(rand.NewPCG(9, 10))
		var d Delta
		var meshTime, tiles float64
		i := 0
		for b.Loop() {
			var u voxel.Update = voxel.DeleteShape{ID: "box"}
			if i%2 == 0 {
				u = voxel.PutShape{ID: "box", Solid: &voxel.BoxShape{
					Pose: voxel.Pose{Position: r3.Vector{X: 2 + rng.Float64()*26, Y: 2 + rng.Float64()*11, Z: 0.025}, Orientation: voxel.YawQuat(0)},
					Size: r3.Vector{X: 2, Y: 2, Z: 0.05}}}
			}
			i++
			cs, err := vm.Apply(u)
			if err != nil {
				b.Fatal(err)
			}
			start := nowNanos()
			m.Update(cs, &d)
			meshTime += float64(nowNanos() - start)
			tiles += float64(d.Tiles)
		}
		b.ReportMetric(meshTime/float64(b.N)/1e6, "mesh-ms/event")
		b.ReportMetric(tiles/float64(b.N), "tiles/event")
	})
}
