package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// meshWorld is the costmap and the navigation mesh `navbench meshdpa`
// plans on, and where its obstacles, starts and goals may go.
type meshWorld struct {
	vm     *voxel.Map
	mesh   *navmesh.Mesh
	aerial bool
	res    float64   // metres per voxel
	bounds voxel.Box // the voxels the mesh covers

	// What building the mesh took: wall time, and the growth of the live
	// heap (runtime.MemStats.HeapAlloc after a GC) over its regions, an
	// approximation that includes the mesh's scratch buffers.
	build          time.Duration
	bytesPerRegion float64

	// The largest connected part of the mesh without obstacles, as the
	// cell boxes of its regions: region ids change as obstacles come and
	// go, but once an obstacle is deleted the mesh has the same regions
	// again (navmesh builds a tile from its cells only).
	comp  map[voxel.Box]bool
	boxes []voxel.Box
	cum   []int64 // cum[i]: cells of boxes[:i+1]
	rng   *rand.Rand
}

// loadGroundWorld extrudes the map_server map at yamlPath over one voxel
// layer (z = 0, voxels of the map's resolution) under a cylinder robot of
// radius robot metres inflated to inflation metres, and builds a Ground
// mesh over the map's cells on that layer, standing on an implicit floor.
func loadGroundWorld(yamlPath string, robot, inflation float64, tile int32, rng *rand.Rand) (*meshWorld, error) {
	g, err := voxel.LoadMapServer(yamlPath)
	if err != nil {
		return nil, err
	}
	vm, err := voxel.New(voxel.Config{
		Resolution: g.Resolution,
		Origin:     r3.Vector{X: g.Origin.X, Y: g.Origin.Y},
		Robot:      voxel.Robot{Shape: voxel.Cylinder, Radius: robot, Height: g.Resolution, InflationRadius: inflation},
	})
	if err != nil {
		return nil, fmt.Errorf("meshdpa: %s: %w", yamlPath, err)
	}
	g.ZMin, g.ZMax = 0, g.Resolution
	if _, err := vm.Apply(g); err != nil {
		return nil, fmt.Errorf("meshdpa: %s: %w", yamlPath, err)
	}
	w := &meshWorld{vm: vm, res: g.Resolution, rng: rng,
		bounds: voxel.Box{Max: voxel.Key{X: int32(g.Width - 1), Y: int32(g.Height - 1)}}}
	return w, w.buildMesh(navmesh.Config{Mode: navmesh.Ground, Bounds: w.bounds, Tile: tile, ImplicitFloor: true})
}

// loadAerialWorld loads the Moving AI voxel map at path, one file voxel a
// voxel of res metres, under a spherical robot, and builds an Aerial mesh
// over the map's whole box.
func loadAerialWorld(path string, res, robot, inflation float64, tile int32, rng *rand.Rand) (*meshWorld, error) {
	s, err := voxel.LoadMovingAI(path)
	if err != nil {
		return nil, err
	}
	vm, err := voxel.New(voxel.Config{
		Resolution: res,
		Robot:      voxel.Robot{Shape: voxel.Sphere, Radius: robot, InflationRadius: inflation},
	})
	if err != nil {
		return nil, fmt.Errorf("meshdpa: %s: %w", path, err)
	}
	if _, err := vm.Apply(s); err != nil {
		return nil, fmt.Errorf("meshdpa: %s: %w", path, err)
	}
	w := &meshWorld{vm: vm, res: res, aerial: true, rng: rng, bounds: s.Box}
	return w, w.buildMesh(navmesh.Config{Mode: navmesh.Aerial, Bounds: w.bounds, Tile: tile})
}

