package replanner

import (
	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// smooth returns the published path for the raw path rem (start node
// first): from, the robot's point in rem[0]'s voxel, then the centres of
// the raw path's corners, then to, the goal point in the last node's
// voxel, shortened by line of sight: a waypoint is dropped when the
// segment that skips it touches only passable lattice cells (lineOfSight).
//
// Consecutive raw cells are a legal lattice move, whose bounding box is
// passable, so the chain through their centres has line of sight and the
// greedy shortening below always finds a next waypoint. Its ends, from
// and to, are off-centre: a segment from one to a centre leaves the
// voxel's faces at once, but one from one to the other (a path of one or
// two voxels) can run along a face plane, touching the voxel beyond it,
// and goes through the centres when it does.
func (l *Loop) smooth(from r3.Vector, rem []planners.NodeID, to r3.Vector) []r3.Vector {
	pts := l.corners(from, rem, to)
	if len(pts) == 2 && !l.lineOfSight(from, to) {
		pts = pts[:1]
		for _, n := range rem {
			pts = append(pts, l.nodeCentre(n))
		}
		pts = append(pts, to)
	}
	out := make([]r3.Vector, 0, 8)
	out = append(out, pts[0])
	anchor := pts[0]
	for i := 1; i < len(pts)-1; i++ {
		if !l.lineOfSight(anchor, pts[i+1]) {
			anchor = pts[i]
			out = append(out, anchor)
		}
	}
	if last := pts[len(pts)-1]; len(pts) > 1 {
		out = append(out, last)
	}
	return out
}

// lineOfSight reports whether every voxel the segment from a to b touches
// (voxel.Frame.Supercover, which checks a diagonal as the lattice's
// no-corner-cutting rule does, so no staircase is left where a straight
// segment is free) is a passable lattice cell: in the Volume, of cost ≤
// MaxCost, or Unknown with UnknownIsFree. It asks the lattice, not the
// map, so that voxels nothing has observed count as the search counted
// them: asking the map (Unknown above MaxCost) kept every corner of a
// path through unobserved space, the common case with UnknownIsFree.
func (l *Loop) lineOfSight(a, b r3.Vector) bool {
	clear := true
	l.frame.Supercover(a, b, func(k voxel.Key) bool {
		n := l.g.id(k)
		clear = n != planners.None && l.g.Passable(n)
		return clear
	})
	return clear
}

// corners returns from, the centres of the interior nodes of rem where
// the path turns, and to. Dropping the nodes inside a straight run
// changes no segment: the run's steps are one straight line.
func (l *Loop) corners(from r3.Vector, rem []planners.NodeID, to r3.Vector) []r3.Vector {
	pts := []r3.Vector{from}
	for i := 1; i+1 < len(rem); i++ {
		ax, ay, az := l.g.Cell(rem[i-1])
		bx, by, bz := l.g.Cell(rem[i])
		cx, cy, cz := l.g.Cell(rem[i+1])
		if bx-ax == cx-bx && by-ay == cy-by && bz-az == cz-bz && i > 1 {
			continue // inside a straight run (i = 1 is kept: from is off-centre)
		}
		pts = append(pts, l.nodeCentre(rem[i]))
	}
	if len(rem) > 2 {
		// the last interior node is kept too: to is off-centre
		if c := l.nodeCentre(rem[len(rem)-2]); c != pts[len(pts)-1] {
			pts = append(pts, c)
		}
	}
	return append(pts, to)
}
