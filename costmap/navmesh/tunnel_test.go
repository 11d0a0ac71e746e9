package navmesh

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// bruteTunnel is the reference for Tunnel: every cell of bounds, its
// distance to every segment.
func bruteTunnel(route [][3]float64, width float64, bounds voxel.Box) map[voxel.Key]bool {
	near := func(p, a, b [3]float64) bool {
		var u, d [3]float64
		for k := range 3 {
			u[k], d[k] = p[k]-a[k], b[k]-a[k]
		}
		l2 := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
		s := 0.0
		if l2 > 0 {
			s = math.Max(0, math.Min(1, (u[0]*d[0]+u[1]*d[1]+u[2]*d[2])/l2))
		}
		e := 0.0
		for k := range 3 {
			e += (u[k] - s*d[k]) * (u[k] - s*d[k])
		}
		return e <= width*width
	}
	in := map[voxel.Key]bool{}
	for z := bounds.Min.Z; z <= bounds.Max.Z; z++ {
		for y := bounds.Min.Y; y <= bounds.Max.Y; y++ {
			for x := bounds.Min.X; x <= bounds.Max.X; x++ {
				p := [3]float64{float64(x), float64(y), float64(z)}
				for i := range route {
					if near(p, route[max(i-1, 0)], route[i]) {
						in[voxel.Key{X: x, Y: y, Z: z}] = true
						break
					}
				}
			}
		}
	}
	return in
}

// TestTunnelEqualsBruteForce: on random polylines (random and grid-aligned
// points, some outside the bounds, some segments along an axis) and
// widths, Tunnel reports exactly the cells the brute force finds, and
// only cells of the bounds.
func TestTunnelEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	cells := 0
	for i := range 600 {
		bounds := voxel.Box{Min: voxel.Key{X: rng.Int32N(10) - 5, Y: rng.Int32N(10) - 5, Z: rng.Int32N(10) - 5}}
		bounds.Max = bounds.Min.Add(rng.Int32N(24), rng.Int32N(24), rng.Int32N(12))
		if i%7 == 0 {
			bounds.Max.Z = bounds.Min.Z // one layer, as a 2D grid
		}
		point := func() [3]float64 {
			var p [3]float64
			for k := range 3 {
				p[k] = -10 + rng.Float64()*40
				switch i % 3 {
				case 1: // cell centres and portal faces
					p[k] = math.Round(p[k]*2) / 2
				case 2:
					p[k] = math.Round(p[k])
				}
			}
			return p
		}
		route := make([][3]float64, rng.IntN(6))
		for j := range route {
			route[j] = point()
			if j > 0 && rng.IntN(4) == 0 { // along an axis
				route[j] = route[j-1]
				route[j][rng.IntN(3)] += float64(rng.IntN(15) - 7)
			}
		}
		width := rng.Float64() * 6
		if i%3 != 0 {
			width = float64(rng.IntN(13)) / 2
		}
		want := bruteTunnel(route, width, bounds)
		got := map[voxel.Key]bool{}
		Tunnel(route, width, bounds, func(k voxel.Key) {
			require.True(t, bounds.Contains(k), "case %d: %v outside %v", i, k, bounds)
			got[k] = true
		})
		require.Equal(t, want, got, "case %d: route %v, width %v, bounds %v", i, route, width, bounds)
		cells += len(got)
	}
	require.Greater(t, cells, 10000)
}

// TestTunnelRowIsTight: the interval a row is scanned over ends where
// the row meets the capsule's surface, so a row costs the cells in the
// tunnel plus at most two.
func TestTunnelRowIsTight(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	dist := func(s *segment, p [3]float64) float64 {
		w2 := s.w2
		lo, hi := 0.0, 100.0 // bisect the width at which p is near
		for range 100 {
			s.w2 = (lo + hi) / 2 * (lo + hi) / 2
			if s.near(p) {
				hi = (lo + hi) / 2
			} else {
				lo = (lo + hi) / 2
			}
		}
		s.w2 = w2
		return hi
	}
	hits := 0
	for i := range 3000 {
		var a, b [3]float64
		for k := range 3 {
			a[k], b[k] = rng.Float64()*20, rng.Float64()*20
		}
		if i%4 == 0 {
			b = a
			b[rng.IntN(3)] += 5
		}
		w := rng.Float64() * 5
		s := segment{a: a, w2: w * w}
		for k := range 3 {
			s.d[k] = b[k] - a[k]
		}
		s.l2 = s.d[0]*s.d[0] + s.d[1]*s.d[1] + s.d[2]*s.d[2]
		y, z := rng.Float64()*24-2, rng.Float64()*24-2
		t0, t1, ok := s.row(y, z, w*w, b)
		if !ok {
			closest := math.Inf(1) // the row's distance to the segment, sampled
			for j := range 10001 {
				f := float64(j) / 10000
				dy, dz := y-a[1]-f*s.d[1], z-a[2]-f*s.d[2]
				closest = min(closest, math.Sqrt(dy*dy+dz*dz))
			}
			require.Greater(t, closest, w-1e-3, "case %d", i)
			continue
		}
		hits++
		require.InDelta(t, w, dist(&s, [3]float64{t0, y, z}), 1e-6, "case %d", i)
		require.InDelta(t, w, dist(&s, [3]float64{t1, y, z}), 1e-6, "case %d", i)
		require.True(t, s.near([3]float64{(t0 + t1) / 2, y, z}), "case %d", i)
	}
	require.Greater(t, hits, 300)
}

