package voxel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemoryLimitOwedInflation: a shape that fits in an existing brick
// but whose inflation needs a brick the limit refuses is held, its
// neighbours' costs missing (ErrMemory); the next update that leaves room
// settles them and lists them (they used to stay wrong for good).
func TestMemoryLimitOwedInflation(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, MaxBricks: 2, Robot: Robot{Radius: 0.1, InflationRadius: 0.2}})
	dot := func(x int32) PutShape { // a shape covering voxel (x, 4, 4) only
		return PutShape{ID: ShapeID(rune('a' + x%26)), Solid: &SphereShape{Center: vec(float64(x)*0.1+0.05, 0.45, 0.45), Radius: 0.01}}
	}
	// A static map saying the floor is free: no bricks.
	_, err := m.Apply(&Grid{Width: 20, Height: 10, Resolution: 0.1, Cells: make([]int8, 200), ZMin: 0, ZMax: 1})
	require.NoError(t, err)
	require.Zero(t, m.Stats().Bricks)
	_, err = m.Apply(dot(4)) // brick (0,0,0)
	require.NoError(t, err)
	_, err = m.Apply(PutShape{ID: "far", Solid: &SphereShape{Center: vec(10.85, 0.45, 0.45), Radius: 0.01}}) // a second brick
	require.NoError(t, err)
	_, err = m.Apply(dot(7)) // in brick (0,0,0); its inflation reaches x = 8, 9 in brick (1,0,0)
	require.ErrorIs(t, err, ErrMemory)
	require.True(t, m.HasShape(ShapeID(rune('a'+7))), "the shape is held")

	cs, err := m.Apply(DeleteShape{ID: "far"}) // frees a brick; no error
	require.NoError(t, err)
	require.Contains(t, cs.Rose, Change{Voxel: Key{8, 4, 4}, Old: Free, New: Inscribed}, "the settled cost is listed")

	require.Equal(t, Lethal, m.Cost(Key{7, 4, 4}))
	require.Equal(t, Inscribed, m.Cost(Key{8, 4, 4}), "a free voxel one voxel (0.1 m = the robot radius) from an obstacle")
	check := Box{Min: Key{-3, 0, 0}, Max: Key{12, 8, 8}}
	requireCostsEqual(t, check, bruteCosts(m, check), snapshot(m, check), "after the refusal and a free")
}
