package navmesh

import (
	"math"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// Source is what the mesh reads of the world: a voxel's cost.
// *voxel.Map is one.
type Source interface {
	Cost(k voxel.Key) voxel.Cost
}

var _ Source = (*voxel.Map)(nil)

// Region is a convex piece of free space: a box of cells, all passable
// (Aerial) or walkable on one level (Ground, Cells.Min.Z == Cells.Max.Z),
// with costs in one band.
type Region struct {
	Cells  voxel.Box // inclusive
	Band   uint8     // cost band of its cells
	Weight float64   // cost per unit length inside it, ≥ 1
}

// Centre returns the middle of the region in cell coordinates (a cell's
// centre is at its integer key).
func (r Region) Centre() [3]float64 {
	b := r.Cells
	return [3]float64{
		(float64(b.Min.X) + float64(b.Max.X)) / 2,
		(float64(b.Min.Y) + float64(b.Max.Y)) / 2,
		(float64(b.Min.Z) + float64(b.Max.Z)) / 2,
	}
}

// region is a Region and its place in the graph.
type region struct {
	Region
	centre [3]float64
	tile   int32
	live   bool
	edges  []planners.Edge // to live neighbours, symmetric
}

// Mesh is a region graph over a voxel world, kept in step with it tile by
// tile. Its dual graph (regions as nodes, portals as edges) implements
// planners.SpatialGraph in cell coordinates. Node ids are never reused: a
// region replaced by an update keeps its id, not Passable, with no edges,
// so an id from before the update cannot alias a new region. A Mesh
// belongs to one goroutine.
type Mesh struct {
	cfg     Config
	src     Source
	regions []region
	tiles   []tile
	tn      [3]int32 // tiles per axis
	live    int      // live regions

	scratch buildScratch
	delta   deltaScratch
	path    pathScratch
}

// tile holds the live regions built from one tile of voxels.
type tile struct {
	regions []planners.NodeID
}

var _ planners.SpatialGraph = (*Mesh)(nil)

// New builds the mesh of src inside cfg.Bounds.
func New(src Source, cfg Config) (*Mesh, error) {
	cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &Mesh{cfg: cfg, src: src}
	b, t := cfg.Bounds, cfg.Tile
	m.tn = [3]int32{
		(b.Max.X-b.Min.X)/t + 1,
		(b.Max.Y-b.Min.Y)/t + 1,
		1,
	}
	if cfg.Mode == Aerial {
		m.tn[2] = (b.Max.Z-b.Min.Z)/t + 1
	}
	if int64(m.tn[0])*int64(m.tn[1])*int64(m.tn[2]) > 1<<26 {
		return nil, ErrConfig
	}
	m.tiles = make([]tile, int(m.tn[0])*int(m.tn[1])*int(m.tn[2]))
	all := make([]int32, len(m.tiles))
	for i := range all {
		all[i] = int32(i)
	}
	m.rebuild(all)
	return m, nil
}

// Config returns the mesh's configuration, defaults filled in.
func (m *Mesh) Config() Config { return m.cfg }

// Region returns region n, and false when n is not a live region.
func (m *Mesh) Region(n planners.NodeID) (Region, bool) {
	if n < 0 || int(n) >= len(m.regions) || !m.regions[n].live {
		return Region{}, false
	}
	return m.regions[n].Region, true
}

// NumRegions returns the number of live regions.
func (m *Mesh) NumRegions() int { return m.live }

// ForEach calls fn for every live region in id order until it returns
// false.
func (m *Mesh) ForEach(fn func(planners.NodeID, Region) bool) {
	for i := range m.regions {
		if r := &m.regions[i]; r.live && !fn(planners.NodeID(i), r.Region) {
			return
		}
	}
}

// Locate returns the live region holding cell k (Ground: k is the cell's
// level, the free voxel the robot's base is in), or planners.None. It
// looks at k's tile only: O(regions per tile).
func (m *Mesh) Locate(k voxel.Key) planners.NodeID {
	t, ok := m.tileOf(k)
	if !ok {
		return planners.None
	}
	for _, n := range m.tiles[t].regions {
		c := m.regions[n].Cells
		if c.Contains(k) {
			return n
		}
	}
	return planners.None
}

// tileOf returns the index of the tile holding k.
func (m *Mesh) tileOf(k voxel.Key) (int32, bool) {
	b := m.cfg.Bounds
	if m.cfg.Mode == Ground {
		k.Z = b.Min.Z
	}
	if !b.Contains(k) {
		return 0, false
	}
	t := m.cfg.Tile
	x, y, z := (k.X-b.Min.X)/t, (k.Y-b.Min.Y)/t, (k.Z-b.Min.Z)/t
	return x + m.tn[0]*(y+m.tn[1]*z), true
}

// tileBox returns the voxels of tile t, clipped to the bounds (Ground:
// the whole column).
func (m *Mesh) tileBox(t int32) voxel.Box {
	b, e := m.cfg.Bounds, m.cfg.Tile
	x, y, z := t%m.tn[0], t/m.tn[0]%m.tn[1], t/(m.tn[0]*m.tn[1])
	lo := voxel.Key{X: b.Min.X + x*e, Y: b.Min.Y + y*e, Z: b.Min.Z + z*e}
	hi := voxel.Key{X: lo.X + e - 1, Y: lo.Y + e - 1, Z: lo.Z + e - 1}
	if m.cfg.Mode == Ground {
		lo.Z, hi.Z = b.Min.Z, b.Max.Z
	}
	return voxel.Box{Min: lo, Max: hi}.Intersect(b)
}

// NumNodes implements planners.Graph: every region id ever handed out.
func (m *Mesh) NumNodes() int { return len(m.regions) }

// Successors implements planners.Graph.
func (m *Mesh) Successors(n planners.NodeID, dst []planners.Edge) []planners.Edge {
	return append(dst, m.regions[n].edges...)
}

// Predecessors implements planners.Graph; edges are symmetric.
func (m *Mesh) Predecessors(n planners.NodeID, dst []planners.Edge) []planners.Edge {
	return append(dst, m.regions[n].edges...)
}

// Heuristic implements planners.Graph: the Euclidean distance between the
// regions' centres, which no edge path undercuts (see edgeCost).
func (m *Mesh) Heuristic(a, b planners.NodeID) float64 {
	p, q := &m.regions[a].centre, &m.regions[b].centre
	dx, dy, dz := p[0]-q[0], p[1]-q[1], p[2]-q[2]
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// Passable implements planners.Graph: whether n is a live region.
func (m *Mesh) Passable(n planners.NodeID) bool { return m.regions[n].live }

// Position implements planners.SpatialGraph: the region's centre, in cell
// coordinates; a replaced region keeps its old centre.
func (m *Mesh) Position(n planners.NodeID) [3]float64 { return m.regions[n].centre }
