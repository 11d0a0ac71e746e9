package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/sim"
)

// backdrop is the static occupancy of a world's map, projected for the
// two views: the walls of a map_server map (cells at occupancy 100, as
// navsim extrudes them) or the voxels of a Moving AI map.
type backdrop struct {
	what   string     // what it is, for the legend: "walls of depot.yaml"
	origin [2]float64 // map-frame position of cell (0, 0)'s outer corner, metres
	yaw    float64    // the grid's rotation about z, radians
	res    float64    // cell edge, metres
	top    []cellRect // occupied columns seen from above, in the grid's cells
	side   [][4]float64
	// side is what the side view sees, u0, z0, u1, z1 in metres: u along
	// its horizontal axis.
}

// cellRect is a run of cells, inclusive.
type cellRect struct{ x0, y0, x1, y1 int }

// loadBackdrop reads the map a world record names, if any, looking for
// a relative path in dirs in turn. A map that cannot be read gives a
// note saying so instead.
func loadBackdrop(w *sim.WorldRecord, side int, dirs []string) (*backdrop, string) {
	name := w.Map
	if name == "" {
		name = w.MovingAI
	}
	if name == "" {
		return nil, ""
	}
	path, ok := resolve(name, dirs)
	if !ok {
		return nil, fmt.Sprintf("map %s not found (relative paths are tried from %s; see -root): only the shapes are drawn", name, strings.Join(dirs, ", "))
	}
	var b *backdrop
	var err error
	if w.Map != "" {
		b, err = gridBackdrop(path, w, side)
	} else {
		b, err = voxelBackdrop(path, w, side)
	}
	if err != nil {
		return nil, fmt.Sprintf("map %s: %v: only the shapes are drawn", name, err)
	}
	return b, ""
}

// resolve finds a file: an absolute path as it is, a relative one in the
// first of dirs that holds it.
func resolve(name string, dirs []string) (string, bool) {
	if filepath.IsAbs(name) {
		_, err := os.Stat(name)
		return name, err == nil
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// gridBackdrop extrudes a map_server map's walls from the world's floor
// to its wall height.
func gridBackdrop(path string, w *sim.WorldRecord, side int) (*backdrop, error) {
	g, err := voxel.LoadMapServer(path)
	if err != nil {
		return nil, err
	}
	wall := func(x, y int) bool { return g.Cells[x+y*g.Width] >= 100 }
	b := &backdrop{what: "walls of " + filepath.Base(path), origin: [2]float64{g.Origin.X, g.Origin.Y}, yaw: g.Yaw,
		res: g.Resolution, top: mergeRuns(g.Width, g.Height, wall)}
	// Seen from the side, each wall cell covers the span of its corners
	// along the view's axis.
	c, s := math.Cos(g.Yaw), math.Sin(g.Yaw)
	var spans [][2]float64
	for y := range g.Height {
		for x := range g.Width {
			if !wall(x, y) {
				continue
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, d := range [4][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				lx, ly := (float64(x)+d[0])*g.Resolution, (float64(y)+d[1])*g.Resolution
				u := [2]float64{b.origin[0] + c*lx - s*ly, b.origin[1] + s*lx + c*ly}[side]
				lo, hi = min(lo, u), max(hi, u)
			}
			spans = append(spans, [2]float64{lo, hi})
		}
	}
	z0 := w.Bounds.Min[2]
	for _, sp := range mergeSpans(spans) {
		b.side = append(b.side, [4]float64{sp[0], z0, sp[1], z0 + w.WallHeight})
	}
	return b, nil
}

// voxelBackdrop projects a Moving AI map's voxels down and sideways.
func voxelBackdrop(path string, w *sim.WorldRecord, side int) (*backdrop, error) {
	v, err := voxel.LoadMovingAI(path)
	if err != nil {
		return nil, err
	}
	if !(w.Resolution > 0) {
		return nil, fmt.Errorf("no resolution in the log's world line")
	}
	var o [3]float64
	if w.Origin != nil {
		o = *w.Origin
	}
	box := v.Box
	nx, ny, nz := int(box.Max.X-box.Min.X)+1, int(box.Max.Y-box.Min.Y)+1, int(box.Max.Z-box.Min.Z)+1
	nu := [2]int{nx, ny}[side]
	if nx*ny > 1<<24 || nu*nz > 1<<24 {
		return nil, fmt.Errorf("%d×%d×%d voxels: too many to draw", nx, ny, nz)
	}
	top, sv := make([]bool, nx*ny), make([]bool, nu*nz)
	for _, k := range v.Blocked {
		x, y, z := int(k.X-box.Min.X), int(k.Y-box.Min.Y), int(k.Z-box.Min.Z)
		top[x+y*nx] = true
		sv[[2]int{x, y}[side]+z*nu] = true
	}
	b := &backdrop{what: "voxels of " + filepath.Base(path), res: w.Resolution,
		origin: [2]float64{o[0] + float64(box.Min.X)*w.Resolution, o[1] + float64(box.Min.Y)*w.Resolution},
		top:    mergeRuns(nx, ny, func(x, y int) bool { return top[x+y*nx] })}
	u0, z0 := b.origin[side], o[2]+float64(box.Min.Z)*w.Resolution
	for _, r := range mergeRuns(nu, nz, func(u, z int) bool { return sv[u+z*nu] }) {
		b.side = append(b.side, [4]float64{u0 + float64(r.x0)*b.res, z0 + float64(r.y0)*b.res,
			u0 + float64(r.x1+1)*b.res, z0 + float64(r.y1+1)*b.res})
	}
	return b, nil
}

// mergeRuns covers the cells of a w×h raster where on holds with
// rectangles: runs along each row, merged with the run of the same span
// in the row below.
func mergeRuns(w, h int, on func(x, y int) bool) []cellRect {
	var out []cellRect
	open := map[[2]int]int{} // the span of a run in the row below → its rectangle
	for y := range h {
		next := map[[2]int]int{}
		for x := 0; x < w; x++ {
			if !on(x, y) {
				continue
			}
			x1 := x
			for x1+1 < w && on(x1+1, y) {
				x1++
			}
			key := [2]int{x, x1}
			if i, ok := open[key]; ok {
				out[i].y1 = y
				next[key] = i
			} else {
				out = append(out, cellRect{x, y, x1, y})
				next[key] = len(out) - 1
			}
			x = x1
		}
		open = next
	}
	return out
}

// mergeSpans merges overlapping or touching intervals.
func mergeSpans(spans [][2]float64) [][2]float64 {
	slices.SortFunc(spans, func(a, b [2]float64) int {
		switch {
		case a[0] < b[0]:
			return -1
		case a[0] > b[0]:
			return 1
		}
		return 0
	})
	var out [][2]float64
	for _, s := range spans {
		if n := len(out); n > 0 && s[0] <= out[n-1][1]+1e-9 {
			out[n-1][1] = max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}
