package corridor

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// longSleeve returns a random simple corridor of 201 regions (200
// portals) and a start and goal at its ends.
func longSleeve(tb testing.TB, dims int) (start, goal Point, regions, portals []Box) {
	rng := rand.New(rand.NewPCG(42, uint64(dims)))
	for range 100 {
		regions, portals = sleeve(rng, sleeveSpec{n: 201, dims: dims, forward: true})
		if len(portals) == 200 {
			start := randomIn(rng, regions[0], dims == 2)
			goal := randomIn(rng, regions[200], dims == 2)
			return start, goal, regions, portals
		}
	}
	tb.Fatal("no 200-portal sleeve")
	return
}

func TestNoAllocationsWithReusedDst(t *testing.T) {
	start, goal, regions, portals := longSleeve(t, 2)
	dst := make([]Point, 0, len(portals)+2)
	allocs := testing.AllocsPerRun(20, func() { dst = Funnel(start, goal, regions, portals, dst) })
	require.Zero(t, allocs, "Funnel")

	start, goal, regions, portals = longSleeve(t, 3)
	allocs = testing.AllocsPerRun(20, func() { dst = Shortcut(start, goal, regions, portals, dst) })
	require.Zero(t, allocs, "Shortcut")
}

func BenchmarkFunnel(b *testing.B) {
	start, goal, regions, portals := longSleeve(b, 2)
	dst := Funnel(start, goal, regions, portals, nil)
	b.ReportAllocs()
	for b.Loop() {
		dst = Funnel(start, goal, regions, portals, dst)
	}
	b.ReportMetric(float64(len(dst)-2), "corners")
	b.ReportMetric(float64(len(portals))*float64(b.N)/b.Elapsed().Seconds(), "portals/s")
}

func BenchmarkShortcut(b *testing.B) {
	start, goal, regions, portals := longSleeve(b, 3)
	dst := Shortcut(start, goal, regions, portals, nil)
	b.ReportAllocs()
	for b.Loop() {
		dst = Shortcut(start, goal, regions, portals, dst)
	}
	b.ReportMetric(float64(len(dst)-2), "corners")
	b.ReportMetric(float64(len(portals))*float64(b.N)/b.Elapsed().Seconds(), "portals/s")
}
