package replanner

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
)

// TestTunnelWidthReviewZeroNeverWidens: TunnelWidth passes validation
// for any finite value > 0, but TunnelWidth/Resolution can round to 0
// (the smallest float64 over a 2 m resolution). The width then never
// grows (0·2 = 0): when the zero-width tunnel (the cells whose centres lie
// exactly on the line) holds no path, tunnel.search loops forever, and
// without a ctx deadline nothing stops it.
func TestTunnelWidthReviewZeroNeverWidens(t *testing.T) {
	m, err := voxel.New(voxel.Config{Resolution: 2, Robot: voxel.Robot{Radius: 0.1}})
	require.NoError(t, err)
	_, err = m.Apply(&voxel.StaticVoxels{Box: voxel.Box{Max: voxel.Key{X: 9, Y: 9, Z: 0}}})
	require.NoError(t, err)
	l, err := New(m, Config{Mode: Aerial, Strategy: Tunnel, TunnelWidth: 5e-324, UnknownIsFree: true,
		Volume: voxel.Box{Max: voxel.Key{X: 9, Y: 9, Z: 0}}})
	require.NoError(t, err, "the width is accepted")
	require.NoError(t, l.SetPose(vec(1, 1, 1))) // voxel (0, 0, 0)
	require.NoError(t, l.SetGoal(vec(7, 3, 1))) // voxel (3, 1, 0): no voxel centre between them on the line
	done := make(chan Output, 1)
	go func() { done <- l.Tick(context.Background()) }()
	select {
	case out := <-done:
		require.Equal(t, Following, out.Status)
	case <-time.After(5 * time.Second):
		t.Fatal("Tick did not return in 5 s: the tunnel width is 0 and never doubles")
	}
}
