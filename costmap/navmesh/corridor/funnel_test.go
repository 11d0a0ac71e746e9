package corridor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// funnelCase is a hand-made route and the exact path Funnel must return.
type funnelCase struct {
	name        string
	regions     []Box
	start, goal Point
	want        []Point
}

func funnelCases() []funnelCase {
	straight, _ := route(box2(0, 0, 4, 2), box2(4, 0, 8, 2))
	l2, _ := route(box2(0, 0, 4, 2), box2(2, 2, 4, 6))
	l3, _ := route(box2(0, 0, 4, 2), box2(4, 0, 6, 2), box2(4, 2, 6, 6))
	zigzag, _ := route(box2(0, 0, 2, 2), box2(2, 0, 3, 8), box2(3, 6, 5, 8),
		box2(5, 0, 6, 8), box2(6, 0, 8, 2))
	pinched, _ := route(box2(0, 0, 2, 2), box2(2, 2, 4, 4))
	return []funnelCase{
		{"one region", straight[:1], Point{1, 1, 0}, Point{3, 1, 0}, []Point{{1, 1, 0}, {3, 1, 0}}},
		{"start is goal", straight[:1], Point{1, 1, 0}, Point{1, 1, 0}, []Point{{1, 1, 0}, {1, 1, 0}}},
		{"straight", straight, Point{1, 1, 0}, Point{7, 1.5, 0}, []Point{{1, 1, 0}, {7, 1.5, 0}}},
		{"straight along a wall", straight, Point{0, 0, 0}, Point{8, 0, 0}, []Point{{0, 0, 0}, {8, 0, 0}}},
		{"L of two", l2, Point{0.5, 1, 0}, Point{3, 5, 0}, []Point{{0.5, 1, 0}, {2, 2, 0}, {3, 5, 0}}},
		{"L of three", l3, Point{1, 1, 0}, Point{5, 5, 0}, []Point{{1, 1, 0}, {4, 2, 0}, {5, 5, 0}}},
		{"L, start on portal", l3, Point{4, 1, 0}, Point{5, 5, 0}, []Point{{4, 1, 0}, {5, 5, 0}}},
		{"L, start at the corner", l3, Point{4, 2, 0}, Point{5, 5, 0}, []Point{{4, 2, 0}, {5, 5, 0}}},
		{"L, goal on last portal", l3, Point{1, 1, 0}, Point{5, 2, 0}, []Point{{1, 1, 0}, {5, 2, 0}}},
		{"L, through the corner", l3, Point{2, 1, 0}, Point{6, 3, 0}, []Point{{2, 1, 0}, {6, 3, 0}}},
		{"zigzag", zigzag, Point{1, 1, 0}, Point{7, 1, 0},
			[]Point{{1, 1, 0}, {2, 2, 0}, {3, 6, 0}, {5, 6, 0}, {6, 2, 0}, {7, 1, 0}}},
		{"point portal, bend", pinched, Point{1, 0.5, 0}, Point{3, 3, 0}, []Point{{1, 0.5, 0}, {2, 2, 0}, {3, 3, 0}}},
		{"point portal, straight", pinched, Point{1, 1, 0}, Point{3, 3, 0}, []Point{{1, 1, 0}, {3, 3, 0}}},
		{"start is goal on a portal", straight, Point{4, 1, 0}, Point{4, 1, 0}, []Point{{4, 1, 0}, {4, 1, 0}}},
	}
}

func TestFunnelHandCases(t *testing.T) {
	for _, c := range funnelCases() {
		t.Run(c.name, func(t *testing.T) {
			regions, portals := route(c.regions...)
			got := Funnel(c.start, c.goal, regions, portals, nil)
			require.Equal(t, c.want, got)
			requireLegal(t, got, regions, c.name)
		})
	}
}

// TestFunnelSymmetries runs every hand case reversed, mirrored and rotated:
// left and right must come out right in all four directions of travel.
func TestFunnelSymmetries(t *testing.T) {
	maps := map[string]func(Point) Point{
		"mirror x":   func(p Point) Point { return Point{-p[0], p[1], p[2]} },
		"mirror y":   func(p Point) Point { return Point{p[0], -p[1], p[2]} },
		"rotate 90":  func(p Point) Point { return Point{-p[1], p[0], p[2]} },
		"rotate 270": func(p Point) Point { return Point{p[1], -p[0], p[2]} },
	}
	for _, c := range funnelCases() {
		for name, f := range maps {
			regions := make([]Box, len(c.regions))
			for i, b := range c.regions {
				lo, hi := f(b.Min), f(b.Max)
				regions[i] = Box{Min: Point{min(lo[0], hi[0]), min(lo[1], hi[1]), lo[2]}, Max: Point{max(lo[0], hi[0]), max(lo[1], hi[1]), hi[2]}}
			}
			want := make([]Point, len(c.want))
			for i, p := range c.want {
				want[i] = f(p)
			}
			regions, portals := route(regions...)
			require.Equal(t, want, Funnel(f(c.start), f(c.goal), regions, portals, nil), "%s, %s", c.name, name)

			slices.Reverse(regions)
			slices.Reverse(portals)
			slices.Reverse(want)
			require.Equal(t, want, Funnel(f(c.goal), f(c.start), regions, portals, nil), "%s, %s, reversed", c.name, name)
		}
	}
}

