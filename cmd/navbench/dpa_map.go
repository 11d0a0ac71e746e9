package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// dpaMap is the planar lattice the DPA* experiment plans on, built from a
// map_server map.
type dpaMap struct {
	l      *planners.Lattice
	cell   float64           // metres per lattice cell
	fineW  int               // map cells across, before downsampling
	fineH  int               // map cells down, before downsampling
	free   []planners.NodeID // the largest connected set of free cells
	inMain []bool            // [len = NumNodes]: in free
	rng    *rand.Rand
}

// loadDPAMap reads the map at yamlPath, merges it into cells of about
// cell metres (a lattice cell is blocked when any map cell in it is not
// known free: occupancy ≥ 50 or unknown), grows the obstacles by inflate
// metres, and finds the largest connected free area, where starts, goals
// and obstacles go.
func loadDPAMap(yamlPath string, cell, inflate float64, rng *rand.Rand) (*dpaMap, error) {
	g, err := voxel.LoadMapServer(yamlPath)
	if err != nil {
		return nil, err
	}
	k := 1
	if cell > 0 {
		k = max(1, int(math.Round(cell/g.Resolution)))
	}
	w, h := (g.Width+k-1)/k, (g.Height+k-1)/k
	l, err := planners.NewLattice(w, h, 1, true)
	if err != nil {
		return nil, err
	}
	m := &dpaMap{l: l, cell: float64(k) * g.Resolution, fineW: g.Width, fineH: g.Height, rng: rng}
	blocked := make([]bool, w*h)
	for y := range g.Height {
		for x := range g.Width {
			if v := g.Cells[x+y*g.Width]; v < 0 || v >= 50 {
				blocked[x/k+y/k*w] = true
			}
		}
	}
	r := inflate / m.cell
	ri := int(math.Ceil(r - 1e-9))
	for y := range h {
		for x := range w {
			if !blocked[x+y*w] {
				continue
			}
			for dy := -ri; dy <= ri; dy++ {
				for dx := -ri; dx <= ri; dx++ {
					if float64(dx*dx+dy*dy) <= r*r+1e-9 {
						if v := l.ID(int32(x+dx), int32(y+dy), 0); v != planners.None {
							l.SetBlocked(v, true)
						}
					}
				}
			}
		}
	}
	m.largestComponent()
	if len(m.free) < 2 {
		return nil, fmt.Errorf("dpa: %s: no free area after inflating by %v m", yamlPath, inflate)
	}
	return m, nil
}

// largestComponent fills free and inMain with the largest set of free
// cells connected by lattice moves.
func (m *dpaMap) largestComponent() {
	l := m.l
	n := l.NumNodes()
	label := make([]int32, n)
	var queue []planners.NodeID
	var edges []planners.Edge
	var best []planners.NodeID
	next := int32(0)
	for s := range planners.NodeID(n) {
		if label[s] != 0 || l.Blocked(s) {
			continue
		}
		next++
		label[s] = next
		queue = append(queue[:0], s)
		for i := 0; i < len(queue); i++ {
			edges = l.Successors(queue[i], edges[:0])
			for _, e := range edges {
				if label[e.To] == 0 {
					label[e.To] = next
					queue = append(queue, e.To)
				}
			}
		}
		if len(queue) > len(best) {
			best = append(best[:0], queue...)
		}
	}
	m.free = best
	m.inMain = make([]bool, n)
	for _, v := range best {
		m.inMain[v] = true
	}
}

// cellBox is an inclusive box of lattice cells.
type cellBox struct{ lo, hi [3]int32 }

func (b cellBox) holds(x, y int32) bool {
	return x >= b.lo[0] && x <= b.hi[0] && y >= b.lo[1] && y <= b.hi[1]
}

// placeObstacle picks a square of side cells whose cells all lie in the
// main free area, and returns it and the square grown by grow cells
// (clamped to the map): what the obstacle blocks once inflated.
func (m *dpaMap) placeObstacle(side, grow int32) (square, blocks cellBox, err error) {
	l := m.l
	if side > l.W || side > l.H {
		return square, blocks, fmt.Errorf("dpa: an obstacle of %d cells does not fit a %d×%d map", side, l.W, l.H)
	}
	for range 100000 {
		x0, y0 := m.rng.Int32N(l.W-side+1), m.rng.Int32N(l.H-side+1)
		ok := true
		for y := y0; y < y0+side && ok; y++ {
			for x := x0; x < x0+side && ok; x++ {
				ok = m.inMain[l.ID(x, y, 0)]
			}
		}
		if !ok {
			continue
		}
		square = cellBox{lo: [3]int32{x0, y0, 0}, hi: [3]int32{x0 + side - 1, y0 + side - 1, 0}}
		blocks = cellBox{lo: [3]int32{max(0, x0-grow), max(0, y0-grow), 0},
			hi: [3]int32{min(l.W-1, x0+side-1+grow), min(l.H-1, y0+side-1+grow), 0}}
		return square, blocks, nil
	}
	return square, blocks, fmt.Errorf("dpa: no free square of %d cells found", side)
}