// buildMesh builds the mesh, measuring it, and finds its largest
// connected part.
func (w *meshWorld) buildMesh(cfg navmesh.Config) error {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	t0 := time.Now()
	mesh, err := navmesh.New(w.vm, cfg)
	if err != nil {
		return fmt.Errorf("meshdpa: %w", err)
	}
	w.build = time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	w.mesh = mesh
	if r := mesh.NumRegions(); r > 0 {
		w.bytesPerRegion = (float64(ms.HeapAlloc) - float64(before)) / float64(r)
	}
	w.largestComponent()
	if len(w.boxes) == 0 || w.cum[len(w.cum)-1] < 2 {
		return fmt.Errorf("meshdpa: the mesh has no free area")
	}
	return nil
}

// largestComponent fills comp, boxes and cum with the connected set of
// regions that holds the most cells.
func (w *meshWorld) largestComponent() {
	m := w.mesh
	seen := make([]bool, m.NumNodes())
	var queue, best []planners.NodeID
	var edges []planners.Edge
	bestCells := int64(-1)
	m.ForEach(func(s planners.NodeID, _ navmesh.Region) bool {
		if seen[s] {
			return true
		}
		seen[s] = true
		queue = append(queue[:0], s)
		cells := int64(0)
		for i := 0; i < len(queue); i++ {
			r, _ := m.Region(queue[i])
			cells += r.Cells.Volume()
			edges = m.Successors(queue[i], edges[:0])
			for _, e := range edges {
				if !seen[e.To] {
					seen[e.To] = true
					queue = append(queue, e.To)
				}
			}
		}
		if cells > bestCells {
			bestCells, best = cells, append(best[:0], queue...)
		}
		return true
	})
	slices.Sort(best) // a canonical order, so that a seed gives the same run
	w.comp = make(map[voxel.Box]bool, len(best))
	w.boxes, w.cum = w.boxes[:0], w.cum[:0]
	total := int64(0)
	for _, n := range best {
		r, _ := m.Region(n)
		total += r.Cells.Volume()
		w.comp[r.Cells] = true
		w.boxes = append(w.boxes, r.Cells)
		w.cum = append(w.cum, total)
	}
}

// meshSize returns the mesh's live regions, its undirected edges and its
// tiles.
func (w *meshWorld) meshSize() (regions, edges, tiles int) {
	var buf []planners.Edge
	w.mesh.ForEach(func(n planners.NodeID, _ navmesh.Region) bool {
		buf = w.mesh.Successors(n, buf[:0])
		edges += len(buf)
		return true
	})
	cfg := w.mesh.Config()
	b, t := cfg.Bounds, cfg.Tile
	tiles = int((b.Max.X-b.Min.X)/t+1) * int((b.Max.Y-b.Min.Y)/t+1)
	if w.aerial {
		tiles *= int((b.Max.Z-b.Min.Z)/t + 1)
	}
	return w.mesh.NumRegions(), edges / 2, tiles
}

// inComp reports whether cell k is a cell of the largest connected part.
func (w *meshWorld) inComp(k voxel.Key) bool {
	n := w.mesh.Locate(k)
	if n == planners.None {
		return false
	}
	r, _ := w.mesh.Region(n)
	return w.comp[r.Cells]
}

// randomCell returns a cell of the largest connected part, every cell
// alike.
func (w *meshWorld) randomCell() voxel.Key {
	i := w.rng.Int64N(w.cum[len(w.cum)-1])
	j, _ := slices.BinarySearch(w.cum, i+1)
	b := w.boxes[j]
	return voxel.Key{
		X: b.Min.X + w.rng.Int32N(b.Max.X-b.Min.X+1),
		Y: b.Min.Y + w.rng.Int32N(b.Max.Y-b.Min.Y+1),
		Z: b.Min.Z + w.rng.Int32N(b.Max.Z-b.Min.Z+1),
	}
}

// meshObstacle is one dynamic obstacle: a box shape of the voxel map.
type meshObstacle struct {
	id      voxel.ShapeID
	solid   *voxel.BoxShape
	cells   voxel.Box // the voxels it occupies
	keepOut voxel.Box // cells no start or goal may take: cells grown by the inflation radius and a cell
	centre  r3.Vector // metres, map frame
}

