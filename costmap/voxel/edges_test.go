package voxel

import (
	"math"
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

// TestGridCellCountOverflow: a grid whose Width·Height wraps to 0 in int
// is refused. A review found it passed validate with no cells, and the
// map then panicked reading Cells[0].
func TestGridCellCountOverflow(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1})
	g := &Grid{Width: 1 << 32, Height: 1 << 32, Resolution: 1e-10, ZMin: 0, ZMax: 0.1}
	var err error
	require.NotPanics(t, func() { _, err = m.Apply(g) })
	require.ErrorIs(t, err, ErrInput)
}

// TestFarPointClearsAlongItsRay: a finite point so far off that its
// distance overflows clears along its direction up to MaxRange, as a
// point at 100 m does. A review found it cut to length 0: its ray cleared
// nothing but the sensor's own voxel.
func TestFarPointClearsAlongItsRay(t *testing.T) {
	for _, far := range []r3.Vector{vec(100, 0.05, 0.05), vec(1e200, 0.05, 0.05), vec(math.MaxFloat64, 0.05, 0.05)} {
		m := newMap(t, Config{Resolution: 0.1})
		cs, err := m.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: []r3.Vector{far}, MaxRange: 1})
		require.NoError(t, err)
		require.Equal(t, 1, cs.Input.Clipped, "point %v", far)
		for x := int32(0); x < 10; x++ {
			require.Equal(t, Free, m.Cost(Key{x, 0, 0}), "point %v: voxel %d on the ray", far, x)
		}
	}
	// Where p − o overflows too.
	p, o := vec(math.MaxFloat64, 0, 0), vec(-math.MaxFloat64, 0, 0)
	require.Equal(t, vec(2, 0, 0), cut(p, o, p.Sub(o).Norm(), 2))
	p, o = vec(math.MaxFloat64, math.MaxFloat64, 0), vec(0, 0, 0)
	c := cut(p, o, p.Sub(o).Norm(), 2)
	require.InDelta(t, math.Sqrt2, c.X, 1e-15)
	require.InDelta(t, math.Sqrt2, c.Y, 1e-15)
}

// TestSaturatedMarkClears: a voxel hit many times is cleared by
// ⌈Max/|Miss|⌉ rays, in eighths: 10 with the default model, as sensor.go
// says (it said 9, Max/|Miss| unrounded, before a review).
func TestSaturatedMarkClears(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1})
	w := Key{5, 0, 0}
	scan := func(x float64) {
		_, err := m.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: []r3.Vector{vec(x, 0.05, 0.05)}, MaxRange: 2})
		require.NoError(t, err)
	}
	for range 20 {
		scan(0.55) // saturate
	}
	for range 9 {
		scan(1.05)
	}
	require.Equal(t, Lethal, m.Cost(w), "after 9 rays through it")
	scan(1.05)
	require.Equal(t, Free, m.Cost(w), "after 10")
}
