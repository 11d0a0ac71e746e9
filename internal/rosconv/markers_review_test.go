package rosconv

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/msgs/geometry_msgs"
)

// TestReviewHugeMarkerRefusedQuickly: a SPHERE marker whose scale is
// finite and positive but spans the whole addressable world (radius
// (2^23−1) voxels at 0.1 m: 838,860.7 m) passes Markers, and the costmap's
// size check (Box.Volume() > maxShapeVoxels in PutShape.apply) is fooled
// because Box.Volume overflows int64: (2^24−1)^3 wraps to a negative
// number. Apply then walks ~2^72 voxels and never returns, freezing the
// planning goroutine. Want: the marker refused at once (ErrInvalid from
// Markers, or voxel.ErrInput from Apply), counted, and the node going on.
func TestReviewHugeMarkerRefusedQuickly(t *testing.T) {
	const r = (1<<23 - 1) * 0.1 // metres
	var state MarkerState
	ups, errs := Markers(markers(
		marker("huge", 1, sphere, add, "map", geometry_msgs.Point{X: 0.05, Y: 0.05, Z: 0.05}, geometry_msgs.Vector3{X: 2 * r, Y: 2 * r, Z: 2 * r}),
	), lookupMap, &state)
	if len(errs) > 0 {
		return // refused at the boundary: fine
	}
	require.Len(t, ups, 1)
	m, err := voxel.New(voxel.Config{Resolution: 0.1, MaxBricks: 1000})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { _, err := m.Apply(ups[0]); done <- err }()
	select {
	case err := <-done:
		require.True(t, errors.Is(err, voxel.ErrInput), "want the shape refused as too large, got %v", err)
	case <-time.After(5 * time.Second):
		t.Fatalf("Apply of a %.0f m sphere marker did not return in 5 s (Box.Volume overflowed); want it refused as too large", r)
	}
}
