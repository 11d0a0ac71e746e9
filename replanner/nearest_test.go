package replanner

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
	"github.com/stretchr/testify/require"
)

// bruteNearest is lattice.nearest by its definition: the passable node
// whose voxel centre is nearest k's within the radius, ties to the lower
// node id (key order z, y, x).
func bruteNearest(g *lattice, k voxel.Key, radius, res float64) (planners.NodeID, bool) {
	_, r2 := voxel.RadiusVoxels(radius, res, MaxToleranceVoxels)
	best, bestD2 := planners.None, int64(-1)
	for n := range planners.NodeID(g.NumNodes()) {
		if !g.Passable(n) {
			continue
		}
		v := g.key(n)
		dx, dy, dz := int64(v.X-k.X), int64(v.Y-k.Y), int64(v.Z-k.Z)
		d2 := dx*dx + dy*dy + dz*dz
		if float64(d2) <= r2 && (bestD2 < 0 || d2 < bestD2) {
			best, bestD2 = n, d2
		}
	}
	return best, bestD2 >= 0
}

// TestNearestEqualsBruteForce: the shell search finds the node the
// definition does, for voxels inside, beside, above and below aerial
// volumes one, two and eight layers thick. A review found a volume one
// layer thick (altitude limits one voxel apart) searched only its own
// layer, so that a drone a few centimetres off it was Blocked for good.
func TestNearestEqualsBruteForce(t *testing.T) {
	w := aerialWorld(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, top := range []int32{4, 5, 11} {
		w.volume = voxel.Box{Min: voxel.Key{Z: 4}, Max: voxel.Key{X: 39, Y: 29, Z: top}}
		l := newLoop(t, w, Config{})
		for range 400 {
			k := voxel.Key{X: rng.Int32N(50) - 5, Y: rng.Int32N(40) - 5, Z: rng.Int32N(20) - 3}
			radius := []float64{0, 0.1, 0.25, 0.6, 1}[rng.IntN(5)]
			got, ok := l.g.nearest(k, radius, 0.1)
			want, wantOK := bruteNearest(l.g, k, radius, 0.1)
			require.Equal(t, wantOK, ok, "volume z 4..%d, voxel %v, radius %v", top, k, radius)
			require.Equal(t, want, got, "volume z 4..%d, voxel %v, radius %v", top, k, radius)
		}
	}
}

// TestOneLayerAerialStart: with the altitude limits one voxel apart, a
// drone 0.3 m above the layer plans from the layer (StartTolerance 1 m).
func TestOneLayerAerialStart(t *testing.T) {
	w := aerialWorld(t)
	w.volume = voxel.Box{Min: voxel.Key{Z: 4}, Max: voxel.Key{X: 39, Y: 29, Z: 4}}
	l := newLoop(t, w, Config{})
	require.NoError(t, l.SetGoal(vec(1.55, 1.55, 0.45)))
	require.NoError(t, l.SetPose(vec(0.55, 1.55, 0.75)))
	out := l.Tick(context.Background())
	require.Equal(t, Following, out.Status)
	require.Equal(t, voxel.Key{X: 5, Y: 15, Z: 4}, out.Raw[0])
}
