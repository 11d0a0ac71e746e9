package voxel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Nav2 map_io (loadMapFromFile): occ = 1.0 - shade in double;
// "occupied_thresh < occ" is occupied, "occ < free_thresh" free, else unknown
// (strict). A pixel whose occupancy equals a threshold is unknown.
func TestMapServerThresholdEquality(t *testing.T) {
	// pixel 102: occ = 1 - 102/255 = 0.6 (== occupied_thresh 0.6 in double)
	// pixel 153: occ = 1 - 153/255 = 0.4 (== free_thresh 0.4 in double)
	img := append([]byte("P5\n2 1\n255\n"), 102, 153)
	g, err := loadSmallMap(t, img, "negate: 0\noccupied_thresh: 0.6\nfree_thresh: 0.4\n")
	require.NoError(t, err)
	require.Equal(t, []int8{-1, -1}, g.Cells, "Nav2 map_io gives unknown at the thresholds")
}

// Nav2 map_io scale mode: rint((occ - free)/(occ_t - free) * 100) in double.
// Default thresholds 0.25/0.65, pixel 102: occ = 0.6 → 87.4999… → 87;
// pixel 153: occ = 0.4 → 37.5000…01 → 38.
func TestMapServerScaleRounding(t *testing.T) {
	img := append([]byte("P5\n2 1\n255\n"), 102, 153)
	g, err := loadSmallMap(t, img, "mode: scale\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n")
	require.NoError(t, err)
	require.Equal(t, []int8{87, 38}, g.Cells)
}

// A 16-bit PGM (maxval 65535) is read by GraphicsMagick (Q16, as Ubuntu
// ships it) at full precision: pixel 22938 has shade 22938/65535, occ =
// 0.649989 < occupied_thresh 0.65 → unknown. Quantizing to 8 bits first
// (89 → occ 0.651) makes it occupied.
func TestMapServer16BitPrecision(t *testing.T) {
	img := append([]byte("P5\n1 1\n65535\n"), byte(22938>>8), byte(22938&0xff))
	g, err := loadSmallMap(t, img, "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n")
	require.NoError(t, err)
	require.Equal(t, []int8{-1}, g.Cells)
}

// Nav2 loadMapYaml reads negate as an int, falling back to a bool
// ("negate: true" is accepted).
func TestMapServerNegateBool(t *testing.T) {
	img := append([]byte("P5\n2 1\n255\n"), 0, 255)
	g, err := loadSmallMap(t, img, "negate: true\noccupied_thresh: 0.65\nfree_thresh: 0.25\n")
	require.NoError(t, err)
	require.Equal(t, []int8{0, 100}, g.Cells)
}
