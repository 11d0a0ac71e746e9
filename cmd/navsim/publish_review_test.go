package main

import (
	"math"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/sim"
)

// Review (rev2): every range of a published scan is either within
// [range_min, range_max] or ±Inf (REP 117: −Inf for a detection too
// close). A wall 2 cm in front of the laser, nearer than the range_min
// of 0.05 m the scan claims, comes out as a valid-looking 0.02.
func TestReviewScanRangesWithinLimits(t *testing.T) {
	w := &sim.World{Bounds: sim.Bounds{Min: r3.Vector{X: -5, Y: -5}, Max: r3.Vector{X: 5, Y: 5, Z: 2}}}
	require.NoError(t, w.Put("wall", sim.Shape{Kind: sim.KindBox, Center: r3.Vector{X: 0.52, Z: 1}, Size: r3.Vector{X: 1, Y: 4, Z: 2}}))
	l := &sim.Laser{Samples: 8, Range: 12, Rate: 10, Z: 0.2}
	msg := laserScan(l, l.Scan(w, r3.Vector{}, 0, nil), 0)
	for i, r := range msg.Ranges {
		ok := math.IsInf(float64(r), 0) || r >= msg.RangeMin && r <= msg.RangeMax
		require.True(t, ok, "beam %d: range %v outside [range_min %v, range_max %v]", i, r, msg.RangeMin, msg.RangeMax)
	}
}
