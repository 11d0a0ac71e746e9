package sim

import (
	"testing"

	"github.com/golang/geo/r3"
)

// BenchmarkLidar casts a 64-beam LiDAR (64 × 360 rays, 12 m) in the city
// world and in the depot map, and reports rays per second.
func BenchmarkLidar(b *testing.B) {
	for _, c := range []struct {
		name, world string
		at          r3.Vector
	}{{"city", "../worlds/city.yaml", r3.Vector{X: 1.5, Y: 10, Z: 1.5}}, {"depot", "depot", r3.Vector{X: 4, Y: 9.2, Z: 0.2}}} {
		b.Run(c.name, func(b *testing.B) {
			w, err := ResolveWorld(c.world, ".")
			if err != nil {
				b.Fatal(err)
			}
			l := &Lidar{Beams: 64, VerticalFOV: 30, Samples: 360, Range: 12, Rate: 10, NoReturn: NoReturnClear}
			var pts []r3.Vector
			b.ReportAllocs()
			for b.Loop() {
				pts = l.Scan(w, c.at, 0.3, pts)
			}
			b.ReportMetric(float64(b.N*len(pts))/b.Elapsed().Seconds(), "rays/s")
		})
	}
}