// insert blocks the free cells of b and returns them.
func (m *dpaMap) insert(b cellBox, dst []planners.NodeID) []planners.NodeID {
	dst = dst[:0]
	for y := b.lo[1]; y <= b.hi[1]; y++ {
		for x := b.lo[0]; x <= b.hi[0]; x++ {
			if v := m.l.ID(x, y, 0); !m.l.Blocked(v) {
				m.l.SetBlocked(v, true)
				dst = append(dst, v)
			}
		}
	}
	return dst
}

// remove frees cells again.
func (m *dpaMap) remove(cells []planners.NodeID) {
	for _, v := range cells {
		m.l.SetBlocked(v, false)
	}
}

// visible reports whether the straight segment between the centres of
// cells a and the point (px, py) (cell units; cell (x, y) is the square
// of side 1 around (x, y)) crosses only free cells of the map: whether a
// robot at a sees the point. It walks the cells the segment enters
// (Amanatides–Woo); where it passes exactly through a corner, both cells
// beside the corner must be free, as for a diagonal move.
func (m *dpaMap) visible(a planners.NodeID, px, py float64) bool {
	ax, ay, _ := m.l.Cell(a)
	x, y := ax, ay
	dx, dy := px-float64(ax), py-float64(ay)
	sx, nextX, deltaX := ddaAxis(dx)
	sy, nextY, deltaY := ddaAxis(dy)
	for {
		if !m.freeCell(x, y) {
			return false
		}
		t := min(nextX, nextY)
		if t >= 1 {
			return true
		}
		switch {
		case nextX < nextY:
			x, nextX = x+sx, nextX+deltaX
		case nextY < nextX:
			y, nextY = y+sy, nextY+deltaY
		default: // through a corner
			if !m.freeCell(x+sx, y) || !m.freeCell(x, y+sy) {
				return false
			}
			x, nextX = x+sx, nextX+deltaX
			y, nextY = y+sy, nextY+deltaY
		}
	}
}

// ddaAxis returns, for a segment of extent d along one axis starting at
// a cell's centre, the step direction, the segment parameter at which it
// leaves the cell on that axis and the parameter per cell after that
// (+Inf for d = 0).
func ddaAxis(d float64) (step int32, next, delta float64) {
	switch {
	case d > 0:
		return 1, 0.5 / d, 1 / d
	case d < 0:
		return -1, -0.5 / d, -1 / d
	}
	return 0, math.Inf(1), math.Inf(1)
}

// freeCell reports whether (x, y) is a free cell of the map.
func (m *dpaMap) freeCell(x, y int32) bool {
	v := m.l.ID(x, y, 0)
	return v != planners.None && !m.l.Blocked(v)
}

// pair picks a start and a goal in the main free area, apart and outside
// box; with see, the start must see (sx, sy). It gives up after a million
// draws.
func (m *dpaMap) pair(box cellBox, see bool, sx, sy float64) (planners.NodeID, planners.NodeID, error) {
	draws := 0
	pick := func() (planners.NodeID, bool) {
		for ; draws < maxDraws; draws++ {
			v := m.free[m.rng.IntN(len(m.free))]
			if x, y, _ := m.l.Cell(v); !box.holds(x, y) {
				return v, true
			}
		}
		return 0, false
	}
	for draws < maxDraws {
		s, ok := pick()
		g, ok2 := pick()
		if !ok || !ok2 {
			break
		}
		if s != g && (!see || m.visible(s, sx, sy)) {
			return s, g, nil
		}
		draws++
	}
	if see {
		return 0, 0, fmt.Errorf("dpa: no start found outside the obstacle that sees it at (%.0f, %.0f)", sx, sy)
	}
	return 0, 0, fmt.Errorf("dpa: no start and goal found apart and outside the obstacle at (%.0f, %.0f)", sx, sy)
}

// maxDraws bounds the random draws of one start and goal pair.
const maxDraws = 1_000_000
