package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
)

func TestCollisionCases(t *testing.T) {
	sphere := Body{Radius: 0.3}
	ground := Body{Cylinder: true, Radius: 0.25, Height: 0.4}
	cube := Shape{Kind: KindBox, Center: r3.Vector{}, Size: r3.Vector{X: 2, Y: 2, Z: 2}}
	diamond := cube
	diamond.Yaw = math.Pi / 4 // a vertical edge at x = √2
	overhang := Shape{Kind: KindBox, Center: r3.Vector{Z: 1.5}, Size: r3.Vector{X: 2, Y: 2, Z: 1}}
	ball := func(z, r float64) Shape { return Shape{Kind: KindSphere, Center: r3.Vector{Z: z}, Radius: r} }
	post := Shape{Kind: KindCylinder, Center: r3.Vector{X: 1, Z: 1}, Radius: 0.5, Height: 2}
	for _, c := range []struct {
		name  string
		body  Body
		shape Shape
		at    r3.Vector
		hit   bool
	}{
		{"sphere touching a face", sphere, cube, r3.Vector{X: 1.2999}, true},
		{"sphere clear of a face", sphere, cube, r3.Vector{X: 1.3001}, false},
		{"sphere at a corner's reach", sphere, cube, r3.Vector{X: 1 + 0.3/math.Sqrt(3), Y: 1 + 0.3/math.Sqrt(3), Z: 1 + 0.3/math.Sqrt(3)}, true},
		{"sphere off a corner", sphere, cube, r3.Vector{X: 1.18, Y: 1.18, Z: 1.18}, false},
		{"sphere at a turned box's edge", sphere, diamond, r3.Vector{X: math.Sqrt2 + 0.3}, true},
		{"sphere off a turned box's edge", sphere, diamond, r3.Vector{X: math.Sqrt2 + 0.301}, false},
		{"sphere off a turned box's face", sphere, diamond, r3.Vector{X: 1.2, Y: 1.2}, false},
		{"ground robot under an overhang", ground, overhang, r3.Vector{}, false},
		{"ground robot reaching the overhang", ground, overhang, r3.Vector{Z: 0.6}, true},
		{"ground robot beside a box", ground, cube, r3.Vector{X: 1.25, Z: -1}, true},
		{"ground robot just clear of a box", ground, cube, r3.Vector{X: 1.2501, Z: -1}, false},
		{"ball resting on a ground robot", ground, ball(0.9, 0.5), r3.Vector{}, true},
		{"ball just above a ground robot", ground, ball(0.9, 0.4999), r3.Vector{}, false},
		{"ball at a ground robot's top rim", ground, Shape{Kind: KindSphere, Center: r3.Vector{X: 0.55, Z: 0.8}, Radius: 0.5}, r3.Vector{}, true},
		{"sphere robot touching a ball", sphere, ball(0, 1), r3.Vector{X: 1.3}, true},
		{"sphere robot near a post", sphere, post, r3.Vector{X: 1.7999, Z: 1}, true},
		{"sphere robot over a post", sphere, post, r3.Vector{X: 1, Z: 2.31}, false},
		{"ground robot beside a post", ground, post, r3.Vector{X: 1.75}, true},
		{"ground robot clear of a post", ground, post, r3.Vector{X: 1.76}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &World{}
			require.NoError(t, w.Put("obstacle", c.shape))
			what, hit := w.Collides(c.body, c.at)
			require.Equal(t, c.hit, hit)
			if hit {
				require.Equal(t, "obstacle", what)
			}
		})
	}
}

// TestCollisionSampled compares Body.touches with the body sampled on a
// grid: a sample inside the shape means a collision, and a collision
// means some sample lies within a sampling step of it.
func TestCollisionSampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const h = 0.025
	for i := range 400 {
		b := Body{Radius: 0.1 + 0.3*rng.Float64()}
		if i%2 == 1 {
			b.Cylinder, b.Height = true, 0.1+0.5*rng.Float64()
		}
		s := prepare(randShape(rng), "s")
		pos := s.Center.Add(randVec(rng, -2, 2))
		lo, hi := b.reach()
		nearest := math.Inf(1)
		for z := -lo.Z; z <= hi.Z+1e-9; z += h {
			for y := -b.Radius; y <= b.Radius+1e-9; y += h {
				for x := -b.Radius; x <= b.Radius+1e-9; x += h {
					off := r3.Vector{X: x, Y: y, Z: z}
					if (b.Cylinder && math.Hypot(x, y) > b.Radius) || (!b.Cylinder && off.Norm() > b.Radius) {
						continue
					}
					nearest = min(nearest, s.distance(pos.Add(off)))
				}
			}
		}
		got := b.touches(pos, &s)
		if nearest == 0 {
			require.True(t, got, "body %+v at %v: a sample is inside %+v", b, pos, s.Shape)
		}
		if got {
			require.LessOrEqual(t, nearest, 2*h, "body %+v at %v touches %+v, but no sample is near it", b, pos, s.Shape)
		}
	}
}

