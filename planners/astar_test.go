package planners

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/shareddata"
)

// movingAILattice loads a Moving AI map as a lattice.
func movingAILattice(t testing.TB, name string) (*Lattice, []Scenario) {
	dir := shareddata.Path(t, "data", "movingai-voxel")
	s, err := voxel.LoadMovingAI(filepath.Join(dir, name+".3dmap"))
	require.NoError(t, err)
	l, err := NewLattice(int(s.Box.Max.X+1), int(s.Box.Max.Y+1), int(s.Box.Max.Z+1), false)
	require.NoError(t, err)
	for _, k := range s.Blocked {
		l.SetBlocked(l.ID(k.X, k.Y, k.Z), true)
	}
	f, err := os.Open(filepath.Join(dir, name+".3dmap.3dscen"))
	require.NoError(t, err)
	defer f.Close()
	scen, err := ReadScenarios(f)
	require.NoError(t, err)
	require.Len(t, scen, 10000)
	return l, scen
}

// pathCost checks that every step of path is an edge of g (a legal
// lattice move) and returns the sum of their costs.
func pathCost(t *testing.T, g Graph, path []NodeID) float64 {
	t.Helper()
	cum := prefixCosts(t, g, path)
	return cum[len(cum)-1]
}

// prefixCosts returns the cost of path[:i+1] for each i, failing the test
// at a step that is not an edge of g.
func prefixCosts(t *testing.T, g Graph, path []NodeID) []float64 {
	t.Helper()
	cum := make([]float64, len(path))
	var edges []Edge
	for i := 1; i < len(path); i++ {
		edges = g.Successors(path[i-1], edges[:0])
		found := false
		for _, e := range edges {
			if e.To == path[i] {
				cum[i] = cum[i-1] + e.Cost
				found = true
				break
			}
		}
		require.True(t, found, "step %d of the path, %d → %d, is not a legal move", i, path[i-1], path[i])
	}
	return cum
}

// TestAStarMovingAI: A* reproduces the benchmark's optimal costs on 1,000
// scenarios of each map it runs (every tenth), and weighted A* stays
// within its bound.
func TestAStarMovingAI(t *testing.T) {
	for _, name := range []string{"Simple", "Complex"} {
		t.Run(name, func(t *testing.T) {
			l, scen := movingAILattice(t, name)
			a := NewAStar(l)
			wa := NewAStar(l)
			wa.Weight = 1.5
			var path []NodeID
			for i := 0; i < len(scen); i += movingAIStride() {
				s := scen[i]
				start, goal := l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2])
				r, err := a.Plan(context.Background(), start, goal, path)
				require.NoError(t, err, "scenario %d", i)
				require.InDelta(t, s.Optimal, r.Cost, 1e-4, "scenario %d: %+v", i, s)
				if i%50 == 0 {
					require.InDelta(t, r.Cost, pathCost(t, l, r.Path), 1e-9)
					require.Equal(t, start, r.Path[0])
					require.Equal(t, goal, r.Path[len(r.Path)-1])
					w, err := wa.Plan(context.Background(), start, goal, nil)
					require.NoError(t, err)
					require.LessOrEqual(t, w.Cost, 1.5*s.Optimal+1e-9)
					require.GreaterOrEqual(t, w.Cost, s.Optimal-1e-4) // the file rounds to 8 decimals
					require.InDelta(t, w.Cost, pathCost(t, l, w.Path), 1e-9)
				}
				path = r.Path
			}
		})
	}
}

// clutteredLattice returns a w×h×d lattice whose cells rng blocks with
// probability density, except the cells open.
func clutteredLattice(t testing.TB, rng *rand.Rand, w, h, d int, planar bool, density float64, open ...[3]int32) *Lattice {
	t.Helper()
	l, err := NewLattice(w, h, d, planar)
	require.NoError(t, err)
	for n := range NodeID(l.NumNodes()) {
		l.SetBlocked(n, rng.Float64() < density)
	}
	for _, c := range open {
		l.SetBlocked(l.ID(c[0], c[1], c[2]), false)
	}
	return l
}

// dijkstra is a plain O(V²) reference on small graphs.
func dijkstra(g Graph, start, goal NodeID) float64 {
	n := g.NumNodes()
	dist := make([]float64, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[start] = 0
	var edges []Edge
	for {
		u := None
		for v := range n {
			if !done[v] && !math.IsInf(dist[v], 1) && (u == None || dist[v] < dist[u]) {
				u = NodeID(v)
			}
		}
		if u == None {
			return math.Inf(1)
		}
		if u == goal {
			return dist[u]
		}
		done[u] = true
		edges = g.Successors(u, edges[:0])
		for _, e := range edges {
			dist[e.To] = min(dist[e.To], dist[u]+e.Cost)
		}
	}
}

// TestAStarRandom compares A* with Dijkstra on random small lattices, 2D
// and 3D, with and without weights.
func TestAStarRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		planar := i%2 == 0
		d := 1 + rng.IntN(6)
		if planar {
			d = 1
		}
		l, err := NewLattice(3+rng.IntN(10), 3+rng.IntN(10), d, planar)
		require.NoError(t, err)
		density := rng.Float64() * 0.4
		for n := range NodeID(l.NumNodes()) {
			l.SetBlocked(n, rng.Float64() < density)
			if i%3 == 0 {
				l.SetWeight(n, 1+rng.Float32()*3)
			}
		}
		start, goal := NodeID(rng.IntN(l.NumNodes())), NodeID(rng.IntN(l.NumNodes()))
		l.SetBlocked(start, false)
		l.SetBlocked(goal, false)
		want := dijkstra(l, start, goal)
		r, err := NewAStar(l).Plan(context.Background(), start, goal, nil)
		if math.IsInf(want, 1) {
			require.ErrorIs(t, err, ErrNoPath, "case %d", i)
			continue
		}
		require.NoError(t, err, "case %d", i)
		require.InDelta(t, want, r.Cost, 1e-9, "case %d", i)
		require.InDelta(t, want, pathCost(t, l, r.Path), 1e-9)
	}
}