// placeObstacle picks an obstacle of side voxels a side (Ground: one
// voxel layer tall) whose voxels are all cells of the largest connected
// part. The box is side − ½ voxels wide, centred on them, so that it
// occupies exactly side voxels a side whatever the rounding.
func (w *meshWorld) placeObstacle(o int, side, grow int32) (meshObstacle, error) {
	f := w.vm.Frame()
	height := side
	if !w.aerial {
		height = 1
	}
	for range 100000 {
		c := w.randomCell()
		cells := voxel.Box{Min: c, Max: voxel.Key{X: c.X + side - 1, Y: c.Y + side - 1, Z: c.Z + height - 1}}
		if !w.allInComp(cells) {
			continue
		}
		lo := f.Corner(cells.Min)
		half := r3.Vector{X: float64(side), Y: float64(side), Z: float64(height)}.Mul(w.res / 2)
		size := r3.Vector{X: float64(side) - 0.5, Y: float64(side) - 0.5, Z: float64(height) - 0.5}.Mul(w.res)
		ob := meshObstacle{
			id:     voxel.ShapeID(fmt.Sprintf("meshdpa/%d", o)),
			cells:  cells,
			centre: lo.Add(half),
			keepOut: voxel.Box{Min: cells.Min.Add(-grow, -grow, -grow),
				Max: cells.Max.Add(grow, grow, grow)},
		}
		ob.solid = &voxel.BoxShape{Pose: voxel.Pose{Position: ob.centre, Orientation: voxel.YawQuat(0)}, Size: size}
		return ob, nil
	}
	return meshObstacle{}, fmt.Errorf("meshdpa: no free place found for an obstacle of %d voxels a side", side)
}

// allInComp reports whether every cell of b is in the largest connected
// part.
func (w *meshWorld) allInComp(b voxel.Box) bool {
	if b.Intersect(w.bounds) != b {
		return false
	}
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				if !w.inComp(voxel.Key{X: x, Y: y, Z: z}) {
					return false
				}
			}
		}
	}
	return true
}

// pair picks a start and a goal cell in the largest connected part,
// outside ob's keep-out box and in different regions; with see, the
// start sees ob's centre (the segment between them crosses only
// passable voxels, before the obstacle is inserted). It gives up after
// maxDraws draws.
func (w *meshWorld) pair(ob *meshObstacle, see bool) (start, goal voxel.Key, err error) {
	draws := 0
	pick := func() (voxel.Key, bool) {
		for ; draws < maxDraws; draws++ {
			if k := w.randomCell(); !ob.keepOut.Contains(k) {
				return k, true
			}
		}
		return voxel.Key{}, false
	}
	f := w.vm.Frame()
	for draws < maxDraws {
		s, ok := pick()
		g, ok2 := pick()
		if !ok || !ok2 {
			break
		}
		draws++
		if w.mesh.Locate(s) == w.mesh.Locate(g) {
			continue
		}
		if see && !w.vm.LineOfSight(f.Center(s), ob.centre, w.mesh.Config().MaxCost) {
			continue
		}
		return s, g, nil
	}
	if see {
		return start, goal, fmt.Errorf("meshdpa: no start found outside the obstacle that sees it at %v", ob.cells.Min)
	}
	return start, goal, fmt.Errorf("meshdpa: no start and goal found in different regions outside the obstacle at %v", ob.cells.Min)
}

// keyString formats a cell as x,y (Ground) or x,y,z (Aerial).
func (w *meshWorld) keyString(k voxel.Key) string {
	if w.aerial {
		return fmt.Sprintf("%d,%d,%d", k.X, k.Y, k.Z)
	}
	return fmt.Sprintf("%d,%d", k.X, k.Y)
}

// cells returns the number of voxels of length metres, at least one.
func (w *meshWorld) cells(length float64) int32 {
	return max(1, int32(math.Round(length/w.res)))
}
