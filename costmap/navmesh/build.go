package navmesh

import (
	"github.com/navnode/navnode/costmap/voxel"
)

// buildScratch is reused by every tile build.
type buildScratch struct {
	cell []uint8  // per voxel of the tile: 0 not a cell (or taken), band+1 otherwise, | stacked
	col  []uint8  // Ground: one column's costs, from Bounds.Min.Z−1 to Bounds.Max.Z+Headroom−1
	out  []Region // the tile's regions
}

// stacked marks a Ground cell whose column holds another cell within
// MaxStep levels of it. Such a cell is a region of its own: a rectangle
// grown over it could overlap, seen from above, a region on the other
// level, and the two meet their neighbours along edges a single portal
// cannot describe (the cells under a slab and those on it, both a step
// from the cells beside them). It takes headroom below MaxStep.
const stacked = 0x80

// decompose returns the regions of the tile box tb, in a canonical order
// that depends on the tile's cells only: a greedy cover by boxes, each
// grown from its lowest free cell (z, then y, then x) along x, then y,
// then (Aerial) z, as far as cells of its band that no earlier box took
// reach. The same cells always give the same regions, which is what makes
// a rebuilt tile equal to a freshly built one.
func (m *Mesh) decompose(tb voxel.Box) []Region {
	s := &m.scratch
	w, h, d := tb.Max.X-tb.Min.X+1, tb.Max.Y-tb.Min.Y+1, tb.Max.Z-tb.Min.Z+1
	n := int(w) * int(h) * int(d)
	s.cell = append(s.cell[:0], make([]uint8, n)...)
	if m.cfg.Mode == Ground {
		m.classifyGround(tb)
	} else {
		m.classifyAerial(tb)
	}
	s.out = s.out[:0]
	at := func(x, y, z int32) int { return int(x) + int(w)*(int(y)+int(h)*int(z)) }
	for z := range d {
		for y := range h {
			for x := range w {
				v := s.cell[at(x, y, z)]
				if v == 0 {
					continue
				}
				x1, y1, grow := x, y, v&stacked == 0
				for grow && x1+1 < w && s.cell[at(x1+1, y, z)] == v {
					x1++
				}
				for grow && y1+1 < h && s.rowIs(at(x, y1+1, z), at(x1, y1+1, z), v) {
					y1++
				}
				z1 := z
				for m.cfg.Mode == Aerial && z1+1 < d && s.rectIs(at, x, x1, y, y1, z1+1, v) {
					z1++
				}
				for zz := z; zz <= z1; zz++ {
					for yy := y; yy <= y1; yy++ {
						clear(s.cell[at(x, yy, zz) : at(x1, yy, zz)+1])
					}
				}
				band := v&^stacked - 1
				s.out = append(s.out, Region{
					Cells: voxel.Box{
						Min: voxel.Key{X: tb.Min.X + x, Y: tb.Min.Y + y, Z: tb.Min.Z + z},
						Max: voxel.Key{X: tb.Min.X + x1, Y: tb.Min.Y + y1, Z: tb.Min.Z + z1},
					},
					Band:   band,
					Weight: m.cfg.weight(band),
				})
			}
		}
	}
	return s.out
}

// rowIs reports whether cells i..j (one row) all hold v.
func (s *buildScratch) rowIs(i, j int, v uint8) bool {
	for _, c := range s.cell[i : j+1] {
		if c != v {
			return false
		}
	}
	return true
}

// rectIs reports whether the cells x0..x1 × y0..y1 of layer z all hold v.
func (s *buildScratch) rectIs(at func(x, y, z int32) int, x0, x1, y0, y1, z int32, v uint8) bool {
	for y := y0; y <= y1; y++ {
		if !s.rowIs(at(x0, y, z), at(x1, y, z), v) {
			return false
		}
	}
	return true
}

// classifyAerial marks every passable voxel of tb with its band + 1.
func (m *Mesh) classifyAerial(tb voxel.Box) {
	s, i := &m.scratch, 0
	for z := tb.Min.Z; z <= tb.Max.Z; z++ {
		for y := tb.Min.Y; y <= tb.Max.Y; y++ {
			for x := tb.Min.X; x <= tb.Max.X; x++ {
				if c := m.src.Cost(voxel.Key{X: x, Y: y, Z: z}); c <= m.cfg.MaxCost {
					s.cell[i] = m.cfg.band(c) + 1
				}
				i++
			}
		}
	}
}

// classifyGround marks every walkable cell of tb (a whole column of the
// bounds) with its band + 1.
func (m *Mesh) classifyGround(tb voxel.Box) {
	s, cfg := &m.scratch, &m.cfg
	w, h := int(tb.Max.X-tb.Min.X+1), int(tb.Max.Y-tb.Min.Y+1)
	lo, hi := tb.Min.Z-1, tb.Max.Z+cfg.Headroom-1
	for y := tb.Min.Y; y <= tb.Max.Y; y++ {
		for x := tb.Min.X; x <= tb.Max.X; x++ {
			s.col = s.col[:0]
			for z := lo; z <= hi; z++ {
				s.col = append(s.col, m.src.Cost(voxel.Key{X: x, Y: y, Z: z}))
			}
			last := int32(-1 << 30) // the level of the column's last cell
			for z := tb.Min.Z; z <= tb.Max.Z; z++ {
				if band, ok := m.walkable(s.col[z-tb.Min.Z:], z == cfg.Bounds.Min.Z); ok {
					i := int(x-tb.Min.X) + w*(int(y-tb.Min.Y)+h*int(z-tb.Min.Z))
					s.cell[i] = band + 1
					if z-last <= cfg.MaxStep {
						s.cell[i] |= stacked
						s.cell[int(x-tb.Min.X)+w*(int(y-tb.Min.Y)+h*int(last-tb.Min.Z))] |= stacked
					}
					last = z
				}
			}
		}
	}
}

// walkable decides a Ground cell from its column's costs: col[0] is the
// voxel below the cell, col[1] the cell, col[1+k] k voxels above it.
func (m *Mesh) walkable(col []uint8, bottom bool) (uint8, bool) {
	cfg := &m.cfg
	c := col[1]
	if c > cfg.MaxCost {
		return 0, false
	}
	if col[0] != voxel.Lethal && !(bottom && cfg.ImplicitFloor) {
		return 0, false
	}
	for _, above := range col[2 : 1+cfg.Headroom] {
		if above == voxel.Lethal {
			return 0, false
		}
	}
	return cfg.band(c), true
}
