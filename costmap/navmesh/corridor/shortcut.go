package corridor

import "math"

// Shortcut's effort. On 30 000 random flat sleeves, 16 sweeps left the
// path at most 2e-4 (relative) longer than the shortest, and most often
// exact; 4 sweeps left up to 2e-3.
const (
	relaxSweeps  = 16 // most sweeps of relax over the polyline, each O(len(portals))
	refinePasses = 4  // most passes of refine over the corners left by pull
)

// Shortcut returns a short legal path in 3D from start to goal through
// the route's portals, appended to dst[:0]: start, the corners (points on
// portals), then goal. It is Funnel's counterpart for aerial robots.
//
// It builds the portal polyline: start, then on each portal the point
// nearest the previous one (a clamp), then goal. It relaxes it: each
// point slides along its portal toward the line through its neighbours
// when that shortens the path (relax). It pulls the string greedily: from
// an anchor it moves to the farthest later polyline point it can reach
// through an unbroken run of points each seen from the anchor by a
// segment inside the regions between them that passes no pinch (see the
// package doc), and repeats from there (pull). Last, it drops each corner whose neighbours see each other
// and slides the others again, keeping a move only if it shortens the
// path and both new segments stay in the corridor (refine).
//
// Guaranteed, when start lies in regions[0], goal in
// regions[len(regions)−1] and each portal in both its regions: every
// segment lies in the corridor (up to InCorridor's tolerance) and
// passes between regions only through a portal or a shared face (no
// pinch, see the package doc), and the path is never longer than the
// clamped portal polyline (up to rounding).
// Not guaranteed: the exact 3D shortest path. Relaxation is coordinate
// descent, which can stall where two portal points meet at an edge, and
// is cut off after relaxSweeps sweeps; on flat corridors, where Funnel is
// exact, Shortcut came within 2e-4 of it in the tests. The result has at
// least two points, start first and goal last; repeated points are
// dropped.
//
// It costs O(relaxSweeps·len(portals)) for relaxation plus the InCorridor
// tests, O(k²) box clips for a corner that skips k portals. It allocates
// only when dst must grow (it needs len(portals)+2 points of room) and
// panics if len(regions) != len(portals)+1. It does not check
// that portals lie in their regions.
func Shortcut(start, goal Point, regions, portals []Box, dst []Point) []Point {
	checkRoute(regions, portals)
	q := append(dst[:0], start)
	for i := range portals {
		q = append(q, clamp(q[i], &portals[i]))
	}
	q = append(q, goal)
	relax(q, portals)
	pull(q, regions)
	for range refinePasses {
		if !refine(q, regions, portals) {
			break
		}
	}
	return compact(q)
}

// The polyline q has len(regions)+1 points: q[0] is start, q[k] for
// 0 < k < len(regions) lies on portal k−1, and the last is goal. Points
// dropped from it are marked, in place, by a NaN x (gone, next); compact
// removes them at the end. So a kept point's index still names its
// portal, with no second buffer.

// gone reports whether polyline point p has been dropped.
func gone(p Point) bool { return math.IsNaN(p[0]) }

// drop marks polyline point p as dropped.
func drop(p *Point) { p[0] = math.NaN() }

// next returns the index of the first kept point after k; the last point
// is never dropped.
func next(q []Point, k int) int {
	for k++; gone(q[k]); k++ {
	}
	return k
}

// span returns the regions that hold polyline points q[i] and q[j] (i < j)
// and every region between them: q[i] lies in region i, q[j] in region
// j−1.
func span(regions []Box, i, j int) []Box { return regions[i:j] }

// relax slides every polyline point along its portal toward the line
// through its neighbours, keeping only moves that shorten the path, for
// up to relaxSweeps sweeps. Each segment stays between two points of one
// convex region, so the polyline stays legal without tests.
func relax(q []Point, portals []Box) {
	for range relaxSweeps {
		moved := false
		for k := 1; k < len(q)-1; k++ {
			moved = slide(q, k, &portals[k-1]) || moved
		}
		if !moved {
			return
		}
	}
}

// slide moves polyline point q[k], on portal b, toward the line through
// its neighbours if that shortens the path by more than rounding, and
// reports whether it did.
func slide(q []Point, k int, b *Box) bool {
	p, n, was := &q[k-1], &q[k+1], &q[k]
	c := toward(p, n, was, b)
	if c == *was {
		return false
	}
	if dist(p, &c)+dist(&c, n) < (dist(p, was)+dist(was, n))*(1-1e-12) {
		*was = c
		return true
	}
	return false
}

// pull drops polyline points greedily: from anchor a it keeps the last
// point b of the run a+1, a+2, … that a sees, drops the points between,
// and continues from b. q[a]→q[a+1] lies in region a, so b always exists.
func pull(q []Point, regions []Box) {
	last := len(q) - 1
	for a := 0; a < last; {
		b := a + 1
		for j := a + 2; j <= last && inRoute(q[a], q[j], span(regions, a, j), 3); j++ {
			b = j
		}
		for k := a + 1; k < b; k++ {
			drop(&q[k])
		}
		a = b
	}
}

// refine makes one pass over the kept corners, dropping or sliding each
// (see Shortcut), and reports whether it changed anything.
func refine(q []Point, regions, portals []Box) bool {
	changed := false
	last := len(q) - 1
	for p, k := 0, next(q, 0); k < last; k = next(q, k) {
		n := next(q, k)
		if inRoute(q[p], q[n], span(regions, p, n), 3) {
			drop(&q[k])
			changed = true
			continue
		}
		c := toward(&q[p], &q[n], &q[k], &portals[k-1])
		if dist(&q[p], &c)+dist(&c, &q[n]) < dist(&q[p], &q[k])+dist(&q[k], &q[n]) &&
			inRoute(q[p], c, span(regions, p, k), 3) &&
			inRoute(c, q[n], span(regions, k, n), 3) {
			q[k] = c
			changed = true
		}
		p = k
	}
	return changed
}

// toward returns a candidate for corner c on portal b between its
// neighbours p and n, clamped into b: where the segment p→n crosses the
// plane of b's first degenerate axis it is not parallel to, or, if it does
// not cross it, the point of p→n nearest c.
func toward(p, n, c *Point, b *Box) Point {
	d := Point{n[0] - p[0], n[1] - p[1], n[2] - p[2]}
	t := -1.0
	for ax := range 3 {
		if m := b.Min[ax]; m == b.Max[ax] && d[ax] != 0 {
			t = (m - p[ax]) / d[ax]
			break
		}
	}
	if t < 0 || t > 1 {
		dd := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
		if dd == 0 {
			return clamp(*p, b)
		}
		t = ((c[0]-p[0])*d[0] + (c[1]-p[1])*d[1] + (c[2]-p[2])*d[2]) / dd
		t = min(max(t, 0), 1)
	}
	return clamp(Point{p[0] + t*d[0], p[1] + t*d[1], p[2] + t*d[2]}, b)
}

// compact removes the dropped points and repeats from q in place, keeping
// the first and last points.
func compact(q []Point) []Point {
	last := len(q) - 1
	k := 1 // q[:k] is kept
	for i := 1; i < last; i++ {
		if !gone(q[i]) && q[i] != q[k-1] {
			q[k] = q[i]
			k++
		}
	}
	if k > 1 && q[k-1] == q[last] {
		k--
	}
	q[k] = q[last]
	return q[:k+1]
}
