package planners

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// graphPlanners are every planner that searches a plain Graph.
func graphPlanners(g Graph) map[string]planner {
	ps := map[string]planner{"AStar": NewAStar(g), "ARAStar": NewARAStar(g)}
	for name, p := range incrementalPlanners(g) {
		ps[name] = p
	}
	return ps
}

// emptyGraph has no nodes.
type emptyGraph struct{}

func (emptyGraph) NumNodes() int                            { return 0 }
func (emptyGraph) Successors(n NodeID, dst []Edge) []Edge   { return dst }
func (emptyGraph) Predecessors(n NodeID, dst []Edge) []Edge { return dst }
func (emptyGraph) Heuristic(a, b NodeID) float64            { return 0 }
func (emptyGraph) Passable(n NodeID) bool                   { return false }

// TestEmptyGraph: on a graph without nodes every query is out of range.
func TestEmptyGraph(t *testing.T) {
	for name, p := range graphPlanners(emptyGraph{}) {
		_, err := p.Plan(context.Background(), 0, 0, nil)
		require.ErrorIs(t, err, ErrNodeRange, name)
		if u, ok := p.(incremental); ok {
			require.ErrorIs(t, u.Update([]NodeID{0}), ErrNodeRange, name)
		}
	}
}

// maskedLattice is a lattice seen through a wrapper that removes some
// cells, as a tunnel or a keep-out zone would: it embeds *Lattice, so it
// has all its methods, but its own edges.
type maskedLattice struct {
	*Lattice
	masked map[NodeID]bool
}

func (m maskedLattice) Passable(n NodeID) bool { return !m.masked[n] && m.Lattice.Passable(n) }

func (m maskedLattice) Successors(n NodeID, dst []Edge) []Edge {
	if m.masked[n] {
		return dst
	}
	out := m.Lattice.Successors(n, dst)
	k := len(dst)
	for _, e := range out[len(dst):] {
		if !m.masked[e.To] {
			out[k] = e
			k++
		}
	}
	return out[:k]
}

func (m maskedLattice) Predecessors(n NodeID, dst []Edge) []Edge { return m.Successors(n, dst) }

// TestWrappedLattice: a graph embedding a Lattice is searched through its
// own methods, not the lattice's fast path: no planner walks through a
// masked cell.
func TestWrappedLattice(t *testing.T) {
	l, err := NewLattice(5, 1, 1, true)
	require.NoError(t, err)
	g := maskedLattice{Lattice: l, masked: map[NodeID]bool{2: true}}
	for name, p := range graphPlanners(g) {
		_, err := p.Plan(context.Background(), 0, 4, nil)
		require.ErrorIs(t, err, ErrNoPath, name)
	}
	// A wider corridor: the way around the masked cell costs 2√2 + 2.
	l, err = NewLattice(5, 2, 1, true)
	require.NoError(t, err)
	g = maskedLattice{Lattice: l, masked: map[NodeID]bool{2: true}}
	for name, p := range graphPlanners(g) {
		r, err := p.Plan(context.Background(), 0, 4, nil)
		require.NoError(t, err, name)
		require.NotContains(t, r.Path, NodeID(2), name)
		require.InDelta(t, 2+2*1.4142135623730951, r.Cost, 1e-9, name)
	}
}
