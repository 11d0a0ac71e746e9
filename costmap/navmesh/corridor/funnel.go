package corridor

import "fmt"

// Funnel returns the shortest path in the xy plane from start to goal
// through the route's portals, appended to dst[:0]: start, the corners
// (portal endpoints where the path bends), then goal. It is the "simple
// stupid funnel" form (Mononen 2010) of Lee and Preparata's funnel
// algorithm (1984), for ground robots (2.5D).
//
// regions[i] and regions[i+1] must touch along portals[i], which must be a
// segment in xy (degenerate in x or in y) or a single point; its z extent
// is ignored. Left and right are taken from the direction of travel, from
// regions[i] to regions[i+1], so the caller orients nothing. start must
// lie in regions[0] and goal in regions[len(regions)−1] (not checked);
// either may lie on a portal.
//
// The path is the shortest when the corridor is simple (regions that are
// not consecutive do not touch). A corner's z is its portal's Min[2];
// start and goal keep theirs. Corners where the path does not turn in xy
// (collinear or repeated points) are dropped, so the result has at least
// two points, start first and goal last, even when start == goal.
//
// It runs in O(len(portals)) time for most routes, O(len(portals)²) at
// worst, and allocates only when dst must grow. It panics if
// len(regions) != len(portals)+1, if a portal spans an area in xy, or if
// two consecutive regions do not lie on opposite sides of their portal.
func Funnel(start, goal Point, regions, portals []Box, dst []Point) []Point {
	checkRoute(regions, portals)
	dst = append(dst[:0], start)
	var f funnel
	f.restart(vertex{start, -1})
	for i := 0; i <= len(portals); i++ {
		l, r := goal, goal // the last "portal" is the goal itself
		if i < len(portals) {
			l, r = ends(&regions[i], &regions[i+1], &portals[i], i)
		}
		if f.narrow(0, &r, i) || f.narrow(1, &l, i) {
			dst = append(dst, f.apex.p) // a corner
			i = f.apex.at               // resume with the portal after it
		}
	}
	return straighten(append(dst, goal))
}

// vertex is a funnel vertex: a point and the index of the portal it lies on
// (−1 for start).
type vertex struct {
	p  Point
	at int
}

// funnel is the wedge from apex between the rays to side[0] (right) and
// side[1] (left), as seen in the direction of travel.
type funnel struct {
	apex vertex
	side [2]vertex
}

// restart makes e the apex of an empty funnel.
func (f *funnel) restart(e vertex) {
	f.apex = e
	f.side = [2]vertex{e, e}
}

// narrow offers p, portal at's endpoint on side k (0 right, 1 left). A p
// outside the funnel on side k is ignored; one inside, or on side k's
// ray, becomes side k. narrow reports whether the funnel closed: p lies on
// or beyond the other side's ray, whose point becomes the apex (a
// corner), or p is the apex, which becomes the apex again, now on portal
// at (the path crosses that portal without moving). With k = 0 and k = 1
// it is the two halves of Mononen's loop body ("update right vertex",
// "update left vertex"), with two degenerate cases made explicit: p at
// the apex, and p collinear with the sides of a half-plane funnel.
func (f *funnel) narrow(k int, p *Point, at int) bool {
	s := 1 - 2*float64(k) // +1: inside is left of the right ray
	a, near, far := &f.apex.p, &f.side[k].p, &f.side[1-k].p
	switch {
	case sameXY(a, p):
		f.restart(vertex{*p, at})
	case s*cross(a, near, p) < 0:
		return false // widens the funnel
	case sameXY(a, near) || !beyond(a, far, p, s):
		f.side[k] = vertex{*p, at}
		return false
	default:
		f.restart(f.side[1-k])
	}
	return true
}

// beyond reports whether p lies past the ray a→far, on the side s (+1
// left, −1 right) of it, or on the ray at or past far. A p on the ray
// short of far, or on the opposite ray (when the funnel is a half-plane,
// its apex on a portal), is not beyond.
func beyond(a, far, p *Point, s float64) bool {
	if c := s * cross(a, far, p); c != 0 {
		return c > 0
	}
	fx, fy := far[0]-a[0], far[1]-a[1]
	return fx*(p[0]-a[0])+fy*(p[1]-a[1]) >= fx*fx+fy*fy
}

// ends returns portal p's endpoints in xy, left then right as seen moving
// from region a to region b, at height p.Min[2]. i is the portal's index,
// for panics.
func ends(a, b, p *Box, i int) (left, right Point) {
	z := p.Min[2]
	lo := Point{p.Min[0], p.Min[1], z}
	switch x, y := p.Min[0] == p.Max[0], p.Min[1] == p.Max[1]; {
	case x && y:
		return lo, lo
	case x: // crossed along ±x; left of +x is +y
		hi := Point{p.Min[0], p.Max[1], z}
		if travel(a, b, 0, p.Min[0], i) > 0 {
			return hi, lo
		}
		return lo, hi
	case y: // crossed along ±y; left of +y is −x
		hi := Point{p.Max[0], p.Min[1], z}
		if travel(a, b, 1, p.Min[1], i) > 0 {
			return lo, hi
		}
		return hi, lo
	}
	panic(fmt.Sprintf("corridor: portal %d %v is not a segment in xy", i, *p))
}

// travel returns the direction, +1 or −1, of the move from region a to
// region b across a portal at s on axis ax; it panics unless a lies on
// one side of s and b on the other.
func travel(a, b *Box, ax int, s float64, i int) float64 {
	switch {
	case a.Max[ax] <= s && s <= b.Min[ax]:
		return 1
	case b.Max[ax] <= s && s <= a.Min[ax]:
		return -1
	}
	panic(fmt.Sprintf("corridor: regions %d and %d are not on opposite sides of portal %d", i, i+1, i))
}

// cross is the z component of (b−a)×(c−a): positive when c lies left of
// the ray a→b in xy, zero when the three are collinear.
func cross(a, b, c *Point) float64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

// sameXY reports whether a and b coincide in xy.
func sameXY(a, b *Point) bool { return a[0] == b[0] && a[1] == b[1] }

// straighten drops, in place, the interior points of path where it does
// not turn in xy: repeats and points between collinear neighbours. The
// first and last points stay.
func straighten(path []Point) []Point {
	last := len(path) - 1
	k := 1 // path[:k] is kept
	for i := 1; i < last; i++ {
		a, b, c := &path[k-1], &path[i], &path[i+1]
		ahead := (b[0]-a[0])*(c[0]-b[0])+(b[1]-a[1])*(c[1]-b[1]) >= 0
		if cross(a, b, c) == 0 && ahead {
			continue
		}
		path[k] = *b
		k++
	}
	path[k] = path[last]
	return path[:k+1]
}
