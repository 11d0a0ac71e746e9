package navmesh

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/navmesh/corridor"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// pathLengthBound is the documented bound on StraightPath's length
// against the voxel lattice's A* cost between the same cells (see the
// README): the mesh route is optimal for the region graph, not for the
// voxels, so its corridor can be a longer one.
const (
	pathLengthRatio = 1.25
	pathLengthSlack = 4.0 // cells
)

// TestStraightPath: on random pairs of cells after random edits, the path
// through the mesh route is legal (each segment inside the route's
// regions, and every point of it inside a free cell's box) and at most
// pathLengthBound times the voxel lattice's A* cost.
func TestStraightPath(t *testing.T) {
	for _, w := range testWorlds() {
		t.Run(w.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 12))
			m, err := New(w.g, w.cfg)
			require.NoError(t, err)
			var d Delta
			ctx := context.Background()
			astar := planners.NewAStar(m)
			isCell := cellTest(m, w.g)
			var pts [][3]float64
			worst, sum, n, excess, worstLong := 0.0, 0.0, 0, 0.0, 0.0
			for round := range 10 {
				for range 10 {
					cs := newChangeSet()
					w.edit(rng, w.g, cs)
					m.Update(cs, &d)
				}
				lat, cellID := cellLattice(t, m, w.g)
				latA := planners.NewAStar(lat)
				for range 40 {
					a, na, ok1 := randomCell(rng, m)
					b, nb, ok2 := randomCell(rng, m)
					if !ok1 || !ok2 {
						break
					}
					var route []planners.NodeID
					if route, pts = straightPath(t, m, astar, a, na, b, nb, pts); route == nil {
						continue
					}
					ka, kb := keyPoint(a), keyPoint(b)
					require.Equal(t, ka[:2], pts[0][:2])
					require.Equal(t, kb[:2], pts[len(pts)-1][:2])
					checkLegal(t, m, route, pts, isCell)
					if lat == nil {
						continue
					}
					want, err := latA.Plan(ctx, cellID(a), cellID(b), nil)
					require.NoError(t, err, "round %d: mesh connects %v and %v, lattice does not", round, a, b)
					got := corridor.Length(pts)
					ratio := got / math.Max(want.Cost, 1)
					worst, sum, n = max(worst, ratio), sum+ratio, n+1
					excess = max(excess, got-want.Cost*pathLengthRatio)
					if want.Cost > 20 {
						worstLong = max(worstLong, ratio)
					}
				}
			}
			if n > 0 {
				t.Logf("path/lattice A*: mean %.3f, worst %.3f (%.3f beyond 20 cells) over %d pairs; worst excess over %.2f·A*: %.2f cells",
					sum/float64(n), worst, worstLong, n, pathLengthRatio, excess)
				require.LessOrEqual(t, excess, pathLengthSlack)
			}
		})
	}
}

// straightPath plans on the mesh from cell a (region na) to b (nb) and
// returns the route and StraightPath's path along it, appended to
// pts[:0]; the route is nil when there is no path.
func straightPath(t *testing.T, m *Mesh, astar *planners.AStar, a voxel.Key, na planners.NodeID, b voxel.Key, nb planners.NodeID, pts [][3]float64) ([]planners.NodeID, [][3]float64) {
	t.Helper()
	res, err := astar.Plan(context.Background(), na, nb, nil)
	if err != nil {
		return nil, pts
	}
	pts, err = m.StraightPath(keyPoint(a), keyPoint(b), res.Path, pts)
	require.NoError(t, err)
	return res.Path, pts
}

func keyPoint(k voxel.Key) [3]float64 { return [3]float64{float64(k.X), float64(k.Y), float64(k.Z)} }

// checkLegal checks that every segment of pts lies in the route's regions,
// that points sampled every 1/20 cell along it lie in cells, and that it
// neither runs along an obstacle's face nor passes a pinch.
func checkLegal(t *testing.T, m *Mesh, route []planners.NodeID, pts [][3]float64, isCell func(voxel.Key) (uint8, bool)) {
	t.Helper()
	var boxes []corridor.Box
	levels := map[int32]bool{}
	for _, n := range route {
		r, ok := m.Region(n)
		require.True(t, ok)
		boxes = append(boxes, cellBox(r))
		levels[r.Cells.Min.Z] = true
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if m.cfg.Mode == Ground {
			a[2], b[2] = 0, 0
			for j := range boxes {
				boxes[j].Min[2], boxes[j].Max[2] = -1, 1
			}
		}
		require.True(t, corridor.InCorridor(a, b, boxes), "segment %v → %v leaves the route", a, b)
		steps := int(math.Ceil(dist(a, b)*20)) + 1
		for s := 0; s <= steps; s++ {
			f := float64(s) / float64(steps)
			p := [3]float64{a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1]), a[2] + f*(b[2]-a[2])}
			require.True(t, inSomeCell(m, p, levels, isCell), "point %v of segment %v → %v is in no cell", p, a, b)
		}
		requireOffFaces(t, m, a, b, levels, isCell)
		require.Empty(t, pinches(m, a, b, levels, isCell), "segment %v → %v passes between blocked cells", a, b)
	}
}

// requireOffFaces fails when the segment a→b runs along a face between
// cells (a line x or y = k + ½) with no cell on one side of it: along an
// obstacle's face, or the edge of the map.
func requireOffFaces(t *testing.T, m *Mesh, a, b [3]float64, levels map[int32]bool, isCell func(voxel.Key) (uint8, bool)) {
	t.Helper()
	for ax := range 3 {
		if a[ax] != b[ax] || a[ax]-math.Floor(a[ax]) != 0.5 {
			continue
		}
		steps := int(math.Ceil(dist(a, b)*20)) + 1
		for s := 1; s < steps; s++ {
			f := float64(s) / float64(steps)
			for _, d := range [2]float64{-0.01, 0.01} {
				p := [3]float64{a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1]), a[2] + f*(b[2]-a[2])}
				p[ax] += d
				require.True(t, inSomeCell(m, p, levels, isCell), "segment %v → %v runs along a face: %v is in no cell", a, b, p)
			}
		}
	}
}

