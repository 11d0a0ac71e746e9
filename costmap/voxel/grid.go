package voxel

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"
)

// Grid is a 2D occupancy grid (nav_msgs/OccupancyGrid's content) to
// extrude over a z band as the static layer. Applying a Grid replaces the
// static layer.
type Grid struct {
	Width, Height int       // cells
	Resolution    float64   // metres per cell
	Origin        r3.Vector // map-frame position of cell (0,0)'s outer corner, metres (Z unused)
	Yaw           float64   // rotation of the grid about the map's z axis, radians
	// Cells are row-major from the origin, [len = Width·Height]: -1 unknown,
	// 0..100 occupancy probability in percent.
	Cells []int8
	// ZMin, ZMax bound the band of voxels the grid fills, map frame, metres:
	// every voxel overlapping [ZMin, ZMax) takes its column's state.
	ZMin, ZMax float64
	// OccupiedThreshold: cells ≥ it are occupied, other known cells free;
	// 0 means 100, Nav2's static layer default (lethal_cost_threshold).
	OccupiedThreshold int
	// Unknown says what -1 cells become.
	Unknown UnknownAs
}

// UnknownAs is the treatment of unknown grid cells.
type UnknownAs int

const (
	UnknownStays      UnknownAs = iota // unknown voxels (cost 255), as Nav2's track_unknown_space
	UnknownIsFree                      // free
	UnknownIsOccupied                  // obstacles
)

// maxGridCells bounds a grid: 2^28 cells (16384²).
const maxGridCells = 1 << 28

// A grid may cover at most maxColumnsPerCell voxel columns per cell (16
// along each axis: 0.8 m cells on a 0.05 m map), or gridColumnsFloor
// columns in all (a 200 m square at 0.1 m), whichever is more, and never
// more than 4·maxGridCells: the static layer holds a byte per column, so
// a grid's cost stays in proportion to the message, and a few cells of a
// huge resolution cannot make the map allocate gigabytes.
const (
	maxColumnsPerCell = 256
	gridColumnsFloor  = 1 << 22
)

func (g *Grid) apply(m *Map) error {
	cols, err := g.columns(m.frame)
	if err != nil {
		return err
	}
	m.replaceStatic(staticLayer{cols: cols})
	return nil
}

func (g *Grid) validate() error {
	switch {
	case g.Width <= 0 || g.Height <= 0 || g.Width > maxGridCells/g.Height: // not Width·Height, which can wrap
		return fmt.Errorf("%w: grid of %d×%d cells", ErrInput, g.Width, g.Height)
	case len(g.Cells) != g.Width*g.Height:
		return fmt.Errorf("%w: grid of %d×%d cells has %d values", ErrInput, g.Width, g.Height, len(g.Cells))
	case !(g.Resolution > 0) || math.IsInf(g.Resolution, 0):
		return fmt.Errorf("%w: grid resolution %v", ErrInput, g.Resolution)
	case !finite(g.Origin) || math.IsNaN(g.Yaw) || math.IsInf(g.Yaw, 0):
		return fmt.Errorf("%w: grid origin %v yaw %v", ErrInput, g.Origin, g.Yaw)
	case !(g.ZMax > g.ZMin) || math.IsInf(g.ZMax-g.ZMin, 0):
		return fmt.Errorf("%w: extrusion band [%v, %v)", ErrInput, g.ZMin, g.ZMax)
	case g.OccupiedThreshold < 0 || g.OccupiedThreshold > 100:
		return fmt.Errorf("%w: occupied threshold %d", ErrInput, g.OccupiedThreshold)
	case g.Unknown < UnknownStays || g.Unknown > UnknownIsOccupied:
		return fmt.Errorf("%w: unknown-cell treatment %d", ErrInput, g.Unknown)
	}
	for i, v := range g.Cells {
		if v < -1 || v > 100 {
			return fmt.Errorf("%w: grid cell %d (column %d, row %d) is %d: want -1 or 0..100", ErrInput, i, i%g.Width, i/g.Width, v)
		}
	}
	return nil
}

// state returns the occupancy state of one cell value.
func (g *Grid) state(v int8) uint8 {
	threshold := g.OccupiedThreshold
	if threshold == 0 {
		threshold = 100
	}
	switch {
	case v < 0:
		return [...]uint8{unknown, free, occupied}[g.Unknown]
	case int(v) >= threshold:
		return occupied
	}
	return free
}