func TestCollisionCells(t *testing.T) {
	g := &voxel.Grid{Width: 10, Height: 10, Resolution: 0.1, Cells: make([]int8, 100)}
	g.Cells[5+5*10] = 100 // the wall cell spans [0.5, 0.6]²
	g.Cells[2+2*10] = -1  // unknown: free
	vox := &voxel.StaticVoxels{Box: voxel.Box{Max: voxel.Key{X: 3, Y: 3, Z: 3}}, Blocked: []voxel.Key{{X: 1, Y: 1, Z: 1}}}
	w, err := newWorld(&World{Bounds: Bounds{Max: r3.Vector{X: 5, Y: 5, Z: 5}}, Grid: g, WallHeight: 1,
		Origin: r3.Vector{X: 3, Y: 3, Z: 0}, Resolution: 0.5}, vox)
	require.NoError(t, err)
	ground := Body{Cylinder: true, Radius: 0.2, Height: 0.4}
	for _, c := range []struct {
		at  r3.Vector
		hit bool
	}{
		{r3.Vector{X: 0.3, Y: 0.55}, true},
		{r3.Vector{X: 0.29, Y: 0.55}, false},
		{r3.Vector{X: 0.25, Y: 0.25}, false}, // over the unknown cell
		{r3.Vector{X: 0.55, Y: 0.55, Z: 1.0}, true},
		{r3.Vector{X: 0.55, Y: 0.55, Z: 1.01}, false}, // above the wall
		{r3.Vector{X: 4.15, Y: 3.75, Z: 0.6}, true},
		{r3.Vector{X: 3.75, Y: 3.75, Z: 1.5}, false}, // on top of the voxel (1, 1, 1): z from 0.5 to 1
	} {
		_, hit := w.Collides(ground, c.at)
		require.Equal(t, c.hit, hit, "at %v", c.at)
	}
	_, hit := w.Collides(Body{Radius: 0.3}, r3.Vector{X: 3.75, Y: 3.75, Z: 1.2999})
	require.True(t, hit, "a sphere reaching down onto the voxel")
	_, hit = w.Collides(Body{Radius: 0.3}, r3.Vector{X: 3.75, Y: 3.75, Z: 1.31})
	require.False(t, hit)
	what, hit := w.Collides(ground, r3.Vector{X: math.NaN()})
	require.True(t, hit, "a robot nowhere is a collision")
	require.Equal(t, Static, what)
}

// TestColumnsAnyWall: the summed-area table's answer equals a scan of
// the cells, and a body touches the walls exactly when a scan of every
// wall cell under its bounding box says so, on random grids.
func TestColumnsAnyWall(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for range 20 {
		w, h := 1+rng.IntN(30), 1+rng.IntN(30)
		g := &voxel.Grid{Width: w, Height: h, Resolution: 0.1, Cells: make([]int8, w*h), Yaw: rng.Float64()}
		for i := range g.Cells {
			if rng.IntN(8) == 0 {
				g.Cells[i] = 100
			}
		}
		c := newColumns(g, 0, 2)
		for range 200 {
			x0, y0 := int32(rng.IntN(w)), int32(rng.IntN(h))
			x1, y1 := x0+int32(rng.IntN(w-int(x0))), y0+int32(rng.IntN(h-int(y0)))
			want := false
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					want = want || c.isWall(x, y)
				}
			}
			require.Equal(t, want, c.anyWall(x0, y0, x1, y1), "[%d, %d] × [%d, %d]", x0, x1, y0, y1)
		}
		b := Body{Radius: 0.05 + 0.3*rng.Float64()}
		for range 200 {
			p := r3.Vector{X: 4*rng.Float64() - 0.5, Y: 4*rng.Float64() - 0.5, Z: 1}
			want := false
			for y := range int32(h) {
				for x := range int32(w) {
					if lo, hi := c.cell(x, y); c.isWall(x, y) && b.touchesBox(c.local(p), lo, hi) {
						want = true
					}
				}
			}
			require.Equal(t, want, c.touches(b, p), "at %v", p)
		}
	}
}
