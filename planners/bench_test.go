package planners

import (
	"context"
	"testing"
)

// BenchmarkAStarMovingAI runs A* on every hundredth scenario of each map
// and reports expansions per second (target ≥ 3 M/s on the voxel maps).
func BenchmarkAStarMovingAI(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		b.Run(name, func(b *testing.B) {
			l, scen := movingAILattice(b, name)
			a := NewAStar(l)
			var path []NodeID
			expansions := 0
			b.ReportAllocs()
			for b.Loop() {
				for i := 0; i < len(scen); i += 100 {
					s := scen[i]
					r, err := a.Plan(context.Background(), l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2]), path)
					if err != nil {
						b.Fatal(err)
					}
					path = r.Path
					expansions += r.Stats.Expansions
				}
			}
			b.ReportMetric(float64(expansions)/b.Elapsed().Seconds(), "expansions/s")
		})
	}
}
