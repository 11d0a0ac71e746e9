package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
)

// point is a zero-radius body: Collides with it says whether a point is
// inside (or on) something.
var point = Body{}

// marchStep is the brute-force sampling step along rays, metres.
const marchStep = 1e-3

// march returns the first sample along the ray at which w holds the
// point, by brute force.
func march(w *World, o, d r3.Vector, tmax float64) (float64, bool) {
	for t := 0.0; t <= tmax; t += marchStep {
		if _, in := w.Collides(point, o.Add(d.Mul(t))); in {
			return t, true
		}
	}
	return 0, false
}

func randVec(rng *rand.Rand, lo, hi float64) r3.Vector {
	u := func() float64 { return lo + rng.Float64()*(hi-lo) }
	return r3.Vector{X: u(), Y: u(), Z: u()}
}

func randShape(rng *rand.Rand) Shape {
	c := randVec(rng, -2, 2)
	switch rng.IntN(3) {
	case 0:
		return Shape{Kind: KindBox, Center: c, Size: randVec(rng, 0.1, 2), Yaw: rng.Float64() * 2 * math.Pi}
	case 1:
		return Shape{Kind: KindCylinder, Center: c, Radius: 0.05 + rng.Float64(), Height: 0.1 + 2*rng.Float64()}
	}
	return Shape{Kind: KindSphere, Center: c, Radius: 0.05 + rng.Float64()}
}

// checkRay compares w.Raycast with marching: the analytic hit lies on a
// surface, and nothing is inside the world before it; marching finds
// nothing the analytic cast missed (but for grazing rays, whose chord is
// shorter than a step).
func checkRay(t *testing.T, w *World, o, d r3.Vector, tmax float64) bool {
	t.Helper()
	got, hit := w.Raycast(o, d, tmax)
	want, found := march(w, o, d, tmax)
	if found {
		require.True(t, hit, "ray %v → %v: marching hits at %.4f, Raycast misses", o, d, want)
		require.LessOrEqual(t, got, want+1e-9, "ray %v → %v", o, d)
	}
	if hit {
		require.GreaterOrEqual(t, got, 0.0)
		require.LessOrEqual(t, got, tmax)
		if found {
			require.GreaterOrEqual(t, got, want-marchStep-1e-9, "ray %v → %v: Raycast %.4f, marching %.4f", o, d, got, want)
		}
		p := o.Add(d.Mul(got))
		grown := Body{Radius: 1e-6}
		_, near := w.Collides(grown, p)
		require.True(t, near, "ray %v → %v: hit point %v at %.4f is on no surface", o, d, p, got)
	}
	return hit
}

func TestRaycastShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for range 600 {
		w := &World{Bounds: Bounds{Min: r3.Vector{X: -5, Y: -5, Z: -5}, Max: r3.Vector{X: 5, Y: 5, Z: 5}}}
		n := 1 + rng.IntN(3)
		var aim r3.Vector
		for i := range n {
			s := randShape(rng)
			require.NoError(t, w.Put(string(rune('a'+i)), s))
			aim = s.Center.Add(randVec(rng, -0.3, 0.3)) // most rays aim near a shape
		}
		o := randVec(rng, -4, 4)
		d := aim.Sub(o)
		if rng.IntN(4) == 0 {
			d = randVec(rng, -1, 1)
		}
		if rng.IntN(4) == 0 {
			d.Z = 0 // horizontal rays, as lasers cast
		}
		if d.Norm() < 1e-3 {
			continue
		}
		if checkRay(t, w, o, d.Normalize(), 8) {
			hits++
		}
	}
	require.Greater(t, hits, 150, "too few rays hit anything to test much")
}

func TestRaycastAxisAligned(t *testing.T) {
	w := &World{}
	require.NoError(t, w.Put("box", Shape{Kind: KindBox, Center: r3.Vector{X: 3}, Size: r3.Vector{X: 2, Y: 2, Z: 2}}))
	got, hit := w.Raycast(r3.Vector{}, r3.Vector{X: 5}, 10) // not normalised on purpose
	require.True(t, hit)
	require.InDelta(t, 2, got, 1e-12)
	_, hit = w.Raycast(r3.Vector{}, r3.Vector{X: 1}, 1.9)
	require.False(t, hit, "beyond the range")
	got, hit = w.Raycast(r3.Vector{X: 3}, r3.Vector{Y: 1}, 10)
	require.True(t, hit)
	require.Zero(t, got, "from inside")
	_, hit = w.Raycast(r3.Vector{X: 3, Z: 1.0001}, r3.Vector{X: 1}, 10)
	require.False(t, hit, "just above")
	for _, bad := range []r3.Vector{{}, {X: math.NaN()}, {Y: math.Inf(1)}} {
		_, hit = w.Raycast(r3.Vector{}, bad, 10)
		require.False(t, hit)
	}
}

// cellWorld returns a world with a small grid (rotated) and a voxel map
// with random occupied cells, and a few shapes.
func cellWorld(rng *rand.Rand) *World {
	g := &voxel.Grid{Width: 20, Height: 15, Resolution: 0.2, Origin: r3.Vector{X: -2, Y: -1.5}, Yaw: 0.3,
		Cells: make([]int8, 300)}
	for i := range g.Cells {
		switch rng.IntN(5) {
		case 0:
			g.Cells[i] = 100
		case 1:
			g.Cells[i] = -1
		}
	}
	vox := &voxel.StaticVoxels{Box: voxel.Box{Max: voxel.Key{X: 9, Y: 9, Z: 9}}}
	for range 200 {
		vox.Blocked = append(vox.Blocked, voxel.Key{X: rng.Int32N(10), Y: rng.Int32N(10), Z: rng.Int32N(10)})
	}
	w := &World{Bounds: Bounds{Min: r3.Vector{X: -5, Y: -5}, Max: r3.Vector{X: 5, Y: 5, Z: 5}},
		Grid: g, WallHeight: 1.5, Origin: r3.Vector{X: 0.5, Y: -2, Z: 1}, Resolution: 0.3,
		Static: []Shape{randShape(rng)}}
	w, err := newWorld(w, vox)
	if err != nil {
		panic(err)
	}
	return w
}

func TestRaycastCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	w := cellWorld(rng)
	hits := 0
	for range 300 {
		o := randVec(rng, -3, 3)
		d := randVec(rng, -1.5, 1.5).Add(r3.Vector{X: 1, Z: 1}).Sub(o) // aim at the cells
		if rng.IntN(4) == 0 {
			d = randVec(rng, -1, 1)
		}
		if d.Norm() < 1e-3 {
			continue
		}
		if checkRay(t, w, o, d.Normalize(), 6) {
			hits++
		}
	}
	require.Greater(t, hits, 150, "too few rays hit anything to test much")
	// A wall of the grid is a column from bounds.min.z up to wall_height.
	c := w.cols
	var lo, hi r3.Vector
	for y := range c.h {
		for x := range c.w {
			if c.isWall(x, y) {
				lo, hi = c.cell(x, y)
			}
		}
	}
	require.Equal(t, 0.0, lo.Z)
	require.Equal(t, 1.5, hi.Z)
}
