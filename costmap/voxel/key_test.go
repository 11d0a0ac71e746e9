package voxel

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBoxVolume: counts, and saturation where the count passes int64
// (the whole addressable space, (2^24−1)^3 voxels, wrapped to a negative
// number and let any shape past the size check).
func TestBoxVolume(t *testing.T) {
	const c = MaxCoord
	for _, tc := range []struct {
		b    Box
		want int64
	}{
		{Box{Min: Key{1, 1, 1}, Max: Key{0, 0, 0}}, 0},
		{Box{Min: Key{0, 0, 0}, Max: Key{0, 0, 0}}, 1},
		{Box{Min: Key{-1, 0, 2}, Max: Key{1, 3, 6}}, 3 * 4 * 5},
		{Box{Min: Key{-c, -c, 0}, Max: Key{c, c, 0}}, (2*c + 1) * (2*c + 1)},
		{Box{Min: Key{-c, -c, -c}, Max: Key{c, c, c}}, math.MaxInt64},
		{Box{Min: Key{math.MinInt32, math.MinInt32, 0}, Max: Key{math.MaxInt32, math.MaxInt32, 0}}, math.MaxInt64},
	} {
		require.Equal(t, tc.want, tc.b.Volume(), "%v", tc.b)
	}
}
