package sim

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
)

// Review (rev2): ray casts through the cells of maps.

// TestReviewRayThroughGridCorner: two wall cells of a map_server map that
// touch at a corner (a diagonal wall one pixel thick, as map images draw
// them) leave no gap; a beam through that corner must stop there, as it
// does against two boxes touching at a corner. The DDA steps diagonally
// past both cells, so the beam goes through the wall.
func TestReviewRayThroughGridCorner(t *testing.T) {
	g := &voxel.Grid{Width: 4, Height: 4, Resolution: 1, Cells: make([]int8, 16)}
	g.Cells[1+0*4] = 100 // (1, 0)
	g.Cells[0+1*4] = 100 // (0, 1)
	w, err := newWorld(&World{Bounds: Bounds{Max: r3.Vector{X: 4, Y: 4, Z: 2}}, Grid: g, WallHeight: 2}, nil)
	require.NoError(t, err)
	o, d := r3.Vector{X: 0.5, Y: 0.5, Z: 1}, r3.Vector{X: 1, Y: 1}
	got, hit := w.Raycast(o, d, 10)
	require.True(t, hit, "the beam from cell (0, 0) through the corner the walls (1, 0) and (0, 1) share passes through the wall")
	require.InDelta(t, math.Sqrt2/2, got, 1e-9)

	// The same two cells as boxes stop the beam at the corner.
	b := &World{Bounds: w.Bounds}
	require.NoError(t, b.Put("a", Shape{Kind: KindBox, Center: r3.Vector{X: 1.5, Y: 0.5, Z: 1}, Size: r3.Vector{X: 1, Y: 1, Z: 2}}))
	require.NoError(t, b.Put("b", Shape{Kind: KindBox, Center: r3.Vector{X: 0.5, Y: 1.5, Z: 1}, Size: r3.Vector{X: 1, Y: 1, Z: 2}}))
	got, hit = b.Raycast(o, d, 10)
	require.True(t, hit)
	require.InDelta(t, math.Sqrt2/2, got, 1e-9)
}

// TestReviewRayThroughVoxelEdge: the same through a Moving AI map: voxels
// (1, 0, 0) and (0, 1, 0) share an edge; a beam in the plane z = 0.5 from
// voxel (0, 0, 0) through that edge must stop at it.
func TestReviewRayThroughVoxelEdge(t *testing.T) {
	vox := &voxel.StaticVoxels{Box: voxel.Box{Max: voxel.Key{X: 3, Y: 3, Z: 0}},
		Blocked: []voxel.Key{{X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}}}
	w, err := newWorld(&World{Bounds: Bounds{Max: r3.Vector{X: 4, Y: 4, Z: 1}}, Resolution: 1}, vox)
	require.NoError(t, err)
	got, hit := w.Raycast(r3.Vector{X: 0.5, Y: 0.5, Z: 0.5}, r3.Vector{X: 1, Y: 1}, 10)
	require.True(t, hit, "the beam passes between voxels (1, 0, 0) and (0, 1, 0), which share an edge")
	require.InDelta(t, math.Sqrt2/2, got, 1e-9)
}

// TestReviewWorldSecondDocument: a world file holding a second YAML
// document ("---") is accepted and the second document's shapes are
// silently dropped (decodeStrict reads one document). It should be an
// error naming the file, as unknown keys are.
func TestReviewWorldSecondDocument(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.yaml")
	require.NoError(t, os.WriteFile(p, []byte("bounds: {min: [0, 0, 0], max: [10, 10, 10]}\n---\nboxes: [{center: [1, 1, 1], size: [1, 1, 1]}]\n"), 0o644))
	w, err := LoadWorld(p)
	if err == nil {
		require.Failf(t, "accepted", "the world has %d static shapes: the box of the second document is gone", len(w.Static))
	}
	require.ErrorIs(t, err, ErrWorld)
}

// TestBuiltinWorldWithoutSharedData: started outside a checkout without
// NAVNODE_SHARED (ros2 launch from an installed package), a built-in
// world's error says how to point navsim at the data (a review found
// "no go.mod above /tmp" alone, 2026-11-22).
func TestBuiltinWorldWithoutSharedData(t *testing.T) {
	t.Setenv("NAVNODE_SHARED", "")
	t.Chdir(t.TempDir())
	_, err := ResolveWorld("depot", ".")
	require.ErrorIs(t, err, ErrWorld)
	require.ErrorContains(t, err, "set NAVNODE_SHARED")
}
