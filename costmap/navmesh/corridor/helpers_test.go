package corridor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// box2 is a region of the plane, [x0, x1]×[y0, y1], one cell thick in z.
func box2(x0, y0, x1, y1 float64) Box {
	return Box{Min: Point{x0, y0, 0}, Max: Point{x1, y1, 1}}
}

// route returns the portals of a chain of touching regions.
func route(regions ...Box) (rs, portals []Box) {
	for i := 1; i < len(regions); i++ {
		p, ok := meet(regions[i-1], regions[i])
		if !ok {
			panic("test route: regions do not touch")
		}
		portals = append(portals, p)
	}
	return regions, portals
}

// meet returns the intersection of two closed boxes and whether it is
// not empty.
func meet(a, b Box) (Box, bool) {
	var m Box
	for i := range 3 {
		m.Min[i], m.Max[i] = max(a.Min[i], b.Min[i]), min(a.Max[i], b.Max[i])
		if m.Min[i] > m.Max[i] {
			return Box{}, false
		}
	}
	return m, true
}

// sleeveSpec describes the random corridors sleeve makes.
type sleeveSpec struct {
	n       int     // regions wanted; fewer if the walk gets stuck
	dims    int     // 2: regions span z ∈ [0, 1]; 3: regions step in z too
	pinch   float64 // chance, per side axis, that a step touches only at an edge or corner
	forward bool    // never step towards −x (long sleeves get stuck less)
}

// sleeve returns a random simple corridor on the integer grid: a random
// walk of boxes 1 to 4 cells a side, each sharing part of a face (or, when
// pinched, an edge or corner) with the previous one and disjoint from all
// earlier ones, so only consecutive regions touch.
func sleeve(rng *rand.Rand, s sleeveSpec) (regions, portals []Box) {
	regions = []Box{randomBox(rng, s.dims)}
	for len(regions) < s.n {
		prev := regions[len(regions)-1]
		nb, ok := Box{}, false
		for try := 0; try < 30 && !ok; try++ {
			nb = step(rng, prev, s)
			ok = clearOf(nb, regions[:len(regions)-1])
		}
		if !ok {
			break
		}
		regions = append(regions, nb)
	}
	return route(regions...)
}

// randomBox returns a box of 1 to 4 cells a side at the origin.
func randomBox(rng *rand.Rand, dims int) Box {
	b := Box{Max: Point{0, 0, 1}}
	for i := range dims {
		b.Max[i] = float64(1 + rng.IntN(4))
	}
	return b
}

// step returns a random box next to prev (see sleeve).
func step(rng *rand.Rand, prev Box, s sleeveSpec) Box {
	nb := randomBox(rng, s.dims)
	ax, up := rng.IntN(s.dims), rng.IntN(2) == 0
	if s.forward && ax == 0 {
		up = true
	}
	for i := range s.dims {
		size := nb.Max[i]
		switch {
		case i == ax && up:
			nb.Min[i] = prev.Max[i]
		case i == ax:
			nb.Min[i] = prev.Min[i] - size
		default:
			nb.Min[i] = beside(rng, prev.Min[i], prev.Max[i], size, s.pinch)
		}
		nb.Max[i] = nb.Min[i] + size
	}
	return nb
}

// beside returns the low end of a side of length size on an axis where
// prev spans [lo, hi]: overlapping it by at least one cell or, with
// chance pinch, touching one of its ends.
func beside(rng *rand.Rand, lo, hi, size, pinch float64) float64 {
	if rng.Float64() < pinch {
		if rng.IntN(2) == 0 {
			return hi
		}
		return lo - size
	}
	first, last := int(lo-size)+1, int(hi)-1
	return float64(first + rng.IntN(last-first+1))
}

// clearOf reports whether b touches none of the boxes.
func clearOf(b Box, boxes []Box) bool {
	for _, o := range boxes {
		if _, ok := meet(b, o); ok {
			return false
		}
	}
	return true
}

// randomIn returns a random point of b (z = b.Min[2] when flat): often on
// the integer grid, so that it may lie on a face, edge or corner.
func randomIn(rng *rand.Rand, b Box, flat bool) Point {
	var p Point
	for i := range 3 {
		lo, hi := b.Min[i], b.Max[i]
		switch {
		case flat && i == 2:
			p[i] = lo
		case rng.IntN(3) == 0:
			p[i] = lo + float64(rng.IntN(int(hi-lo)+1))
		default:
			p[i] = lo + rng.Float64()*(hi-lo)
		}
	}
	return p
}

// scaled returns the boxes and points multiplied by f, so that
// coordinates are no longer exact.
func scaled(f float64, boxes []Box) []Box {
	out := make([]Box, len(boxes))
	for i, b := range boxes {
		for ax := range 3 {
			out[i].Min[ax], out[i].Max[ax] = b.Min[ax]*f, b.Max[ax]*f
		}
	}
	return out
}

// visibilityShortest returns the length of the shortest path from start
// to goal in the union of regions that bends only at the given corners:
// Dijkstra over the graph whose edges are the segments InCorridor accepts.
func visibilityShortest(start, goal Point, corners []Point, regions []Box) float64 {
	nodes := append([]Point{start, goal}, corners...)
	d := make([]float64, len(nodes))
	done := make([]bool, len(nodes))
	for i := range d {
		d[i] = math.Inf(1)
	}
	d[0] = 0
	for {
		u := -1
		for i := range nodes {
			if !done[i] && (u < 0 || d[i] < d[u]) {
				u = i
			}
		}
		if u < 0 || math.IsInf(d[u], 1) || u == 1 {
			return d[1]
		}
		done[u] = true
		for v := range nodes {
			if !done[v] && InCorridor(nodes[u], nodes[v], regions) {
				d[v] = min(d[v], d[u]+dist(&nodes[u], &nodes[v]))
			}
		}
	}
}

// portalCorners returns the xy corners of each portal at z.
func portalCorners(portals []Box, z float64) []Point {
	var out []Point
	for _, p := range portals {
		for _, x := range [2]float64{p.Min[0], p.Max[0]} {
			for _, y := range [2]float64{p.Min[1], p.Max[1]} {
				out = append(out, Point{x, y, z})
			}
		}
	}
	return out
}

// requireLegal fails unless every segment of path lies in the regions.
func requireLegal(t *testing.T, path []Point, regions []Box, msg string) {
	t.Helper()
	for i := 1; i < len(path); i++ {
		require.True(t, InCorridor(path[i-1], path[i], regions),
			"%s: segment %d %v→%v leaves the corridor", msg, i, path[i-1], path[i])
	}
}

// clampedPolyline is Shortcut's starting polyline, built independently.
func clampedPolyline(start, goal Point, portals []Box) []Point {
	path := []Point{start}
	for _, p := range portals {
		q := path[len(path)-1]
		for i := range 3 {
			q[i] = math.Max(p.Min[i], math.Min(p.Max[i], q[i]))
		}
		path = append(path, q)
	}
	return append(path, goal)
}

// near reports whether a and b agree to within tol relative to their size.
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
