package planners

import (
	"context"
	"testing"
)

// BenchmarkIncrementalFirstSearch runs the first (from-scratch) search of
// D* Lite, LPA* and AD* on every hundredth Moving AI scenario and reports
// expansions per second, to set against BenchmarkAStarMovingAI.
func BenchmarkIncrementalFirstSearch(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		l, scen := movingAILattice(b, name)
		ps := map[string]interface {
			planner
			Reset()
		}{"DStarLite": NewDStarLite(l), "LPAStar": NewLPAStar(l), "ADStar": NewADStar(l)}
		for _, pname := range []string{"DStarLite", "LPAStar", "ADStar"} {
			p := ps[pname]
			b.Run(name+"/"+pname, func(b *testing.B) {
				var path []NodeID
				expansions := 0
				b.ReportAllocs()
				for b.Loop() {
					for i := 0; i < len(scen); i += 100 {
						s := scen[i]
						p.Reset()
						r, err := p.Plan(context.Background(), l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2]), path)
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
}
