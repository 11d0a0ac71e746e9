package corridor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOffFacesRoundAWall: a route out of a region across a face and back
// across the same face into another, round the end of a wall (the gap
// between the two regions) that stops at that face. Funnel's stretch
// between the two corners runs along the wall; OffFaces moves it half a
// unit off.
func TestOffFacesRoundAWall(t *testing.T) {
	regions, portals := route(box2(0, 0, 4, 2), box2(4, 0, 6, 6), box2(0, 4, 4, 6))
	start, goal := Point{1, 1, 0}, Point{1, 5, 0}
	path := Funnel(start, goal, regions, portals, nil)
	require.Equal(t, []Point{start, {4, 2, 0}, {4, 4, 0}, goal}, path, "Funnel's path runs along the wall's face x = 4")
	path = OffFaces(path, regions)
	require.Equal(t, []Point{start, {4.5, 2, 0}, {4.5, 4, 0}, goal}, path)
	requireLegal(t, path, regions, "off faces")

	// Mirrored in x and with x and y swapped: the move goes the other way
	// and along the other axis.
	mirror := func(p Point) Point { return Point{-p[0], p[1], p[2]} }
	swap := func(p Point) Point { return Point{p[1], p[0], p[2]} }
	for name, f := range map[string]func(Point) Point{"mirrored": mirror, "swapped": swap} {
		var rs []Box
		for _, r := range regions {
			a, b := f(r.Min), f(r.Max)
			rs = append(rs, Box{Min: Point{min(a[0], b[0]), min(a[1], b[1]), 0}, Max: Point{max(a[0], b[0]), max(a[1], b[1]), 1}})
		}
		rs, ps := route(rs...)
		got := OffFaces(Funnel(f(start), f(goal), rs, ps, nil), rs)
		want := []Point{f(start), f(Point{4.5, 2, 0}), f(Point{4.5, 4, 0}), f(goal)}
		require.Equal(t, want, got, name)
	}
}

// TestOffFacesNarrowPortal: the portal into the stretch is a point (a
// portal one unit long, shrunk as the mesh's are), so the segment into
// the moved corner would leave the corridor. The corner stays, and the
// path steps off the face from it.
func TestOffFacesNarrowPortal(t *testing.T) {
	regions, portals := route(box2(0, 3, 1, 6), box2(1, 0, 2, 4), box2(-1, 0, 1, 1))
	shrinkPortals(portals, 2)
	start, goal := Point{0.5, 5.5, 0}, Point{-0.5, 0.5, 0}
	path := Funnel(start, goal, regions, portals, nil)
	require.Equal(t, []Point{start, {1, 3.5, 0}, {1, 0.5, 0}, goal}, path)
	path = OffFaces(path, regions)
	require.Equal(t, []Point{start, {1, 3.5, 0}, {1.5, 3.5, 0}, {1.5, 0.5, 0}, goal}, path)
	requireLegal(t, path, regions, "off faces")
}

// TestOffFacesLeavesWhatItCannotMove: a stretch with corridor on both
// sides stays, and so does one beside a region too narrow to take it.
func TestOffFacesLeavesWhatItCannotMove(t *testing.T) {
	// The middle region spans x = 4 between the corners.
	regions := []Box{box2(0, 0, 4, 2), box2(2, 2, 6, 4), box2(0, 4, 4, 6)}
	path := []Point{{1, 1, 0}, {4, 2, 0}, {4, 4, 0}, {1, 5, 0}}
	require.Equal(t, path, OffFaces(slices.Clone(path), regions), "x = 4 has corridor on both sides")

	// The region beside the face is a quarter of a unit wide.
	regions, _ = route(box2(0, 0, 4, 2), box2(4, 0, 4.25, 6), box2(0, 4, 4, 6))
	require.Equal(t, path, OffFaces(slices.Clone(path), regions), "no room to move")
}

// TestOffFacesOnSleeves runs OffFaces on Funnel's paths through random
// flat sleeves, and OffFaces3D on Shortcut's through random 3D ones:
// every path stays legal, start and goal stay, the path grows by at most
// a unit per new point, and with portals as the mesh makes them no
// stretch is left on the boundary.
func TestOffFacesOnSleeves(t *testing.T) {
	for _, dims := range []int{2, 3} {
		rng := rand.New(rand.NewPCG(17, uint64(dims)))
		var path []Point
		moved, stuck := 0, map[bool]int{}
		for trial := range 3000 {
			spec := sleeveSpec{n: 2 + rng.IntN(14), dims: dims}
			meshLike := trial%2 == 0 // portals as the mesh makes them
			if !meshLike && trial%3 == 0 {
				spec.pinch = 0.3
			}
			regions, portals := sleeve(rng, spec)
			if meshLike {
				shrinkPortals(portals, dims)
			}
			start := randomIn(rng, regions[0], dims == 2)
			goal := randomIn(rng, regions[len(regions)-1], dims == 2)
			if dims == 2 {
				path = Funnel(start, goal, regions, portals, path)
			} else {
				path = Shortcut(start, goal, regions, portals, path)
			}
			before, length := slices.Clone(path), Length(path)
			if dims == 2 {
				path = OffFaces(path, regions)
			} else {
				path = OffFaces3D(path, regions)
			}
			require.Equal(t, start, path[0])
			require.Equal(t, goal, path[len(path)-1])
			requireLegal(t, path, regions, "off faces")
			// Each stretch moved puts in at least one new point and
			// lengthens the path by at most one unit.
			added := 0
			for _, p := range path {
				if !slices.Contains(before, p) {
					added++
				}
			}
			moved += added
			require.LessOrEqual(t, Length(path), length+float64(added)+1e-9)
			for k := 1; k+2 < len(path); k++ {
				for ax := range dims {
					if path[k][ax] == path[k+1][ax] && boundarySide(path[k], path[k+1], ax, regions, dims) != 0 {
						stuck[meshLike]++
					}
				}
			}
		}
		t.Logf("%dD: %d points put in off the boundary; stretches left on it: %d with the mesh's portals, %d with whole portals",
			dims, moved, stuck[true], stuck[false])
		require.Greater(t, moved, 20, "the sleeves should make stretches along the boundary")
		require.Zero(t, stuck[true])
	}
}

// shrinkPortals shortens portals by half a unit at each end on their
// first dims axes, as the navigation mesh's are (a portal one unit long
// becomes a point).
func shrinkPortals(portals []Box, dims int) {
	for i := range portals {
		for ax := range dims {
			if p := &portals[i]; p.Max[ax]-p.Min[ax] >= 1 {
				p.Min[ax] += 0.5
				p.Max[ax] -= 0.5
			}
		}
	}
}
