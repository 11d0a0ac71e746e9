package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/planners"
)

// maxSpaceCells bounds a Space's lattice.
const maxSpaceCells = 1 << 25

// Space is a robot's configuration space in a world, for the optimal
// path a mission is compared with and for keeping random missions
// solvable. It is a lattice of cubes of the scenario's resolution over
// the world's bounds (ground robots: one layer, at the height of the
// robot's base; aerial robots: the layers whose centres lie between the
// altitude limits navnode is given). A cell is blocked when the robot's
// body placed at its centre touches an obstacle: the obstacles grown by
// the robot's shape, exactly, at the cells' centres. Moves are the
// planners.Lattice's: 26-connected (8 in the plane), no corner cutting.
//
// Path measures with planners.LazyTheta (any-angle: the sum of straight
// segments between cell centres in line of sight, the shortest path in
// the grown world up to the lattice's resolution) or planners.AStar
// (lattice moves only: longer by up to 8% in the plane). Lengths run
// between the centres of the cells holding the two ends.
type Space struct {
	w      *World
	body   Body
	res    float64
	min    r3.Vector // centre of cell (0, 0, 0)
	n      [3]int32  // cells along x, y, z
	static bitset    // cells blocked by static geometry
	lat    *planners.Lattice
	astar  *planners.AStar
	theta  *planners.LazyTheta
	buf    []planners.NodeID
}

// NewSpace builds the configuration space of body in w at resolution
// res, its layers between zlo and zhi (ground robots: the one layer at
// zlo).
func NewSpace(w *World, body Body, res, zlo, zhi float64) (*Space, error) {
	size := w.Bounds.Size()
	if !(res > 0) || !(zhi >= zlo) {
		return nil, fmt.Errorf("sim: space at resolution %v between heights %v and %v", res, zlo, zhi)
	}
	s := &Space{w: w, body: body, res: res}
	s.n = [3]int32{int32(max(1, math.Floor(size.X/res))), int32(max(1, math.Floor(size.Y/res))), 1}
	s.min = w.Bounds.Min.Add(r3.Vector{X: res / 2, Y: res / 2})
	s.min.Z = zlo
	if !body.Cylinder {
		s.n[2] = int32(math.Floor((zhi-zlo)/res)) + 1
	}
	cells := int64(s.n[0]) * int64(s.n[1]) * int64(s.n[2])
	if cells > maxSpaceCells {
		return nil, fmt.Errorf("sim: a space of %d cells is too large (at most %d): raise the resolution", cells, maxSpaceCells)
	}
	var err error
	if s.lat, err = planners.NewLattice(int(s.n[0]), int(s.n[1]), int(s.n[2]), body.Cylinder); err != nil {
		return nil, err
	}
	s.astar, s.theta = planners.NewAStar(s.lat), planners.NewLazyTheta(s.lat)
	s.static = newBitset(int(cells))
	for id := range int(cells) {
		if w.collidesStatic(body, s.centre(planners.NodeID(id))) {
			s.static.set(id)
		}
	}
	return s, nil
}

// centre returns the centre of cell n.
func (s *Space) centre(n planners.NodeID) r3.Vector {
	x, y, z := s.lat.Cell(n)
	return s.min.Add(r3.Vector{X: float64(x), Y: float64(y), Z: float64(z)}.Mul(s.res))
}

// cellOf returns the cell holding p, clamped into the lattice.
func (s *Space) cellOf(p r3.Vector) [3]int32 {
	q := p.Sub(s.min).Mul(1 / s.res)
	var c [3]int32
	for i, v := range [3]float64{q.X, q.Y, q.Z} {
		c[i] = int32(clamp(math.Round(v), 0, float64(s.n[i]-1)))
	}
	return c
}

// sync blocks the lattice's cells: the static ones and those the
// world's dynamic obstacles block now.
func (s *Space) sync() {
	for id := range s.lat.NumNodes() {
		s.lat.SetBlocked(planners.NodeID(id), s.static.get(id))
	}
	lo, hi := s.body.reach()
	for i := range s.w.dyn {
		d := &s.w.dyn[i]
		a, b := s.cellOf(d.box.Min.Sub(hi)), s.cellOf(d.box.Max.Add(lo))
		for z := a[2]; z <= b[2]; z++ {
			for y := a[1]; y <= b[1]; y++ {
				for x := a[0]; x <= b[0]; x++ {
					id := s.lat.ID(x, y, z)
					if !s.lat.Blocked(id) && s.body.touches(s.centre(id), d) {
						s.lat.SetBlocked(id, true)
					}
				}
			}
		}
	}
}

// nearestFree returns the free cell nearest p within two cells of the
// one holding it, or planners.None.
func (s *Space) nearestFree(p r3.Vector) planners.NodeID {
	c := s.cellOf(p)
	best, bestD := planners.None, math.Inf(1)
	for dz := int32(-2); dz <= 2; dz++ {
		for dy := int32(-2); dy <= 2; dy++ {
			for dx := int32(-2); dx <= 2; dx++ {
				id := s.lat.ID(c[0]+dx, c[1]+dy, c[2]+dz)
				if id == planners.None || s.lat.Blocked(id) {
					continue
				}
				if d := s.centre(id).Sub(p).Norm(); d < bestD {
					best, bestD = id, d
				}
			}
		}
	}
	return best
}

// Path returns the length of the shortest collision-free path from a to
// b in the world as it is now (dynamic obstacles included), metres, and
// its waypoints; any-angle (Lazy Theta*) or along lattice moves (A*). It
// returns ErrNoPath when there is none, or when an end has no free cell
// within two cells.
func (s *Space) Path(a, b r3.Vector, anyAngle bool) (float64, []r3.Vector, error) {
	s.sync()
	from, to := s.nearestFree(a), s.nearestFree(b)
	if from == planners.None || to == planners.None {
		return 0, nil, fmt.Errorf("%w: an end is inside an obstacle (grown by the robot)", ErrNoPath)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res planners.Result
	var err error
	if anyAngle {
		res, err = s.theta.Plan(ctx, from, to, s.buf)
	} else {
		res, err = s.astar.Plan(ctx, from, to, s.buf)
	}
	s.buf = res.Path[:0]
	if errors.Is(err, planners.ErrNoPath) {
		return 0, nil, fmt.Errorf("%w: %v", ErrNoPath, err)
	}
	if err != nil {
		return 0, nil, err
	}
	pts := make([]r3.Vector, len(res.Path))
	for i, id := range res.Path {
		pts[i] = s.centre(id)
	}
	return res.Cost * s.res, pts, nil
}
