package sim

import (
	"fmt"
	"slices"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
)

// World is what the simulated robot moves in: static geometry (shapes, a
// map_server map extruded to walls, a Moving AI voxel map) and dynamic
// obstacles, by id, that a scenario adds, moves and deletes. Ray casting
// (Raycast) and collision tests (Collides) see all of it. There is no
// ground plane: rays that miss everything return nothing, as navnode
// does not filter ground returns. A World is not safe for concurrent use.
type World struct {
	Name   string // built-in name or world file path
	Bounds Bounds // the simulated volume: the planning volume navnode is given
	Start  *r3.Vector
	Static []Shape // boxes, cylinders and spheres of the world file

	MapFile    string      // map_server YAML file, "" without a map
	Grid       *voxel.Grid // its occupancy grid (published on /map); nil without a map
	WallHeight float64     // walls of the map are this tall from Bounds.Min.Z, metres

	MovingAI   string    // Moving AI .3dmap file, "" without one
	Resolution float64   // its voxel edge, metres
	Origin     r3.Vector // map-frame position of its voxel (0, 0, 0)'s outer corner

	static []solid
	cols   *columns
	vox    *voxels
	dyn    []solid // dynamic obstacles, by id
}

// Obstacle is a dynamic obstacle: a shape under an id.
type Obstacle struct {
	ID    string
	Shape Shape
}

// newWorld prepares a world whose exported fields are filled in.
func newWorld(w *World, vox *voxel.StaticVoxels) (*World, error) {
	for i, s := range w.Static {
		if err := s.Check(); err != nil {
			return nil, fmt.Errorf("%w: %s: static shape %d: %v", ErrWorld, w.Name, i, err)
		}
		w.static = append(w.static, prepare(s, ""))
	}
	if w.Grid != nil {
		if !(w.WallHeight > 0 && w.WallHeight <= maxExtent) {
			return nil, fmt.Errorf("%w: %s: wall_height %v: want (0, %g] m", ErrWorld, w.Name, w.WallHeight, float64(maxExtent))
		}
		w.cols = newColumns(w.Grid, w.Bounds.Min.Z, w.Bounds.Min.Z+w.WallHeight)
	}
	if vox != nil {
		w.vox = newVoxels(vox, w.Origin, w.Resolution)
	}
	b := w.Bounds
	if !finiteVec(b.Min) || !finiteVec(b.Max) || !(b.Min.X < b.Max.X && b.Min.Y < b.Max.Y && b.Min.Z < b.Max.Z) ||
		b.Size().X > 1000 || b.Size().Y > 1000 || b.Size().Z > 1000 {
		return nil, fmt.Errorf("%w: %s: bounds %v..%v: want min < max, at most 1000 m apart", ErrWorld, w.Name, fmtVec(b.Min), fmtVec(b.Max))
	}
	if w.Start != nil && !b.Contains(*w.Start) {
		return nil, fmt.Errorf("%w: %s: start %v is outside the bounds", ErrWorld, w.Name, fmtVec(*w.Start))
	}
	return w, nil
}

// Put adds dynamic obstacle id, or replaces it.
func (w *World) Put(id string, s Shape) error {
	if err := s.Check(); err != nil {
		return fmt.Errorf("obstacle %q: %w", id, err)
	}
	p := prepare(s, id)
	i, found := w.find(id)
	if found {
		w.dyn[i] = p
	} else {
		w.dyn = slices.Insert(w.dyn, i, p)
	}
	return nil
}

// Delete removes dynamic obstacle id and reports whether it was there.
func (w *World) Delete(id string) bool {
	i, found := w.find(id)
	if found {
		w.dyn = slices.Delete(w.dyn, i, i+1)
	}
	return found
}

// Obstacle returns dynamic obstacle id.
func (w *World) Obstacle(id string) (Shape, bool) {
	i, found := w.find(id)
	if !found {
		return Shape{}, false
	}
	return w.dyn[i].Shape, true
}

// Obstacles returns the dynamic obstacles in id order.
func (w *World) Obstacles() []Obstacle {
	out := make([]Obstacle, len(w.dyn))
	for i, s := range w.dyn {
		out[i] = Obstacle{ID: s.id, Shape: s.Shape}
	}
	return out
}

func (w *World) find(id string) (int, bool) {
	return slices.BinarySearchFunc(w.dyn, id, func(s solid, id string) int {
		switch {
		case s.id < id:
			return -1
		case s.id > id:
			return 1
		}
		return 0
	})
}

// Raycast returns the distance from o along direction dir (normalised
// here) to the first surface within maxRange, or false when there is
// none. A ray from inside an obstacle hits at 0.
func (w *World) Raycast(o, dir r3.Vector, maxRange float64) (float64, bool) {
	n := dir.Norm()
	if !(n > 0) || !finiteVec(o) || !finite(n) || !(maxRange > 0) {
		return 0, false
	}
	d := dir.Mul(1 / n)
	best, found := maxRange, false
	try := func(t float64, ok bool) {
		if ok && t <= best {
			best, found = t, true
		}
	}
	for i := range w.static {
		try(w.static[i].raycast(o, d, best))
	}
	for i := range w.dyn {
		try(w.dyn[i].raycast(o, d, best))
	}
	if w.cols != nil {
		try(w.cols.raycast(o, d, best))
	}
	if w.vox != nil {
		try(w.vox.raycast(o, d, best))
	}
	return best, found
}

// Static names static geometry in what Collides returns.
const Static = "static"

// Collides reports whether body b at pos touches anything, and what: the
// id of a dynamic obstacle, or Static.
func (w *World) Collides(b Body, pos r3.Vector) (string, bool) { return w.collidesExcept(b, pos, nil) }

// collidesExcept is Collides leaving out the dynamic obstacles whose ids
// skip reports (nil: none).
func (w *World) collidesExcept(b Body, pos r3.Vector, skip func(id string) bool) (string, bool) {
	if !finiteVec(pos) {
		return Static, true
	}
	for i := range w.dyn {
		if (skip == nil || !skip(w.dyn[i].id)) && b.touches(pos, &w.dyn[i]) {
			return w.dyn[i].id, true
		}
	}
	if w.collidesStatic(b, pos) {
		return Static, true
	}
	return "", false
}

// collidesStatic is Collides for the static geometry only.
func (w *World) collidesStatic(b Body, pos r3.Vector) bool {
	for i := range w.static {
		if b.touches(pos, &w.static[i]) {
			return true
		}
	}
	return (w.cols != nil && w.cols.touches(b, pos)) || (w.vox != nil && w.vox.touches(b, pos))
}
