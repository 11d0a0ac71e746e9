package navmesh

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
)

// world is a test world: a grid, a configuration and an edit rule.
type world struct {
	name string
	g    *grid
	cfg  Config
	edit func(rng *rand.Rand, g *grid, cs *voxel.ChangeSet)
}

// costs a random edit may write: free, graded, inscribed, lethal.
var editCosts = []voxel.Cost{0, 0, 40, 120, 200, voxel.Inscribed, voxel.Lethal, voxel.Lethal}

func testWorlds() []world {
	aerial := newGrid(40, 36, 14)
	for _, x := range []int32{12, 27} { // two walls, a hole in each
		aerial.fill(voxel.Box{Min: voxel.Key{X: x}, Max: voxel.Key{X: x, Y: 35, Z: 13}}, voxel.Lethal, newChangeSet())
		aerial.fill(voxel.Box{Min: voxel.Key{X: x, Y: x, Z: 5}, Max: voxel.Key{X: x, Y: x + 3, Z: 8}}, 0, newChangeSet())
	}
	room := voxel.Box{Min: voxel.Key{X: 29, Y: 3, Z: 2}, Max: voxel.Key{X: 38, Y: 13, Z: 11}} // a sealed room
	aerial.fill(room, voxel.Lethal, newChangeSet())
	aerial.fill(voxel.Box{Min: room.Min.Add(1, 1, 1), Max: room.Max.Add(-1, -1, -1)}, 0, newChangeSet())
	ground := newGrid(40, 36, 8)
	ground.fill(voxel.Box{Max: voxel.Key{X: 39, Y: 35, Z: 0}}, voxel.Lethal, newChangeSet()) // a floor
	steps := newGrid(40, 36, 8)
	steps.fill(voxel.Box{Max: voxel.Key{X: 39, Y: 35, Z: 0}}, voxel.Lethal, newChangeSet())
	flat := newGrid(48, 40, 1)
	return []world{
		{"aerial", aerial, Config{Mode: Aerial, Bounds: aerial.box, Tile: 8, Bands: 3, Penalty: 2},
			func(rng *rand.Rand, g *grid, cs *voxel.ChangeSet) {
				g.fill(g.randomBox(rng, 6, 0, 13), editCosts[rng.IntN(len(editCosts))], cs)
			}},
		{"ground-levels", ground, Config{Mode: Ground, Bounds: voxel.Box{Min: voxel.Key{Z: 1}, Max: voxel.Key{X: 39, Y: 35, Z: 6}}, Tile: 8, Headroom: 2, MaxStep: 1},
			func(rng *rand.Rand, g *grid, cs *voxel.ChangeSet) {
				c := voxel.Cost(voxel.Lethal) // platforms, steps and walls
				if rng.IntN(3) == 0 {
					c = editCosts[rng.IntN(len(editCosts))]
				}
				g.fill(g.randomBox(rng, 7, 0, 7), c, cs) // the floor and the voxels above the bounds too
			}},
		// Steps of two voxels and no headroom: one column can hold two
		// cells two levels apart, one under a slab, both within a step
		// of their neighbours.
		{"ground-steps", steps, Config{Mode: Ground, Bounds: voxel.Box{Min: voxel.Key{Z: 1}, Max: voxel.Key{X: 39, Y: 35, Z: 6}}, Tile: 8, MaxStep: 2},
			func(rng *rand.Rand, g *grid, cs *voxel.ChangeSet) {
				c := voxel.Cost(voxel.Lethal)
				if rng.IntN(3) == 0 {
					c = editCosts[rng.IntN(len(editCosts))]
				}
				g.fill(g.randomBox(rng, 5, 0, 7), c, cs)
			}},
		{"ground-flat", flat, Config{Mode: Ground, Bounds: flat.box, Tile: 16, ImplicitFloor: true, Bands: 2, Penalty: 1},
			func(rng *rand.Rand, g *grid, cs *voxel.ChangeSet) {
				g.fill(g.randomBox(rng, 8, 0, 0), editCosts[rng.IntN(len(editCosts))], cs)
			}},
	}
}

// TestIncrementalEqualsScratch: after every update of a random sequence,
// the mesh equals one built from scratch on the same map (regions, and
// edges with their costs), its regions are made of cells of their band
// and cover every cell once, and Locate finds each cell's region.
func TestIncrementalEqualsScratch(t *testing.T) {
	for _, w := range testWorlds() {
		t.Run(w.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			m, err := New(w.g, w.cfg)
			require.NoError(t, err)
			var d Delta
			steps := 300
			if testing.Short() || raceDetector { // make test runs the package again without -race, in full
				steps = 30
			}
			for step := range steps {
				cs := newChangeSet()
				for range 1 + rng.IntN(3) {
					w.edit(rng, w.g, cs)
				}
				m.Update(cs, &d)
				fresh, err := New(w.g, w.cfg)
				require.NoError(t, err)
				require.Equal(t, canon(fresh), canon(m), "step %d", step)
				if step%25 == 0 {
					checkCover(t, m, cellTest(m, w.g))
				}
				for _, n := range d.Removed {
					_, ok := m.Region(n)
					require.False(t, ok, "removed region %d still answers", n)
					require.Empty(t, m.Successors(n, nil))
				}
			}
			checkCover(t, m, cellTest(m, w.g))
		})
	}
}

func TestConfigErrors(t *testing.T) {
	g := newGrid(4, 4, 4)
	for _, cfg := range []Config{
		{Mode: 7, Bounds: g.box},
		{Bounds: voxel.Box{Min: voxel.Key{X: 1}}},
		{Bounds: g.box, Tile: 1},
		{Bounds: g.box, MaxCost: voxel.Lethal},
		{Bounds: g.box, Bands: 17},
		{Bounds: g.box, Penalty: -1},
		{Bounds: g.box, Headroom: -1},
		{Mode: Aerial, Bounds: g.box, Tile: 256},
	} {
		_, err := New(g, cfg)
		require.ErrorIs(t, err, ErrConfig, "%+v", cfg)
	}
}

// TestBands: band boundaries split the passable costs evenly and band
// weights grow with cost.
func TestBands(t *testing.T) {
	c := Config{Bands: 2, Penalty: 1}
	c.setDefaults()
	require.Equal(t, uint8(0), c.band(0))
	require.Equal(t, uint8(0), c.band(126))
	require.Equal(t, uint8(1), c.band(127))
	require.Equal(t, uint8(1), c.band(252))
	require.InDelta(t, 1+126.0/252, c.weight(0), 1e-12)
	require.InDelta(t, 2.0, c.weight(1), 1e-12)
}