// TestTunnelInput: a bad width or point panics; no points, no cells.
func TestTunnelInput(t *testing.T) {
	b := voxel.Box{Max: voxel.Key{X: 9, Y: 9, Z: 9}}
	route := [][3]float64{{1, 1, 1}, {5, 5, 5}}
	for _, w := range []float64{-1, math.NaN(), math.Inf(1)} {
		require.Panics(t, func() { Tunnel(route, w, b, func(voxel.Key) {}) }, "width %v", w)
	}
	require.Panics(t, func() { Tunnel([][3]float64{{0, math.NaN(), 0}}, 1, b, func(voxel.Key) {}) })
	n := 0
	Tunnel(nil, 3, b, func(voxel.Key) { n++ })
	require.Zero(t, n)
	Tunnel([][3]float64{{4, 4, 4}}, 0, b, func(k voxel.Key) { require.Equal(t, voxel.Key{X: 4, Y: 4, Z: 4}, k); n++ })
	require.Equal(t, 1, n)
}

// TestTunnelRoutePolyline: the polyline of an A* route on the mesh runs from
// the start, through one point of each portal, to the goal, and each of
// its pieces stays inside the route's region it crosses.
func TestTunnelRoutePolyline(t *testing.T) {
	w := testWorlds()[0] // aerial, with walls and holes
	m, err := New(w.g, w.cfg)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 4))
	astar := planners.NewAStar(m)
	var line [][3]float64
	routes := 0
	for range 300 {
		sk, sn, ok1 := randomCell(rng, m)
		gk, gn, ok2 := randomCell(rng, m)
		require.True(t, ok1 && ok2)
		r, err := astar.Plan(context.Background(), sn, gn, nil)
		if err != nil {
			continue
		}
		routes++
		start := [3]float64{float64(sk.X), float64(sk.Y), float64(sk.Z)}
		goal := [3]float64{float64(gk.X), float64(gk.Y), float64(gk.Z)}
		line = m.RoutePolyline(start, goal, r.Path, line)
		require.Len(t, line, len(r.Path)+1)
		require.Equal(t, start, line[0])
		require.Equal(t, goal, line[len(line)-1])
		for i, n := range r.Path {
			if i > 0 {
				lo, hi, ok := m.Portal(r.Path[i-1], n)
				require.True(t, ok)
				for k := range 3 {
					require.True(t, lo[k] <= line[i][k] && line[i][k] <= hi[k], "point %v off portal %v–%v", line[i], lo, hi)
				}
			}
			reg, ok := m.Region(n)
			require.True(t, ok)
			a, b := line[i], line[i+1]
			for s := 0.0; s <= 1; s += 1.0 / 16 {
				for k, c := range [3][2]int32{{reg.Cells.Min.X, reg.Cells.Max.X}, {reg.Cells.Min.Y, reg.Cells.Max.Y}, {reg.Cells.Min.Z, reg.Cells.Max.Z}} {
					p := a[k] + s*(b[k]-a[k])
					require.True(t, float64(c[0])-0.5 <= p && p <= float64(c[1])+0.5, "piece %d leaves region %v", i, reg.Cells)
				}
			}
		}
	}
	require.Greater(t, routes, 100)
	// A stale pair adds no point.
	line = m.RoutePolyline([3]float64{}, [3]float64{1, 1, 1}, []planners.NodeID{0, planners.NodeID(m.NumNodes() + 5)}, line)
	require.Len(t, line, 2)
}