// inSomeCell reports whether p lies in the closed box of a cell (Ground:
// in xy, on one of the levels).
func inSomeCell(m *Mesh, p [3]float64, levels map[int32]bool, isCell func(voxel.Key) (uint8, bool)) bool {
	const eps = 1e-9
	span := func(v float64) (int32, int32) {
		return int32(math.Floor(v + 0.5 - eps)), int32(math.Ceil(v - 0.5 + eps))
	}
	x0, x1 := span(p[0])
	y0, y1 := span(p[1])
	z0, z1 := span(p[2])
	for x := min(x0, x1); x <= max(x0, x1); x++ {
		for y := min(y0, y1); y <= max(y0, y1); y++ {
			if m.cfg.Mode == Ground {
				for z := range levels {
					if _, ok := isCell(voxel.Key{X: x, Y: y, Z: z}); ok {
						return true
					}
				}
				continue
			}
			for z := min(z0, z1); z <= max(z0, z1); z++ {
				if _, ok := isCell(voxel.Key{X: x, Y: y, Z: z}); ok {
					return true
				}
			}
		}
	}
	return false
}

// cellLattice returns the voxel lattice of m's cells (nil for Ground
// worlds with several levels, which planners.Lattice does not model).
func cellLattice(t *testing.T, m *Mesh, g *grid) (*planners.Lattice, func(voxel.Key) planners.NodeID) {
	b := m.cfg.Bounds
	w, h, d := b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1, b.Max.Z-b.Min.Z+1
	if m.cfg.Mode == Ground && d > 1 {
		return nil, nil
	}
	isCell := cellTest(m, g)
	l, err := planners.NewLattice(int(w), int(h), int(d), d == 1)
	require.NoError(t, err)
	for z := range d {
		for y := range h {
			for x := range w {
				if _, ok := isCell(voxel.Key{X: b.Min.X + x, Y: b.Min.Y + y, Z: b.Min.Z + z}); !ok {
					l.SetBlocked(l.ID(x, y, z), true)
				}
			}
		}
	}
	return l, func(k voxel.Key) planners.NodeID { return l.ID(k.X-b.Min.X, k.Y-b.Min.Y, k.Z-b.Min.Z) }
}

func TestStraightPathErrors(t *testing.T) {
	w := testWorlds()[2]
	m, err := New(w.g, w.cfg)
	require.NoError(t, err)
	_, err = m.StraightPath([3]float64{}, [3]float64{}, nil, nil)
	require.ErrorIs(t, err, ErrRoute)
	_, err = m.StraightPath([3]float64{}, [3]float64{}, []planners.NodeID{0, planners.NodeID(m.NumNodes() - 1)}, nil)
	require.ErrorIs(t, err, ErrRoute)
	_, err = m.StraightPath([3]float64{-5, -5, 0}, [3]float64{}, []planners.NodeID{0}, nil)
	require.ErrorIs(t, err, ErrRoute)
}

// TestStraightPathFarFromLattice is the map on which the mesh route is
// far from the lattice's (found in review, 2026-11-22; see the README): a
// wall x = 10, y 1..6, with a corridor under it and a gap over its top
// between walls at y = 7. From (9, 6) to (11, 6) the lattice goes over the
// top (cost 4); the region in the gap is tall and its centre far, so the
// mesh route goes under the wall. The path is legal and 14 cells long:
// the shortest through the route's portals, 13, runs along the wall's
// bottom face, and OffFaces moves that stretch half a cell down.
func TestStraightPathFarFromLattice(t *testing.T) {
	g := newGrid(21, 16, 1)
	cs := newChangeSet()
	g.fill(voxel.Box{Min: voxel.Key{X: 10, Y: 1}, Max: voxel.Key{X: 10, Y: 6}}, voxel.Lethal, cs)
	g.fill(voxel.Box{Min: voxel.Key{X: 0, Y: 7}, Max: voxel.Key{X: 8, Y: 7}}, voxel.Lethal, cs)
	g.fill(voxel.Box{Min: voxel.Key{X: 12, Y: 7}, Max: voxel.Key{X: 20, Y: 7}}, voxel.Lethal, cs)
	m, err := New(g, Config{Mode: Ground, Bounds: g.box, ImplicitFloor: true})
	require.NoError(t, err)
	a, b := voxel.Key{X: 9, Y: 6}, voxel.Key{X: 11, Y: 6}
	ctx := context.Background()
	res, err := planners.NewAStar(m).Plan(ctx, m.Locate(a), m.Locate(b), nil)
	require.NoError(t, err)
	pts, err := m.StraightPath(keyPoint(a), keyPoint(b), res.Path, nil)
	require.NoError(t, err)
	checkLegal(t, m, res.Path, pts, cellTest(m, g))
	lat, cellID := cellLattice(t, m, g)
	want, err := planners.NewAStar(lat).Plan(ctx, cellID(a), cellID(b), nil)
	require.NoError(t, err)
	require.InDelta(t, 4, want.Cost, 1e-9)
	require.Equal(t, [][3]float64{{9, 6, 0}, {9, 0, 0}, {11, 0, 0}, {11, 6, 0}}, pts)
	require.InDelta(t, 14, corridor.Length(pts), 1e-9)
}
