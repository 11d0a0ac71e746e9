package voxel

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// The random-sequence tests apply every kind of update in a small world
// (20×20×12 voxels at 0.1 m) and after each one check, over the world and
// the inflation margin around it, that
//   - every cost equals the brute-force distance transform's, and
//   - the change set lists exactly the voxels whose cost differs from
//     before, with the right old and new costs (outside its regions).

var randomConfigs = map[string]Config{
	"sphere": {Resolution: 0.1, Robot: Robot{Shape: Sphere, Radius: 0.15, InflationRadius: 0.35, CostScaling: 4},
		Decay: time.Second},
	"cylinder": {Resolution: 0.1, Robot: Robot{Shape: Cylinder, Radius: 0.1, InflationRadius: 0.3, Height: 0.3, CostScaling: 2},
		Decay: time.Second},
	"sphere-inflate-unknown": {Resolution: 0.1, Robot: Robot{Radius: 0.2, InflationRadius: 0.3, InflateUnknown: true}},
	"no-inflation":           {Resolution: 0.1},
}

func TestRandomSequences(t *testing.T) {
	for name, cfg := range randomConfigs {
		t.Run(name, func(t *testing.T) {
			steps := 150
			if testing.Short() {
				steps = 40
			}
			runRandom(t, cfg, 7, steps)
		})
	}
}

const worldEdge = 20 // voxels; the world is [0,20)×[0,20)×[0,12)

func runRandom(t *testing.T, cfg Config, seed uint64, steps int) {
	rng := rand.New(rand.NewPCG(seed, 99))
	m := newMap(t, cfg)
	r := m.infl.radius
	h := m.infl.height
	check := Box{Min: Key{-r - 1, -r - 1, -r - h - 1}, Max: Key{worldEdge + r, worldEdge + r, 12 + r}}
	before := snapshot(m, check)
	clock := time.Duration(0)
	for step := range steps {
		u, what := randomUpdate(rng, m, &clock)
		cs, err := m.Apply(u)
		require.NoError(t, err, "step %d: %s", step, what)
		after := snapshot(m, check)
		requireLayersCombined(t, m, check, fmt.Sprintf("step %d (%s)", step, what))
		requireCostsEqual(t, check, bruteCosts(m, check), after, fmt.Sprintf("step %d (%s): inflation", step, what))
		requireChangeSet(t, check, before, after, cs, fmt.Sprintf("step %d (%s)", step, what))
		before = after
	}
}

func randomPoint(rng *rand.Rand, res float64) r3.Vector {
	return vec(rng.Float64()*worldEdge*res, rng.Float64()*worldEdge*res, rng.Float64()*12*res)
}

func randomQuat(rng *rand.Rand) Quat {
	if rng.IntN(3) == 0 {
		return Identity
	}
	return Quat{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64(), W: rng.NormFloat64()}
}

func randomUpdate(rng *rand.Rand, m *Map, clock *time.Duration) (Update, string) {
	res := m.cfg.Resolution
	id := ShapeID(fmt.Sprint("s", rng.IntN(6)))
	switch n := rng.IntN(20); {
	case n < 6: // shapes stay inside the world
		c := vec(0.5+rng.Float64(), 0.5+rng.Float64(), 0.4+rng.Float64()*0.4)
		var s Solid
		switch rng.IntN(3) {
		case 0:
			s = &BoxShape{Pose: Pose{c, randomQuat(rng)}, Size: vec(0.05+rng.Float64()*0.4, 0.05+rng.Float64()*0.4, 0.05+rng.Float64()*0.4)}
		case 1:
			s = &SphereShape{Center: c, Radius: 0.03 + rng.Float64()*0.25}
		default:
			s = &CylinderShape{Pose: Pose{c, randomQuat(rng)}, Radius: 0.03 + rng.Float64()*0.2, Height: 0.05 + rng.Float64()*0.5}
		}
		return PutShape{ID: id, Solid: s}, fmt.Sprintf("put %s %T", id, s)
	case n < 9:
		for id := range m.shapes {
			return DeleteShape{ID: id}, "delete " + string(id)
		}
		return ClearShapes{}, "clear (none)"
	case n < 15:
		*clock += time.Duration(rng.IntN(400)) * time.Millisecond
		c := &Cloud{Origin: randomPoint(rng, res), MaxRange: 1.2, MinRange: 0.02, Stamp: *clock}
		for range 1 + rng.IntN(40) {
			c.Points = append(c.Points, randomPoint(rng, res))
		}
		if rng.IntN(4) == 0 { // hit the same spots again, to mark them for sure
			c.Points = append(c.Points, c.Points...)
		}
		return c, fmt.Sprintf("cloud of %d", len(c.Points))
	case n < 16:
		*clock += time.Duration(rng.IntN(800)) * time.Millisecond
		return Expire{Now: *clock}, "expire"
	case n < 18:
		cell := 0.1 + 0.1*float64(rng.IntN(2)) // grids stay inside the world
		n := int(1.2 / cell)
		g := &Grid{Width: 2 + rng.IntN(n-1), Height: 2 + rng.IntN(n-1), Resolution: cell,
			Origin: vec(0.4+rng.Float64()*0.3, rng.Float64()*0.3, 0), ZMin: 0, ZMax: 0.3 + rng.Float64()*0.6,
			Unknown: UnknownAs(rng.IntN(3)), Yaw: []float64{0, 0.3}[rng.IntN(2)]}
		g.Cells = make([]int8, g.Width*g.Height)
		for i := range g.Cells {
			g.Cells[i] = []int8{-1, 0, 0, 0, 100, 50}[rng.IntN(6)]
		}
		return g, fmt.Sprintf("grid %d×%d", g.Width, g.Height)
	case n < 19:
		s := &StaticVoxels{Box: Box{Max: Key{worldEdge - 1, worldEdge - 1, 5}}}
		for range rng.IntN(30) {
			s.Blocked = append(s.Blocked, Key{int32(rng.IntN(worldEdge)), int32(rng.IntN(worldEdge)), int32(rng.IntN(6))})
		}
		return s, fmt.Sprintf("static voxels, %d blocked", len(s.Blocked))
	}
	return ClearShapes{}, "clear shapes"
}

