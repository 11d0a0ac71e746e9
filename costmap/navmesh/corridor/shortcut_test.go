package corridor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// box3 is the box [x0, x1]×[y0, y1]×[z0, z1].
func box3(x0, y0, z0, x1, y1, z1 float64) Box {
	return Box{Min: Point{x0, y0, z0}, Max: Point{x1, y1, z1}}
}

func TestShortcutHandCases(t *testing.T) {
	straight, _ := route(box3(0, 0, 0, 4, 2, 2), box3(4, 0, 0, 8, 2, 2), box3(8, 0, 0, 9, 2, 2))
	l3, _ := route(box3(0, 0, 0, 4, 2, 1), box3(4, 0, 0, 6, 2, 1), box3(4, 2, 0, 6, 6, 1))
	shaft, _ := route(box3(0, 0, 0, 2, 2, 2), box3(0, 0, 2, 2, 2, 10), box3(0, 2, 8, 2, 4, 10))
	pinched, _ := route(box3(0, 0, 0, 2, 2, 2), box3(2, 2, 2, 4, 4, 4))
	// A ring of four regions round the cell [0, 1]×[1, 2]; the first and
	// the last touch along the edge x = y = 1 only, between two blocked
	// cells. The straight line from start to goal passes that edge.
	ring, _ := route(box3(0, 0, 0, 1, 1, 1), box3(-1, 0, 0, 0, 3, 1), box3(0, 2, 0, 2, 3, 1), box3(1, 1, 0, 2, 2, 1))
	// Three regions round one blocked cell, [0, 1]×[1, 2]: the first and
	// the last touch along an edge, and the middle one shares a face with
	// each, so the straight line through that edge grazes the blocked
	// cell and is legal.
	bend, _ := route(box3(0, 0, 0, 1, 1, 1), box3(1, 0, 0, 2, 1, 1), box3(1, 1, 0, 2, 2, 1))
	for _, c := range []funnelCase{
		{"one region", straight[:1], Point{1, 1, 1}, Point{3, 1, 0}, []Point{{1, 1, 1}, {3, 1, 0}}},
		{"start is goal", straight[:1], Point{1, 1, 1}, Point{1, 1, 1}, []Point{{1, 1, 1}, {1, 1, 1}}},
		{"straight", straight, Point{1, 1, 0.5}, Point{8.5, 0.5, 1.5}, []Point{{1, 1, 0.5}, {8.5, 0.5, 1.5}}},
		{"flat L", l3, Point{1, 1, 0.5}, Point{5, 5, 0.5}, []Point{{1, 1, 0.5}, {4, 2, 0.5}, {5, 5, 0.5}}},
		{"up a shaft", shaft, Point{1, 1, 1}, Point{1, 3, 9}, []Point{{1, 1, 1}, {1, 2, 8}, {1, 3, 9}}},
		{"corner portal", pinched, Point{1, 1, 1}, Point{3, 3, 3.5}, []Point{{1, 1, 1}, {2, 2, 2}, {3, 3, 3.5}}},
		{"round a pinch", ring, Point{0.5, 0.5, 0.5}, Point{1.5, 1.5, 0.5},
			[]Point{{0.5, 0.5, 0.5}, {0, 1, 0.5}, {0, 2, 0.5}, {1, 2, 0.5}, {1.5, 1.5, 0.5}}},
		{"round a corner", bend, Point{0.5, 0.5, 0.5}, Point{1.5, 1.5, 0.5}, []Point{{0.5, 0.5, 0.5}, {1.5, 1.5, 0.5}}},
		{"start on portal", l3, Point{4, 1, 0.5}, Point{5, 5, 0.5}, []Point{{4, 1, 0.5}, {5, 5, 0.5}}},
	} {
		regions, portals := route(c.regions...)
		got := Shortcut(c.start, c.goal, regions, portals, nil)
		require.Equal(t, c.want, got, c.name)
		requireLegal(t, got, regions, c.name)
	}
}

func TestShortcutPanicsOnBrokenRoute(t *testing.T) {
	regions, portals := route(box3(0, 0, 0, 4, 2, 2), box3(4, 0, 0, 8, 2, 2))
	require.PanicsWithValue(t, "corridor: 2 regions for 0 portals, want 1", func() {
		Shortcut(Point{}, Point{}, regions, portals[:0], nil)
	})
}

