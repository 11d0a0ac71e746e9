package planners

import (
	"context"
	"runtime"
	"testing"
	"time"
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

// BenchmarkDPAStarMovingAI plans every hundredth scenario of Simple and
// Complex with DPA* (no old path: its plain A*, on flat per-node state
// through the Graph interface) and with A* (its lattice fast path, on
// brick pages), interleaved in each iteration so that machine noise hits
// both alike. It reports each one's ns per expansion and their ratio
// dpa/astar.
func BenchmarkDPAStarMovingAI(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		b.Run(name, func(b *testing.B) {
			l, scen := movingAILattice(b, name)
			d, a := NewDPAStar(l), NewAStar(l)
			type part struct {
				plan       func(context.Context, NodeID, NodeID, []NodeID) (Result, error)
				took       time.Duration
				expansions int
			}
			parts := []*part{{plan: d.Plan}, {plan: a.Plan}}
			var path []NodeID
			pass := func(p *part) {
				began := time.Now()
				for i := 0; i < len(scen); i += 100 {
					s := scen[i]
					r, err := p.plan(context.Background(), l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2]), path)
					if err != nil {
						b.Fatal(err)
					}
					path = r.Path
					p.expansions += r.Stats.Expansions
				}
				p.took += time.Since(began)
			}
			for _, p := range parts { // warm up: state allocated, pages touched
				pass(p)
				p.took, p.expansions = 0, 0
			}
			for b.Loop() {
				for _, p := range parts {
					pass(p)
				}
			}
			ns := func(p *part) float64 { return float64(p.took.Nanoseconds()) / float64(p.expansions) }
			b.ReportMetric(ns(parts[0]), "dpa-ns/exp")
			b.ReportMetric(ns(parts[1]), "astar-ns/exp")
			b.ReportMetric(ns(parts[0])/ns(parts[1]), "dpa/astar")
		})
	}
}
