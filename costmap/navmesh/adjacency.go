package navmesh

import (
	"math"

	"github.com/navnode/navnode/planners"
)

// portal returns the opening between regions a and b, in cell
// coordinates, and whether they are neighbours. Aerial boxes are
// neighbours when they share part of a face; Ground rectangles when they
// share part of an edge and their levels differ by at most MaxStep. The
// portal is the shared face or edge on the boundary between the two,
// shrunk by half a cell at each end so that it runs between the centres
// of the end cells: a straight path through it stays inside the two
// regions. A Ground portal lies at the higher of the two levels.
func (m *Mesh) portal(a, b *Region) (lo, hi [3]float64, ok bool) {
	amin, amax := a.Cells.Min, a.Cells.Max
	bmin, bmax := b.Cells.Min, b.Cells.Max
	alo := [3]int32{amin.X, amin.Y, amin.Z}
	ahi := [3]int32{amax.X, amax.Y, amax.Z}
	blo := [3]int32{bmin.X, bmin.Y, bmin.Z}
	bhi := [3]int32{bmax.X, bmax.Y, bmax.Z}
	axes := 3
	if m.cfg.Mode == Ground {
		if d := alo[2] - blo[2]; d > m.cfg.MaxStep || -d > m.cfg.MaxStep {
			return lo, hi, false
		}
		axes = 2
	}
	touch := -1
	for i := range axes {
		if ahi[i]+1 == blo[i] || bhi[i]+1 == alo[i] {
			if touch >= 0 {
				return lo, hi, false // they meet along an edge or at a corner only
			}
			touch = i
		} else if max(alo[i], blo[i]) > min(ahi[i], bhi[i]) {
			return lo, hi, false // apart along axis i
		}
	}
	if touch < 0 {
		return lo, hi, false // overlapping or apart
	}
	side := float64(ahi[touch]) + 0.5
	if bhi[touch]+1 == alo[touch] {
		side = float64(alo[touch]) - 0.5
	}
	for i := range axes {
		if i == touch {
			lo[i], hi[i] = side, side
			continue
		}
		lo[i], hi[i] = float64(max(alo[i], blo[i])), float64(min(ahi[i], bhi[i]))
	}
	if axes == 2 {
		lo[2] = float64(max(alo[2], blo[2]))
		hi[2] = lo[2]
	}
	return lo, hi, true
}

// edgeCost is the cost of moving from a's centre to b's through their
// portal [lo, hi]: a's weight times the distance from a's centre to the
// portal point q nearest the midpoint of the two centres, plus b's weight
// times the distance from q to b's centre. The segments lie inside a and
// b (convex), so the cost is that of a real path; being at least the
// distance between the centres, it keeps the Euclidean heuristic
// consistent.
func edgeCost(a, b *region, lo, hi [3]float64) float64 {
	var q [3]float64
	for i := range 3 {
		q[i] = min(max((a.centre[i]+b.centre[i])/2, lo[i]), hi[i])
	}
	return a.Weight*dist(a.centre, q) + b.Weight*dist(q, b.centre)
}

func dist(p, q [3]float64) float64 {
	dx, dy, dz := p[0]-q[0], p[1]-q[1], p[2]-q[2]
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// Portal returns the opening between neighbouring live regions a and b in
// cell coordinates (a box with the crossing axis degenerate; see portal),
// and false when they are not neighbours.
func (m *Mesh) Portal(a, b planners.NodeID) (lo, hi [3]float64, ok bool) {
	ra, oka := m.Region(a)
	rb, okb := m.Region(b)
	if !oka || !okb {
		return lo, hi, false
	}
	return m.portal(&ra, &rb)
}