// TestShortcutProperties checks Shortcut's guarantees on random 3D
// sleeves: legal, never longer than the clamped polyline, never shorter
// than the straight line.
func TestShortcutProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var dst []Point
	gain := 0.0
	for trial := range 600 {
		spec := sleeveSpec{n: 2 + rng.IntN(20), dims: 3}
		if trial%3 == 0 {
			spec.pinch = 0.3
		}
		regions, portals := sleeve(rng, spec)
		start := randomIn(rng, regions[0], false)
		goal := randomIn(rng, regions[len(regions)-1], false)
		dst = Shortcut(start, goal, regions, portals, dst)
		poly := clampedPolyline(start, goal, portals)
		requireLegal(t, poly, regions, "polyline")
		require.Equal(t, start, dst[0])
		require.Equal(t, goal, dst[len(dst)-1])
		requireLegal(t, dst, regions, "shortcut")
		l, lp := Length(dst), Length(poly)
		require.LessOrEqual(t, l, lp*(1+1e-12), "trial %d: longer than the polyline", trial)
		require.GreaterOrEqual(t, l, dist(&start, &goal)*(1-1e-12), "trial %d", trial)
		gain += 1 - l/max(lp, 1e-300)
	}
	t.Logf("mean shortening over the clamped polyline: %.1f%%", 100*gain/600)
	require.Greater(t, gain/600, 0.01, "Shortcut should shorten the polyline")
}

// TestShortcutNearFunnelOnFlatSleeves measures Shortcut against the exact
// shortest path where one is known: a flat corridor, where Funnel's path
// is the shortest in 3D too.
func TestShortcutNearFunnelOnFlatSleeves(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	var fd, sd []Point
	worst, sum := 0.0, 0.0
	const trials = 400
	for range trials {
		regions, portals := sleeve(rng, sleeveSpec{n: 2 + rng.IntN(20), dims: 2})
		start := randomIn(rng, regions[0], true)
		goal := randomIn(rng, regions[len(regions)-1], true)
		fd = Funnel(start, goal, regions, portals, fd)
		sd = Shortcut(start, goal, regions, portals, sd)
		excess := Length(sd)/max(Length(fd), 1e-300) - 1
		require.GreaterOrEqual(t, excess, -1e-9, "Shortcut beat the shortest path")
		worst, sum = max(worst, excess), sum+excess
	}
	t.Logf("Shortcut over Funnel on flat sleeves: mean %+.1e, worst %+.1e", sum/trials, worst)
	require.Less(t, worst, 1e-3)
}

// TestRefineDropsAndSlides runs one refine pass by hand: the first corner
// is dropped (its neighbours see each other), the second slides along its
// portal to the inner corner of the L.
func TestRefineDropsAndSlides(t *testing.T) {
	regions, portals := route(box3(0, 0, 0, 4, 2, 1), box3(4, 0, 0, 6, 2, 1), box3(4, 2, 0, 6, 6, 1))
	q := []Point{{1, 1, 0.5}, {4, 0.5, 0.5}, {5, 2, 0.5}, {5, 5, 0.5}}
	require.True(t, refine(q, regions, portals))
	require.True(t, gone(q[1]), "first corner kept")
	require.Equal(t, Point{4, 2, 0.5}, q[2])
	require.False(t, refine(q, regions, portals), "a second pass has nothing to do")
	require.Equal(t, []Point{{1, 1, 0.5}, {4, 2, 0.5}, {5, 5, 0.5}}, compact(q))
}

func TestCompact(t *testing.T) {
	a, b, c := Point{0, 0, 0}, Point{1, 2, 3}, Point{4, 5, 6}
	x := Point{}
	drop(&x)
	for _, tc := range []struct {
		name     string
		in, want []Point
	}{
		{"start is goal", []Point{a, a}, []Point{a, a}},
		{"dropped points", []Point{a, x, b, x, x, c}, []Point{a, b, c}},
		{"repeats", []Point{a, a, b, x, b, c}, []Point{a, b, c}},
		{"repeat of the goal", []Point{a, b, c, c}, []Point{a, b, c}},
		{"all dropped", []Point{a, x, x, c}, []Point{a, c}},
	} {
		require.Equal(t, tc.want, compact(slices.Clone(tc.in)), tc.name)
	}
}
