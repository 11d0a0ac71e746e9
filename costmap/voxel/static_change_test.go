package voxel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStaticMapListedOrRegion: as the README says, a new static map is
// listed voxel by voxel only when it has the previous one's geometry
// (and changes at most 2^20 voxels); a first map, or one of another size
// or origin, comes as a region however small.
func TestStaticMapListedOrRegion(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1})
	grid := func(x0 float64, cells ...int8) *Grid {
		return &Grid{Width: 2, Height: 2, Resolution: 0.1, Origin: vec(x0, 0, 0), Cells: cells, ZMin: 0, ZMax: 0.1}
	}
	cs, err := m.Apply(grid(0, 0, 0, 100, 0))
	require.NoError(t, err)
	require.Len(t, cs.Regions, 1, "a first map")
	require.Zero(t, cs.Len())

	cs, err = m.Apply(grid(0, 0, 0, 0, 100))
	require.NoError(t, err)
	require.Empty(t, cs.Regions, "the same geometry")
	require.Equal(t, 2, cs.Len(), "one voxel fell, one rose")

	cs, err = m.Apply(grid(0.1, 0, 0, 0, 100))
	require.NoError(t, err)
	require.Len(t, cs.Regions, 1, "another origin")
}
