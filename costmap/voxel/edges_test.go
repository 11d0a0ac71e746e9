package voxel

import (
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// TestInflationAtWorldEdge: an obstacle on the world's +X or +Y edge
// inflates only voxels of the world. A review found the window past
// MaxCoord writing into bricks across the world: a brick key past
// MaxCoord wraps into the next axis's field, so graded costs appeared
// 2·MaxCoord voxels away and the change set named keys outside the
// world.
func TestInflationAtWorldEdge(t *testing.T) {
	for _, edge := range []Key{{X: MaxCoord, Y: 2}, {X: 2, Y: MaxCoord}, {X: MaxCoord, Y: MaxCoord, Z: MaxCoord}} {
		m := newMap(t, Config{Resolution: 1, Robot: Robot{Radius: 3, InflationRadius: 3}})
		centre := vec(float64(edge.X)+0.5, float64(edge.Y)+0.5, float64(edge.Z)+0.5)
		cs, err := m.Apply(PutShape{ID: "edge", Solid: &SphereShape{Center: centre, Radius: 0.4}})
		require.NoError(t, err)
		require.True(t, cs.Bounds.Min.valid() && cs.Bounds.Max.valid(), "edge %v: bounds %v", edge, cs.Bounds)
		for _, c := range cs.Rose {
			require.True(t, c.Voxel.valid(), "edge %v: change at %v", edge, c.Voxel)
			d := max(abs32(c.Voxel.X-edge.X), abs32(c.Voxel.Y-edge.Y), abs32(c.Voxel.Z-edge.Z))
			require.LessOrEqual(t, d, int32(3), "edge %v: change at %v, beyond the inflation radius", edge, c.Voxel)
		}
		require.Equal(t, Lethal, m.Cost(edge))
		require.Equal(t, Inscribed, m.Cost(edge.Add(-1, 0, 0)), "edge %v", edge)
		// Where the wrapped keys landed: the far side of the world.
		for y := int32(0); y < 16; y++ {
			for x := int32(-MaxCoord); x < -MaxCoord+8; x++ {
				require.Equal(t, Unknown, m.Cost(Key{x, y, 0}), "edge %v: voxel %v across the world", edge, Key{x, y, 0})
				require.Equal(t, Unknown, m.Cost(Key{y, x, 0}), "edge %v: voxel %v across the world", edge, Key{y, x, 0})
			}
		}
	}
}

// TestDecayOutOfOrderScans: a hit stamped earlier than one before it in
// the same brick (scans from two sensors, out of order, as beginScan
// allows) still decays on time. A review found the brick's oldest hit
// set only by its first, so Expire skipped the brick and the earlier
// mark outlived Decay.
func TestDecayOutOfOrderScans(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, Decay: time.Second})
	o := vec(0.05, 0.05, 0.05)
	scan := func(p r3.Vector, at time.Duration) {
		for range 3 { // enough hits to mark
			_, err := m.Apply(&Cloud{Origin: o, Points: []r3.Vector{p}, MaxRange: 5, Stamp: at})
			require.NoError(t, err)
		}
	}
	scan(vec(-2, -2, 0.05), 0)                  // sets the sensor epoch
	scan(vec(0.55, 0.05, 0.05), 10*time.Second) // voxel (5, 0, 0)
	scan(vec(0.55, 0.35, 0.05), 9*time.Second)  // voxel (5, 3, 0), same brick, earlier
	a, b := Key{5, 0, 0}, Key{5, 3, 0}
	require.True(t, m.Occupied(a) && m.Occupied(b))
	_, err := m.Apply(Expire{Now: 10500 * time.Millisecond})
	require.NoError(t, err)
	require.False(t, m.Occupied(b), "hit at 9 s, Decay 1 s, now 10.5 s")
	require.True(t, m.Occupied(a), "hit at 10 s, Decay 1 s, now 10.5 s")
}
