package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAltitudeBandOutsideVolume: aerial altitude limits that leave no
// layer of the planning volume (a band above origin_z + size_z, below
// origin_z, or thinner than a voxel) are refused by check, naming the
// parameters. A review found them let through to the planner, which
// stopped the node with "volume (0,0,50)..(199,199,39) holds 0 cells",
// naming none.
func TestAltitudeBandOutsideVolume(t *testing.T) {
	for name, band := range map[string][2]float64{
		"above the volume": {5, 6},
		"below the volume": {-5, -4},
		"within one voxel": {0.3, 0.35},
	} {
		p := testParams()
		p.MinAltitude, p.MaxAltitude = band[0], band[1]
		err := p.check()
		require.ErrorContains(t, err, "min_altitude", name)
		require.ErrorContains(t, err, "size_z", name)
	}
	p := testParams()
	p.MinAltitude, p.MaxAltitude = 0.3, 0.4 // one layer
	require.NoError(t, p.check())
	_, err := newWorld(p)
	require.NoError(t, err)
	p.Mode, p.MinAltitude, p.MaxAltitude = "ground", 5, 6 // ground robots plan on the floor
	require.NoError(t, p.check())
}
