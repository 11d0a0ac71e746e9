package replanner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// requireMeshInStep fails unless the tunnel's mesh, kept in step by
// updates, has the regions of a mesh built afresh from the lattice.
func requireMeshInStep(t *testing.T, tn *tunnel, what string) {
	t.Helper()
	fresh, err := navmesh.New(latticeCells{tn.g}, tn.cfg)
	require.NoError(t, err)
	require.Equal(t, meshBoxes(fresh), meshBoxes(tn.mesh), "%s: the mesh kept in step differs from one built afresh", what)
}

// meshBoxes lists a mesh's regions, sorted.
func meshBoxes(m *navmesh.Mesh) []voxel.Box {
	var boxes []voxel.Box
	m.ForEach(func(_ planners.NodeID, r navmesh.Region) bool {
		boxes = append(boxes, r.Cells)
		return true
	})
	slices.SortFunc(boxes, func(a, b voxel.Box) int {
		return cmp.Or(cmp.Compare(a.Min.Z, b.Min.Z), cmp.Compare(a.Min.Y, b.Min.Y), cmp.Compare(a.Min.X, b.Min.X))
	})
	return boxes
}

// TestTunnelNarrow: a tunnel far narrower than a cell rarely holds a
// path; the search widens it until one does, and the paths stay legal.
func TestTunnelNarrow(t *testing.T) {
	for _, mk := range worlds {
		w := mk(t)
		t.Run(w.name, func(t *testing.T) {
			l := newLoop(t, w, Config{Strategy: Tunnel, TunnelWidth: 0.001})
			require.NoError(t, l.SetPose(w.start))
			require.NoError(t, l.SetGoal(w.goal))
			out := l.Tick(context.Background())
			checkStatus(t, l, out, "first plan")
			require.Equal(t, Following, out.Status)
			require.True(t, math.IsInf(out.Epsilon, 1) || out.Epsilon == 1)
			st, ok := l.TunnelStats()
			require.True(t, ok)
			require.Positive(t, st.Retries, "a width of 0.01 voxels held a path")
			require.Greater(t, st.Width, 0.001, "metres")
			t.Logf("%+v", st)
		})
	}
}

// TestTunnelRebuild: after enough updates the mesh holds more replaced
// regions than live ones and is built afresh; it still equals a fresh
// mesh, and the loop still plans.
func TestTunnelRebuild(t *testing.T) {
	w := aerialWorld(t)
	l := newLoop(t, w, Config{Strategy: Tunnel})
	require.NoError(t, l.SetPose(w.start))
	require.NoError(t, l.SetGoal(w.goal))
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; ; i++ {
		st, _ := l.TunnelStats()
		if st.Rebuilds > 0 {
			t.Logf("rebuilt after %d boxes: %+v", i, st)
			break
		}
		require.Less(t, i, 20000, "never rebuilt")
		p := randomFree(t, rng, l)
		putBox(t, l, fmt.Sprint("b", i%3), p, vec(0.3, 0.3, 0.3))
	}
	requireMeshInStep(t, l.tunnel, "after a rebuild")
	checkStatus(t, l, settle(t, l), "after a rebuild")
}
