package corridor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInCorridorHandCases(t *testing.T) {
	two := []Box{box2(0, 0, 2, 2), box2(2, 0, 4, 2)}
	diagonal := []Box{box2(0, 0, 2, 2), box2(2, 2, 4, 4)}
	gap := []Box{box2(0, 0, 2, 2), box2(3, 0, 5, 2)}
	flat := []Box{{Min: Point{0, 0, 0}, Max: Point{2, 2, 0}}}
	for _, c := range []struct {
		name  string
		a, b  Point
		boxes []Box
		want  bool
	}{
		{"across a shared face", Point{1, 1, 0.5}, Point{3, 1, 0.5}, two, true},
		{"along the outer wall", Point{0, 0, 0}, Point{4, 0, 1}, two, true},
		{"overshoots the end by 1e-7", Point{0.5, 0.5, 0.5}, Point{4 + 1e-7, 0.5, 0.5}, two, false},
		{"overshoots the end by 1e-12, within tolerance", Point{0.5, 0.5, 0.5}, Point{4 + 1e-12, 0.5, 0.5}, two, true},
		{"just outside the wall", Point{0, -1e-6, 0}, Point{4, -1e-6, 0}, two, false},
		{"through a touching corner", Point{1, 1, 0}, Point{3, 3, 0}, diagonal, true},
		// The reals pass exactly through the corner (1, 1.2); in float64
		// the two slabs put it 6e-17 apart in parameter space.
		{"through a touching corner, rounded", Point{0.2, 0.4, 0}, Point{1.8, 2, 0},
			[]Box{box2(0, 0, 1, 1.2), box2(1, 1.2, 5, 5)}, true},
		{"past a touching corner", Point{1, 1.5, 0}, Point{3, 3, 0}, diagonal, false},
		{"across a gap", Point{1, 1, 0}, Point{4, 1, 0}, gap, false},
		{"point inside", Point{2, 2, 1}, Point{2, 2, 1}, two, true},
		{"point outside", Point{2, 3, 1}, Point{2, 3, 1}, two, false},
		{"in a flat box", Point{0, 0, 0}, Point{2, 1, 0}, flat, true},
		{"off a flat box", Point{0, 0, 0}, Point{2, 1, 1e-12}, flat, false},
		{"no boxes", Point{}, Point{}, nil, false},
		{"boxes listed backwards", Point{0.5, 0.5, 0.5}, Point{11.5, 0.5, 0.5}, backwards(12), true},
	} {
		require.Equal(t, c.want, InCorridor(c.a, c.b, c.boxes), c.name)
		require.Equal(t, c.want, InCorridor(c.b, c.a, c.boxes), c.name+", reversed")
	}
}

// TestInRoute: inRoute passes from region to region only through a
// portal (consecutive regions, whatever the portal's shape) or a shared
// face, where InCorridor takes any touching.
func TestInRoute(t *testing.T) {
	a, b := box2(0, 0, 2, 2), box2(2, 2, 4, 4) // corner to corner
	side := box2(2, 0, 4, 2)                   // shares a face with both
	far := box2(10, 10, 11, 11)                // touches neither
	for _, c := range []struct {
		name    string
		regions []Box
		want    bool
	}{
		{"consecutive through a corner portal", []Box{a, b}, true},
		{"not consecutive, touching at a corner", []Box{a, far, b}, false},
		{"bridged by a region sharing a face with both", []Box{a, far, b, side}, true},
		{"bridge listed first", []Box{side, a, far, b}, true},
	} {
		for _, r := range [][2]Point{{{1, 1, 0.5}, {3, 3, 0.5}}, {{3, 3, 0.5}, {1, 1, 0.5}}} {
			require.True(t, InCorridor(r[0], r[1], c.regions), c.name)
			require.Equal(t, c.want, inRoute(r[0], r[1], c.regions, 3), "%s, %v → %v", c.name, r[0], r[1])
		}
	}
	require.True(t, inRoute(Point{1, 1, 0.5}, Point{3, 1, 0.5}, []Box{a, far, side}, 3), "through a shared face")
	require.True(t, inRoute(Point{1, 1, 0.5}, Point{1, 1, 0.5}, []Box{a}, 3), "a point")
	require.False(t, inRoute(Point{1, 1, 0.5}, Point{5, 1, 0.5}, []Box{a, side}, 3), "past the end")
}

// backwards returns n unit boxes in a row along x, listed last first, the
// worst order for InCorridor's sweep.
func backwards(n int) []Box {
	out := make([]Box, n)
	for i := range out {
		x := float64(n - 1 - i)
		out[i] = box2(x, 0, x+1, 1)
	}
	return out
}

// sampledIn reports whether every one of 20001 evenly spaced points of
// a→b lies in some box (within 1e-9).
func sampledIn(a, b Point, boxes []Box) bool {
	const n = 20000
	for i := range n + 1 {
		t := float64(i) / n
		p := Point{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1]), a[2] + t*(b[2]-a[2])}
		if !inSome(p, boxes) {
			return false
		}
	}
	return true
}

// inSome reports whether p lies within 1e-9 of one of the boxes.
func inSome(p Point, boxes []Box) bool {
	for _, b := range boxes {
		in := true
		for i := range 3 {
			in = in && p[i] >= b.Min[i]-1e-9 && p[i] <= b.Max[i]+1e-9
		}
		if in {
			return true
		}
	}
	return false
}

// quarter returns a random point of b on the quarter-cell lattice.
func quarter(rng *rand.Rand, b Box) Point {
	var p Point
	for i := range 3 {
		steps := int(4 * (b.Max[i] - b.Min[i]))
		p[i] = b.Min[i] + float64(rng.IntN(steps+1))/4
	}
	return p
}

// TestInCorridorMatchesSampler compares InCorridor with dense sampling on
// random integer boxes and quarter-lattice segments. On that lattice a
// segment that leaves the union does so for far more than the sampling
// step, so the two must agree.
func TestInCorridorMatchesSampler(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	counts := [2]int{}
	for trial := range 3000 {
		flat := trial%2 == 0
		boxes := make([]Box, 1+rng.IntN(5))
		for i := range boxes {
			for ax := range 3 {
				lo := float64(rng.IntN(7))
				boxes[i].Min[ax], boxes[i].Max[ax] = lo, lo+float64(1+rng.IntN(4))
			}
			if flat {
				boxes[i].Min[2], boxes[i].Max[2] = 0, 0
			}
		}
		ends := [2]Point{}
		for k := range ends {
			host := boxes[rng.IntN(len(boxes))]
			if rng.IntN(8) == 0 {
				host = Box{Max: Point{10, 10, 10}}
			}
			ends[k] = quarter(rng, host)
			if flat {
				ends[k][2] = 0
			}
		}
		got := InCorridor(ends[0], ends[1], boxes)
		require.Equal(t, sampledIn(ends[0], ends[1], boxes), got,
			"trial %d: %v→%v in %v", trial, ends[0], ends[1], boxes)
		counts[boolIndex(got)]++
	}
	require.Greater(t, counts[0], 300, "too few segments outside")
	require.Greater(t, counts[1], 300, "too few segments inside")
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestLength(t *testing.T) {
	require.Zero(t, Length(nil))
	require.Zero(t, Length([]Point{{1, 2, 3}}))
	require.InDelta(t, 5+math.Sqrt(3), Length([]Point{{0, 0, 0}, {3, 4, 0}, {4, 5, 1}}), 1e-12)
}
