package planners

import (
	"context"
	"testing"
)

// BenchmarkARAStarMovingAI runs ARA* (ε 2.5 → 1 by 0.5) to an optimal
// path on every hundredth scenario of each map and reports expansions per
// second, counting every search of the schedule.
func BenchmarkARAStarMovingAI(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		b.Run(name, func(b *testing.B) {
			l, scen := movingAILattice(b, name)
			a := NewARAStar(l)
			benchmarkAnytime(b, l, scen, a.Plan)
		})
	}
}

// BenchmarkLazyThetaMovingAI runs Lazy Theta* on every hundredth scenario
// of each map and reports expansions per second (one line-of-sight check
// per expansion included).
func BenchmarkLazyThetaMovingAI(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		b.Run(name, func(b *testing.B) {
			l, scen := movingAILattice(b, name)
			th := NewLazyTheta(l)
			benchmarkAnytime(b, l, scen, th.Plan)
		})
	}
}

// benchmarkAnytime runs plan on every hundredth scenario per iteration.
func benchmarkAnytime(b *testing.B, l *Lattice, scen []Scenario, plan func(context.Context, NodeID, NodeID, []NodeID) (Result, error)) {
	var path []NodeID
	expansions := 0
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < len(scen); i += 100 {
			s := scen[i]
			r, err := plan(context.Background(), l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2]), path)
			if err != nil {
				b.Fatal(err)
			}
			path = r.Path
			expansions += r.Stats.Expansions
		}
	}
	b.ReportMetric(float64(expansions)/b.Elapsed().Seconds(), "expansions/s")
}