func TestAStarEdgeCases(t *testing.T) {
	l, err := NewLattice(5, 5, 1, true)
	require.NoError(t, err)
	a := NewAStar(l)
	ctx := context.Background()

	r, err := a.Plan(ctx, 7, 7, nil)
	require.NoError(t, err)
	require.Equal(t, []NodeID{7}, r.Path)
	require.Zero(t, r.Cost)

	l.SetBlocked(3, true)
	_, err = a.Plan(ctx, 3, 7, nil)
	require.ErrorIs(t, err, ErrStartBlocked)
	_, err = a.Plan(ctx, 7, 3, nil)
	require.ErrorIs(t, err, ErrGoalBlocked)
	_, err = a.Plan(ctx, -1, 3, nil)
	require.ErrorIs(t, err, ErrNodeRange)
	_, err = a.Plan(ctx, 0, 25, nil)
	require.ErrorIs(t, err, ErrNodeRange)

	// A wall across x = 2 cuts the goal off: no path, after expanding
	// only the start's side.
	for y := range int32(5) {
		l.SetBlocked(l.ID(2, y, 0), true)
	}
	r, err = a.Plan(ctx, l.ID(0, 0, 0), l.ID(4, 4, 0), nil)
	require.ErrorIs(t, err, ErrNoPath)
	require.Equal(t, 10, r.Stats.Expansions)

	_, err = NewLattice(0, 1, 1, false)
	require.Error(t, err)
	_, err = NewLattice(1<<16, 1<<16, 1<<16, false)
	require.Error(t, err)

	a.Weight = 0.5
	_, err = a.Plan(ctx, 0, 1, nil)
	require.Error(t, err)
}

// TestAStarDeadline: a context that ends at its second check stops the
// search after one check interval and returns a partial path from the
// start.
func TestAStarDeadline(t *testing.T) {
	l, err := NewLattice(200, 200, 1, true)
	require.NoError(t, err)
	for y := range int32(199) { // a wall the search must flood around
		l.SetBlocked(l.ID(100, y, 0), true)
	}
	r, err := NewAStar(l).Plan(&stopAfter{Context: context.Background(), n: 2}, l.ID(0, 0, 0), l.ID(199, 0, 0), nil)
	require.ErrorIs(t, err, ErrTimeout)
	require.True(t, r.Stats.Partial)
	require.Equal(t, checkEvery, r.Stats.Expansions)
	require.Equal(t, l.ID(0, 0, 0), r.Path[0])
	require.Less(t, l.Heuristic(r.Path[len(r.Path)-1], l.ID(199, 0, 0)), l.Heuristic(l.ID(0, 0, 0), l.ID(199, 0, 0)))

	// The first check comes before anything is expanded: an ended
	// context stops the search there, with the start as its path.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = NewAStar(l).Plan(ctx, l.ID(0, 0, 0), l.ID(199, 0, 0), nil)
	require.ErrorIs(t, err, ErrTimeout)
	require.Zero(t, r.Stats.Expansions)
	require.Equal(t, []NodeID{l.ID(0, 0, 0)}, r.Path)
}

func TestReadScenariosErrors(t *testing.T) {
	for _, text := range []string{"version 2\n", "version 1\nm\n1 2 3\n", "version 1\nm\na b c d e f g h\n"} {
		_, err := ReadScenarios(strings.NewReader(text))
		require.Error(t, err)
	}
}

// requirePlanned checks a path A* found from start to goal on g with
// weight (0: 1): its ends, its cost the sum of its edges, and that cost
// optimal (weight 0) or within weight of optimal.
func requirePlanned(t *testing.T, g Graph, start, goal NodeID, got Result, err error, optimal, weight float64, what ...any) {
	t.Helper()
	require.NoError(t, err, what...)
	require.Equal(t, start, got.Path[0], what...)
	require.Equal(t, goal, got.Path[len(got.Path)-1], what...)
	require.InDelta(t, got.Cost, pathCost(t, g, got.Path), 1e-9*max(1, got.Cost), what...)
	if weight == 0 {
		require.InDelta(t, optimal, got.Cost, 1e-9*max(1, optimal), what...)
	} else {
		require.LessOrEqual(t, got.Cost, weight*optimal*(1+1e-9), what...)
	}
}