// requireChangeSet checks cs against the costs of box b before and after.
func requireChangeSet(t *testing.T, b Box, before, after []Cost, cs *ChangeSet, msg string) {
	t.Helper()
	listed := map[Key]Change{}
	for _, list := range [][]Change{cs.Rose, cs.Fell} {
		for _, c := range list {
			_, dup := listed[c.Voxel]
			require.False(t, dup, "%s: %v listed twice", msg, c.Voxel)
			listed[c.Voxel] = c
			require.True(t, cs.Bounds.Contains(c.Voxel), "%s: %v outside the bounds", msg, c.Voxel)
		}
	}
	for _, c := range cs.Rose {
		require.Greater(t, c.New, c.Old, "%s: %v in Rose", msg, c.Voxel)
	}
	for _, c := range cs.Fell {
		require.Less(t, c.New, c.Old, "%s: %v in Fell", msg, c.Voxel)
	}
	inRegion := func(k Key) bool {
		for _, r := range cs.Regions {
			if r.Contains(k) {
				return true
			}
		}
		return false
	}
	for i := range before {
		k := keyAtIndex(b, i)
		c, ok := listed[k]
		switch {
		case ok:
			require.Equal(t, Change{k, before[i], after[i]}, c, "%s: listed change", msg)
			require.False(t, inRegion(k), "%s: %v listed inside a region", msg, k)
			delete(listed, k)
		case before[i] != after[i]:
			require.True(t, inRegion(k), "%s: %v changed %d → %d but is not listed", msg, k, before[i], after[i])
		}
	}
	require.Empty(t, listed, "%s: changes listed outside the checked box", msg)
}

// TestLongRayChangeSet casts one 30 m ray through many bricks and
// super-blocks into unknown space: the change set must equal the diff.
func TestLongRayChangeSet(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, Robot: Robot{Radius: 0.1, InflationRadius: 0.2}})
	check := Box{Min: Key{-4, -4, -4}, Max: Key{304, 4, 4}}
	before := snapshot(m, check)
	cs, err := m.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: []r3.Vector{vec(30.05, 0.05, 0.05)}, MaxRange: 40})
	require.NoError(t, err)
	after := snapshot(m, check)
	requireChangeSet(t, check, before, after, cs, "long ray")
	requireCostsEqual(t, check, bruteCosts(m, check), after, "long ray: inflation")
	require.Equal(t, Lethal, m.Cost(Key{300, 0, 0}))
	for x := int32(0); x < 298; x++ {
		require.Equal(t, Free, m.Cost(Key{x, 0, 0}), "voxel %d on the ray", x)
	}
	// 300 cleared voxels, the mark, and the mark's five unknown face
	// neighbours off the ray, which are inside the inscribed radius (253
	// ranks above unknown for them; graded costs do not).
	require.Equal(t, 306, cs.Len())
	for _, k := range []Key{{300, 1, 0}, {300, -1, 0}, {300, 0, 1}, {300, 0, -1}, {301, 0, 0}} {
		require.Equal(t, Inscribed, m.Cost(k), "%v", k)
	}
	require.Equal(t, Unknown, m.Cost(Key{300, 2, 0}))
}

// requireLayersCombined checks every voxel's cached occupancy against its
// layers: a shape makes it occupied, else the higher of the static layer's
// state and the sensor's evidence.
func requireLayersCombined(t *testing.T, m *Map, b Box, msg string) {
	t.Helper()
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				k := Key{x, y, z}
				want := m.static.at(k)
				got := want
				if br := m.lookup(k); br != nil {
					i := index(k)
					got = br.occ[i]
					if br.shapes != nil && br.shapes[i] > 0 {
						want = occupied
					} else if br.sensor != nil {
						want = max(want, sensorOcc(br.sensor[i]))
					}
				}
				if got != want {
					require.Failf(t, "occupancy differs from its layers", "%s: voxel %v holds %d, layers say %d", msg, k, got, want)
				}
			}
		}
	}
}