func TestFunnelCornerHeight(t *testing.T) {
	regions, portals := route(box2(0, 0, 4, 2), box2(4, 0, 6, 2), box2(4, 2, 6, 6))
	portals[1].Min[2] = 0.25 // a step up the caller reports on the portal
	got := Funnel(Point{1, 1, 3}, Point{5, 5, -2}, regions, portals, nil)
	require.Equal(t, []Point{{1, 1, 3}, {4, 2, 0.25}, {5, 5, -2}}, got)
}

func TestFunnelReusesDst(t *testing.T) {
	regions, portals := route(box2(0, 0, 4, 2), box2(4, 0, 6, 2), box2(4, 2, 6, 6))
	dst := make([]Point, 7, 16)
	got := Funnel(Point{1, 1, 0}, Point{5, 5, 0}, regions, portals, dst)
	require.Len(t, got, 3)
	require.Same(t, &dst[0], &got[0], "Funnel must write into dst, not a new slice")
}

func TestFunnelPanicsOnBrokenRoute(t *testing.T) {
	regions, portals := route(box2(0, 0, 4, 2), box2(4, 0, 8, 2))
	s, g := Point{1, 1, 0}, Point{7, 1, 0}
	require.PanicsWithValue(t, "corridor: 2 regions for 2 portals, want 3", func() {
		Funnel(s, g, regions, append(portals, portals[0]), nil)
	})
	require.Panics(t, func() { Funnel(s, g, nil, nil, nil) })
	area := []Box{box2(3, 0, 4, 2)}
	require.PanicsWithValue(t, "corridor: portal 0 {[3 0 0] [4 2 1]} is not a segment in xy", func() {
		Funnel(s, g, regions, area, nil)
	})
	same := []Box{regions[0], regions[0]}
	require.PanicsWithValue(t, "corridor: regions 0 and 1 are not on opposite sides of portal 0", func() {
		Funnel(s, g, same, portals, nil)
	})
}

// TestFunnelIsShortest compares Funnel on random simple sleeves with the
// shortest path through the visibility graph of start, goal and the portal
// endpoints (the only places a shortest path in such a polygon can bend).
func TestFunnelIsShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var dst []Point
	corners := 0
	for trial := range 600 {
		spec := sleeveSpec{n: 2 + rng.IntN(14), dims: 2}
		if trial%3 == 0 {
			spec.pinch = 0.3
		}
		regions, portals := sleeve(rng, spec)
		start := randomIn(rng, regions[0], true)
		goal := randomIn(rng, regions[len(regions)-1], true)
		if trial%5 == 4 { // inexact coordinates
			f := 0.3 + rng.Float64()
			regions, portals = scaled(f, regions), scaled(f, portals)
			start, goal = Point{start[0] * f, start[1] * f, 0}, Point{goal[0] * f, goal[1] * f, 0}
		}
		dst = Funnel(start, goal, regions, portals, dst)
		require.Equal(t, start, dst[0])
		require.Equal(t, goal, dst[len(dst)-1])
		requireLegal(t, dst, regions, "funnel")
		want := visibilityShortest(start, goal, portalCorners(portals, 0), regions)
		require.True(t, near(Length(dst), want, 1e-9),
			"trial %d: funnel %v long %v, shortest %v\nregions %v\nportals %v",
			trial, dst, Length(dst), want, regions, portals)
		corners += len(dst) - 2
	}
	require.Greater(t, corners, 600, "the sleeves should make the path bend")
}

func TestStraighten(t *testing.T) {
	a, b, c, d := Point{0, 0, 0}, Point{1, 0, 5}, Point{2, 0, 0}, Point{2, 1, 0}
	for _, tc := range []struct {
		name     string
		in, want []Point
	}{
		{"two points stay", []Point{a, a}, []Point{a, a}},
		{"repeat", []Point{a, b, b, d}, []Point{a, b, d}},
		{"repeat of the goal", []Point{a, d, d}, []Point{a, d}},
		{"collinear, whatever its z", []Point{a, b, c}, []Point{a, c}},
		{"turn", []Point{a, c, d}, []Point{a, c, d}},
		{"reversal", []Point{a, c, b}, []Point{a, c, b}},
	} {
		require.Equal(t, tc.want, straighten(slices.Clone(tc.in)), tc.name)
	}
}