// columns resamples the grid to voxel columns, conservatively: a column is
// occupied if any cell overlapping it (with positive area) is, unknown if
// any is unknown (and none occupied), free only if every overlapping cell
// is free.
func (g *Grid) columns(f Frame) (*columns, error) {
	if err := g.validate(); err != nil {
		return nil, err
	}
	const eps = 1e-9
	res := f.Resolution
	zlo := math.Floor((g.ZMin-f.Origin.Z)/res + eps)
	zhi := math.Ceil((g.ZMax-f.Origin.Z)/res-eps) - 1
	sin, cos := math.Sincos(g.Yaw)
	// The cell corners' extent, in voxel units.
	corner := func(i, j float64) (float64, float64) {
		x := g.Origin.X + (i*cos-j*sin)*g.Resolution
		y := g.Origin.Y + (i*sin+j*cos)*g.Resolution
		return (x - f.Origin.X) / res, (y - f.Origin.Y) / res
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{0, 0}, {float64(g.Width), 0}, {0, float64(g.Height)}, {float64(g.Width), float64(g.Height)}} {
		x, y := corner(c[0], c[1])
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	box := Box{
		Min: Key{int32(math.Floor(minX + eps)), int32(math.Floor(minY + eps)), int32(zlo)},
		Max: Key{int32(math.Ceil(maxX-eps) - 1), int32(math.Ceil(maxY-eps) - 1), int32(zhi)},
	}
	if !(math.Abs(minX) < MaxCoord && math.Abs(maxX) < MaxCoord && math.Abs(minY) < MaxCoord &&
		math.Abs(maxY) < MaxCoord && math.Abs(zlo) < MaxCoord && math.Abs(zhi) < MaxCoord) || box.Empty() {
		return nil, fmt.Errorf("%w: grid extent %v..%v (voxels) is outside the world or empty", ErrInput, box.Min, box.Max)
	}
	vol := int64(box.Max.X-box.Min.X+1) * int64(box.Max.Y-box.Min.Y+1)
	if cells := int64(g.Width) * int64(g.Height); vol > min(max(maxColumnsPerCell*cells, gridColumnsFloor), 4*maxGridCells) {
		return nil, fmt.Errorf("%w: a grid of %d cells at %v m covers %d voxel columns of %v m: more than %d per cell",
			ErrInput, cells, g.Resolution, vol, f.Resolution, maxColumnsPerCell)
	}
	c := &columns{box: box, w: box.Max.X - box.Min.X + 1}
	c.state = make([]uint8, int(c.w)*int(box.Max.Y-box.Min.Y+1))
	if g.alignedWith(f) && int(c.w) == g.Width && len(c.state) == len(g.Cells) {
		// One cell per column, in the same order.
		var lut [256]uint8
		for v := -1; v <= 100; v++ {
			lut[uint8(int8(v))] = g.state(int8(v))
		}
		for i, v := range g.Cells {
			c.state[i] = lut[uint8(v)]
		}
		return c, nil
	}
	seen := make([]bool, len(c.state))
	rank := [...]uint8{free: 0, unknown: 1, occupied: 2} // conservative precedence
	cells := g.cellCoords(f)
	for j := range g.Height {
		for i := range g.Width {
			s := g.state(g.Cells[i+j*g.Width])
			x0, x1, y0, y1 := g.cellSpan(corner, float64(i), float64(j))
			for y := max(int32(math.Floor(y0+eps)), box.Min.Y); y <= min(int32(math.Ceil(y1-eps))-1, box.Max.Y); y++ {
				for x := max(int32(math.Floor(x0+eps)), box.Min.X); x <= min(int32(math.Ceil(x1-eps))-1, box.Max.X); x++ {
					if g.Yaw != 0 && !cells.overlaps(x, y, i, j) {
						continue // in the cell's bounding box, not in the turned cell
					}
					at := (x - box.Min.X) + (y-box.Min.Y)*c.w
					if !seen[at] || rank[s] > rank[c.state[at]] {
						c.state[at], seen[at] = s, true
					}
				}
			}
		}
	}
	return c, nil
}

// alignedWith reports whether the grid's cells are the frame's voxel
// columns: no rotation, the same resolution, an origin on a voxel corner.
func (g *Grid) alignedWith(f Frame) bool {
	const eps = 1e-9
	onCorner := func(v float64) bool { return math.Abs(v-math.Round(v)) < 1e-6 }
	return g.Yaw == 0 && math.Abs(g.Resolution-f.Resolution) < eps*f.Resolution &&
		onCorner((g.Origin.X-f.Origin.X)/f.Resolution) && onCorner((g.Origin.Y-f.Origin.Y)/f.Resolution)
}

// cellCoords maps voxel corners into the grid's cell coordinates, where
// cell (i, j) spans [i, i+1] × [j, j+1]: corner (x, y) is at
// (i0 + x·ix + y·iy, j0 + x·jx + y·jy).
type cellCoords struct {
	i0, ix, iy, j0, jx, jy float64
}

func (g *Grid) cellCoords(f Frame) cellCoords {
	sin, cos := math.Sincos(g.Yaw)
	k := f.Resolution / g.Resolution
	ox, oy := (f.Origin.X-g.Origin.X)/g.Resolution, (f.Origin.Y-g.Origin.Y)/g.Resolution
	return cellCoords{
		i0: ox*cos + oy*sin, ix: k * cos, iy: k * sin,
		j0: -ox*sin + oy*cos, jx: -k * sin, jy: k * cos,
	}
}

// overlaps reports whether voxel column (x, y) and cell (i, j) overlap
// with positive area. With their bounding boxes overlapping, the only
// axes left that could separate the two squares are the cell's own.
func (c cellCoords) overlaps(x, y int32, i, j int) bool {
	const eps = 1e-9
	span := func(o, dx, dy float64, lo int) bool {
		a := o + float64(x)*dx + float64(y)*dy
		return a+max(dx, 0)+max(dy, 0) > float64(lo)+eps && a+min(dx, 0)+min(dy, 0) < float64(lo+1)-eps
	}
	return span(c.i0, c.ix, c.iy, i) && span(c.j0, c.jx, c.jy, j)
}

// cellSpan returns the extent of cell (i, j) in voxel units.
func (g *Grid) cellSpan(corner func(i, j float64) (float64, float64), i, j float64) (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{i, j}, {i + 1, j}, {i, j + 1}, {i + 1, j + 1}} {
		x, y := corner(c[0], c[1])
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	return
}
