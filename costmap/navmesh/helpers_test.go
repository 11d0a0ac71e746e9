package navmesh

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// grid is a dense Source for tests: costs inside box, Unknown outside.
type grid struct {
	box  voxel.Box
	cost []voxel.Cost
}

func newGrid(w, h, d int32) *grid {
	b := voxel.Box{Max: voxel.Key{X: w - 1, Y: h - 1, Z: d - 1}}
	return &grid{box: b, cost: make([]voxel.Cost, int(w)*int(h)*int(d))}
}

func (g *grid) index(k voxel.Key) int {
	w, h := g.box.Max.X+1, g.box.Max.Y+1
	return int(k.X) + int(w)*(int(k.Y)+int(h)*int(k.Z))
}

func (g *grid) Cost(k voxel.Key) voxel.Cost {
	if !g.box.Contains(k) {
		return voxel.Unknown
	}
	return g.cost[g.index(k)]
}

// set changes a voxel and records the change as the costmap would.
func (g *grid) set(k voxel.Key, c voxel.Cost, cs *voxel.ChangeSet) {
	i := g.index(k)
	old := g.cost[i]
	if old == c {
		return
	}
	g.cost[i] = c
	ch := voxel.Change{Voxel: k, Old: old, New: c}
	if c > old {
		cs.Rose = append(cs.Rose, ch)
	} else {
		cs.Fell = append(cs.Fell, ch)
	}
	cs.Bounds = cs.Bounds.Extend(k)
}

// fill sets every voxel of b (clipped) to c.
func (g *grid) fill(b voxel.Box, c voxel.Cost, cs *voxel.ChangeSet) {
	b = b.Intersect(g.box)
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				g.set(voxel.Key{X: x, Y: y, Z: z}, c, cs)
			}
		}
	}
}

func newChangeSet() *voxel.ChangeSet {
	return &voxel.ChangeSet{Bounds: voxel.Box{Min: voxel.Key{X: 1, Y: 1, Z: 1}}}
}

// randomBox returns a box of edge 1..maxEdge inside g (z clamped to zlo..zhi).
func (g *grid) randomBox(rng *rand.Rand, maxEdge int32, zlo, zhi int32) voxel.Box {
	e := func() int32 { return 1 + rng.Int32N(maxEdge) }
	x, y := rng.Int32N(g.box.Max.X+1), rng.Int32N(g.box.Max.Y+1)
	z := zlo + rng.Int32N(zhi-zlo+1)
	return voxel.Box{Min: voxel.Key{X: x, Y: y, Z: z}, Max: voxel.Key{X: x + e() - 1, Y: y + e() - 1, Z: min(z+e()-1, zhi)}}
}

// canonical is a mesh's content without ids: its regions and its edges
// (by the regions they join), sorted.
type canonical struct {
	regions []Region
	edges   []string
}

func canon(m *Mesh) canonical {
	var c canonical
	m.ForEach(func(n planners.NodeID, r Region) bool {
		c.regions = append(c.regions, r)
		for _, e := range m.Successors(n, nil) {
			o, ok := m.Region(e.To)
			if !ok {
				c.edges = append(c.edges, fmt.Sprintf("%v → dead %d", r, e.To))
				continue
			}
			c.edges = append(c.edges, fmt.Sprintf("%v → %v %.12g", r.Cells, o.Cells, e.Cost))
		}
		return true
	})
	slices.SortFunc(c.regions, func(a, b Region) int { return compareBox(a.Cells, b.Cells) })
	slices.Sort(c.edges)
	return c
}

func compareBox(a, b voxel.Box) int {
	for _, p := range [][2]int32{{a.Min.Z, b.Min.Z}, {a.Min.Y, b.Min.Y}, {a.Min.X, b.Min.X}, {a.Max.Z, b.Max.Z}, {a.Max.Y, b.Max.Y}, {a.Max.X, b.Max.X}} {
		if p[0] != p[1] {
			return int(p[0] - p[1])
		}
	}
	return 0
}

// checkCover checks that the regions are made of cells of their band only
// and cover every cell of the bounds exactly once.
func checkCover(t *testing.T, m *Mesh, isCell func(voxel.Key) (uint8, bool)) {
	t.Helper()
	b := m.cfg.Bounds
	owner := map[voxel.Key]planners.NodeID{}
	m.ForEach(func(n planners.NodeID, r Region) bool {
		c := r.Cells
		if m.cfg.Mode == Ground {
			require.Equal(t, c.Min.Z, c.Max.Z, "ground region %v spans levels", c)
		}
		for z := c.Min.Z; z <= c.Max.Z; z++ {
			for y := c.Min.Y; y <= c.Max.Y; y++ {
				for x := c.Min.X; x <= c.Max.X; x++ {
					k := voxel.Key{X: x, Y: y, Z: z}
					band, ok := isCell(k)
					require.True(t, ok, "region %d %v holds %v, not a cell", n, c, k)
					require.Equal(t, r.Band, band, "region %d %v holds %v of another band", n, c, k)
					prev, dup := owner[k]
					require.False(t, dup, "%v in regions %d and %d", k, prev, n)
					owner[k] = n
				}
			}
		}
		return true
	})
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				k := voxel.Key{X: x, Y: y, Z: z}
				if _, ok := isCell(k); ok {
					n, covered := owner[k]
					require.True(t, covered, "cell %v in no region", k)
					require.Equal(t, n, m.Locate(k), "Locate(%v)", k)
				}
			}
		}
	}
}

// cellTest returns the brute-force cell rule of m's configuration.
func cellTest(m *Mesh, src Source) func(voxel.Key) (uint8, bool) {
	cfg := m.cfg
	return func(k voxel.Key) (uint8, bool) {
		c := src.Cost(k)
		if c > cfg.MaxCost {
			return 0, false
		}
		if cfg.Mode == Ground {
			below := src.Cost(k.Add(0, 0, -1)) == voxel.Lethal || (cfg.ImplicitFloor && k.Z == cfg.Bounds.Min.Z)
			if !below {
				return 0, false
			}
			for h := int32(1); h < cfg.Headroom; h++ {
				if src.Cost(k.Add(0, 0, h)) == voxel.Lethal {
					return 0, false
				}
			}
		}
		return cfg.band(c), true
	}
}
