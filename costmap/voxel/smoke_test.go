package voxel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSmoke(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, Robot: Robot{Radius: 0.2, InflationRadius: 0.5}})
	k := Key{5, 5, 5}
	require.Equal(t, Unknown, m.Cost(k))
	cs, err := m.Apply(PutShape{ID: "a", Solid: &SphereShape{Center: vec(0.55, 0.55, 0.55), Radius: 0.05}})
	require.NoError(t, err)
	require.Equal(t, Lethal, m.Cost(k))
	require.Equal(t, Inscribed, m.Cost(Key{6, 5, 5}))
	t.Logf("changes: %d rose %d fell, bounds %v", len(cs.Rose), len(cs.Fell), cs.Bounds)
	box := Box{Min: Key{-2, -2, -2}, Max: Key{12, 12, 12}}
	requireCostsEqual(t, box, bruteCosts(m, box), snapshot(m, box), "after add")
	cs, err = m.Apply(DeleteShape{ID: "a"})
	require.NoError(t, err)
	require.Equal(t, Unknown, m.Cost(k))
	require.Empty(t, m.bricks)
	t.Logf("changes: %d rose %d fell", len(cs.Rose), len(cs.Fell))
}
