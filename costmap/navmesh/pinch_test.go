package navmesh

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// pinches returns the points where the segment a→b passes a grid edge or
// corner (a point on two or more cell face planes) and the free cells
// round that point do not join, face to face, a cell the segment comes
// from to one it goes into: a pinch between blocked cells, which no robot
// with a size can pass and the lattice forbids too (no corner cutting).
// Cells are found by the brute-force rule; a Ground path is checked in
// xy, a column counting as free when it holds a cell on one of levels.
func pinches(m *Mesh, a, b [3]float64, levels map[int32]bool, isCell func(voxel.Key) (uint8, bool)) [][3]float64 {
	axes := 3
	free := func(c [3]int32) bool { _, ok := isCell(voxel.Key{X: c[0], Y: c[1], Z: c[2]}); return ok }
	if m.cfg.Mode == Ground {
		axes = 2
		free = func(c [3]int32) bool {
			for z := range levels {
				if _, ok := isCell(voxel.Key{X: c[0], Y: c[1], Z: z}); ok {
					return true
				}
			}
			return false
		}
	}
	var d [3]float64
	for i := range axes {
		d[i] = b[i] - a[i]
	}
	var out [][3]float64
	for ax := range axes {
		if d[ax] == 0 {
			continue
		}
		lo, hi := min(a[ax], b[ax]), max(a[ax], b[ax])
		for plane := math.Floor(lo-0.5) + 0.5; plane <= hi; plane++ {
			t := (plane - a[ax]) / d[ax]
			if t <= 0 || t >= 1 {
				continue
			}
			var p [3]float64
			for i := range axes {
				p[i] = a[i] + t*d[i]
			}
			p[ax] = plane
			if pinched(p, d, axes, free) {
				out = append(out, p)
			}
		}
	}
	return out
}

// pinched reports whether the segment through p with direction d is
// pinched there (see pinches).
func pinched(p, d [3]float64, axes int, free func([3]int32) bool) bool {
	var on []int // the axes on whose face planes p lies
	var base [3]int32
	for i := range axes {
		if f := p[i] - math.Floor(p[i]); math.Abs(f-0.5) < 1e-9 {
			on = append(on, i)
			base[i] = int32(math.Round(p[i] - 0.5)) // the cell below the plane
		} else {
			base[i] = int32(math.Round(p[i]))
		}
	}
	if len(on) < 2 {
		return false
	}
	// The 2^len(on) cells round p, by a bit per axis of on (1: above).
	n := 1 << len(on)
	cell := func(c int) [3]int32 {
		k := base
		for j, i := range on {
			k[i] += int32(c >> j & 1)
		}
		return k
	}
	// from and into: the cells the segment leaves and enters at p, as
	// masks over the 2^len(on) cells.
	var from, into uint32
	for c := range n {
		leaves, enters := true, true
		for j, i := range on {
			above := c>>j&1 == 1
			switch {
			case d[i] > 0:
				leaves, enters = leaves && !above, enters && above
			case d[i] < 0:
				leaves, enters = leaves && above, enters && !above
			}
		}
		if free(cell(c)) {
			if leaves {
				from |= 1 << c
			}
			if enters {
				into |= 1 << c
			}
		}
	}
	// Spread from through free cells that share a face.
	reach := from
	for grew := true; grew; {
		grew = false
		for c := range n {
			if reach&(1<<c) == 0 {
				continue
			}
			for j := range on {
				nb := c ^ 1<<j
				if reach&(1<<nb) == 0 && free(cell(nb)) {
					reach |= 1 << nb
					grew = true
				}
			}
		}
	}
	return reach&into == 0
}

// TestStraightPathNoPinch: on small random maps, thick with single
// blocked voxels, no segment of a path StraightPath returns passes
// between blocked voxels through an edge or corner (pinches): aerial
// 9×9×4 maps, and flat ground maps 12×12.
func TestStraightPathNoPinch(t *testing.T) {
	for _, c := range []struct {
		name    string
		w, h, d int32
		cfg     Config
	}{
		{"aerial", 9, 9, 4, Config{Mode: Aerial, Tile: 4}},
		{"ground", 12, 12, 1, Config{Mode: Ground, Tile: 6, ImplicitFloor: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(31, 32))
			paths, bad := 0, 0
			levels := map[int32]bool{0: true} // the ground maps' one level
			for range 400 {
				g := newGrid(c.w, c.h, c.d)
				density := 2 + rng.IntN(3) // in 10
				for i := range g.cost {
					if rng.IntN(10) < density {
						g.cost[i] = voxel.Lethal
					}
				}
				cfg := c.cfg
				cfg.Bounds = g.box
				m, err := New(g, cfg)
				require.NoError(t, err)
				isCell := cellTest(m, g)
				astar := planners.NewAStar(m)
				var pts [][3]float64
				for range 20 {
					a, na, ok1 := randomCell(rng, m)
					b, nb, ok2 := randomCell(rng, m)
					if !ok1 || !ok2 {
						break
					}
					var route []planners.NodeID
					if route, pts = straightPath(t, m, astar, a, na, b, nb, pts); route == nil {
						continue
					}
					paths++
					for i := 1; i < len(pts); i++ {
						if ps := pinches(m, pts[i-1], pts[i], levels, isCell); len(ps) > 0 {
							bad++
							if bad <= 3 {
								t.Errorf("segment %v → %v is pinched at %v", pts[i-1], pts[i], ps)
							}
						}
					}
				}
			}
			t.Logf("%d paths, %d pinched segments", paths, bad)
			require.Zero(t, bad)
			require.Greater(t, paths, 4000)
		})
	}
}
