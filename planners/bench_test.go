package planners

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkAStarMovingAI runs A* on a sample of each map's scenarios:
// every hundredth of Simple and Complex, every 500th of the 62–67 M-voxel
// DA1 and BC1. It reports expansions per second (target ≥ 3 M/s on the
// voxel maps) and, after the run, the search state's size and the heap
// in use (map included) in MB: A* keeps its pages between queries, so the
// end is its peak. One untimed pass first warms the planner up, so
// allocs/op is what a steady stream of queries allocates: 0.
func BenchmarkAStarMovingAI(b *testing.B) {
	for _, c := range []struct {
		name   string
		stride int
	}{{"Simple", 100}, {"Complex", 100}, {"DA1", 500}, {"BC1", 500}} {
		b.Run(c.name, func(b *testing.B) {
			l, scen := movingAILattice(b, c.name)
			benchmarkAStar(b, NewAStar(l), l, scen, c.stride)
		})
	}
}

// BenchmarkAStarGraph is BenchmarkAStarMovingAI on Simple and Complex
// through the Graph interface, without the lattice fast path: what A*
// does on other graphs, with flat per-node state.
func BenchmarkAStarGraph(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		b.Run(name, func(b *testing.B) {
			l, scen := movingAILattice(b, name)
			benchmarkAStar(b, NewAStar(graphOnly{l}), l, scen, 100)
		})
	}
}

func benchmarkAStar(b *testing.B, a *AStar, l *Lattice, scen []Scenario, stride int) {
	var path []NodeID
	expansions := 0
	pass := func() {
		for i := 0; i < len(scen); i += stride {
			s := scen[i]
			r, err := a.Plan(context.Background(), l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2]), path)
			if err != nil {
				b.Fatal(err)
			}
			path = r.Path
			expansions += r.Stats.Expansions
		}
	}
	pass()
	expansions = 0
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
	b.ReportMetric(float64(expansions)/b.Elapsed().Seconds(), "expansions/s")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(stateBytes(a))/1e6, "state-MB")
	b.ReportMetric(float64(ms.HeapInuse)/1e6, "heap-MB")
}
