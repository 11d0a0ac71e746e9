package navmesh

import (
	"errors"
	"fmt"

	"github.com/navnode/navnode/costmap/navmesh/corridor"
	"github.com/navnode/navnode/planners"
)

// ErrRoute is a route StraightPath cannot follow: empty, through a region
// no longer live, between regions that are not neighbours, or with start
// or goal outside its end regions.
var ErrRoute = errors.New("navmesh: invalid route")

// pathScratch is reused by StraightPath.
type pathScratch struct {
	regions, portals []corridor.Box
}

// StraightPath returns a short path of straight segments from start to
// goal (cell coordinates) through route, the regions a planner found on
// the mesh from start's region to goal's, appended to dst[:0]: in Ground
// mode the funnel algorithm's (the shortest in xy through the route's
// portals; corners take their portal's level), with any stretch that runs
// along an obstacle's face moved half a cell off it (corridor.OffFaces);
// in Aerial mode the portal shortcut's (legal, never longer than the
// polyline through the portals; see corridor.Shortcut). Every segment
// lies inside the route's regions.
func (m *Mesh) StraightPath(start, goal [3]float64, route []planners.NodeID, dst [][3]float64) ([][3]float64, error) {
	if len(route) == 0 {
		return dst[:0], fmt.Errorf("%w: no regions", ErrRoute)
	}
	s := &m.path
	s.regions, s.portals = s.regions[:0], s.portals[:0]
	for i, n := range route {
		r, ok := m.Region(n)
		if !ok {
			return dst[:0], fmt.Errorf("%w: region %d (step %d) is not live", ErrRoute, n, i)
		}
		s.regions = append(s.regions, cellBox(r))
		if i == 0 {
			continue
		}
		lo, hi, ok := m.Portal(route[i-1], n)
		if !ok {
			return dst[:0], fmt.Errorf("%w: regions %d and %d (step %d) are not neighbours", ErrRoute, route[i-1], n, i)
		}
		s.portals = append(s.portals, corridor.Box{Min: lo, Max: hi})
	}
	first, last := s.regions[0], s.regions[len(s.regions)-1]
	if m.cfg.Mode == Ground { // levels: compare in xy
		start[2], goal[2] = first.Min[2]+0.5, last.Min[2]+0.5
	}
	if !inBox(start, first) || !inBox(goal, last) {
		return dst[:0], fmt.Errorf("%w: start %v or goal %v outside the route's end regions", ErrRoute, start, goal)
	}
	if m.cfg.Mode == Ground {
		dst = corridor.Funnel(start, goal, s.regions, s.portals, dst)
		return corridor.OffFaces(dst, s.regions), nil
	}
	dst = corridor.Shortcut(start, goal, s.regions, s.portals, dst)
	return corridor.OffFaces3D(dst, s.regions), nil
}

// cellBox is the space a region's cells fill, in cell coordinates: half a
// cell beyond the centres of its outer cells.
func cellBox(r Region) corridor.Box {
	c := r.Cells
	return corridor.Box{
		Min: [3]float64{float64(c.Min.X) - 0.5, float64(c.Min.Y) - 0.5, float64(c.Min.Z) - 0.5},
		Max: [3]float64{float64(c.Max.X) + 0.5, float64(c.Max.Y) + 0.5, float64(c.Max.Z) + 0.5},
	}
}

func inBox(p [3]float64, b corridor.Box) bool {
	for i := range 3 {
		if !(p[i] >= b.Min[i] && p[i] <= b.Max[i]) {
			return false
		}
	}
	return true
}
