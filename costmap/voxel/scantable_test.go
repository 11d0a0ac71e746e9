package voxel

import (
	"math"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// TestScanAfterDrop drops every brick of a scan (the window moves away)
// and applies the scan again, from the same place: the scan table's
// cells, kept from scan to scan, must not hand out the dropped bricks.
// The map and the change set must be a fresh map's.
func TestScanAfterDrop(t *testing.T) {
	cfg := Config{Resolution: 0.1, Window: vec(5, 5, 2)}
	var pts []r3.Vector
	for a := range 360 {
		s, c := math.Sincos(float64(a) * math.Pi / 180)
		pts = append(pts, vec(3*c, 3*s, 0.5), vec(1.5*c, 1.5*s, -0.3))
	}
	cloud := func() *Cloud { return &Cloud{Origin: vec(0.05, 0.05, 0.2), Points: pts, MaxRange: 10} }

	m := newMap(t, cfg)
	_, err := m.Apply(cloud())
	require.NoError(t, err)
	_, err = m.Apply(MoveWindow{Center: vec(100, 100, 0)})
	require.NoError(t, err)
	require.Zero(t, m.Stats().Bricks, "bricks left after the window moved away")
	got, err := m.Apply(cloud())
	require.NoError(t, err)

	fresh := newMap(t, cfg)
	want, err := fresh.Apply(cloud())
	require.NoError(t, err)
	requireSameChanges(t, want, got, "scan after drop")
	requireSameMaps(t, fresh, m, "scan after drop")
}
