package corridor

import "slices"

// faceStep is how far OffFaces moves a stretch off the corridor's
// boundary: half a unit, so that on cell coordinates a stretch on a face
// between cells moves to the centres of the cells beside it.
const faceStep = 0.5

// sideProbe is how far OffFaces looks to each side of a stretch to tell
// which side the corridor is on.
const sideProbe = faceStep / 2

// OffFaces moves each stretch of a Funnel path that runs along the
// corridor's boundary in xy half a unit into the corridor, and returns the
// path, which it changes in place (growing it if need be).
//
// A shortest path touches the boundary only where it bends, except on
// one kind of route: one that crosses a face out of a region and comes
// back across the same face into another region, round the end of an
// obstacle that stops at that face. Its corners on the two portals then
// lie on the face's line, and the stretch between them runs along the
// obstacle, at no distance from it. OffFaces moves both corners half a
// unit to the side where the corridor is (a stretch with corridor on both
// sides is not on the boundary and stays). Where the segment into the
// first corner or out of the second would then leave the corridor (a
// narrow portal), that corner stays and the path steps off the face
// from it and back onto it. Each stretch moved lengthens the path by at
// most one unit. A stretch that cannot move inside the corridor stays;
// start and goal never move.
//
// Only xy counts, as in Funnel: z is ignored, both in the points and in
// the regions. It allocates only when path must grow.
func OffFaces(path []Point, regions []Box) []Point { return offFaces(path, regions, 2) }

// OffFaces3D is OffFaces in 3D, for Shortcut's paths: a stretch between
// two corners that lies in the plane of a face with the corridor on one
// side only moves half a unit off it, along each axis on which it does
// (two at once where it runs along an edge).
func OffFaces3D(path []Point, regions []Box) []Point { return offFaces(path, regions, 3) }

// offFaces is OffFaces on the first axes axes.
func offFaces(path []Point, regions []Box, axes int) []Point {
	for k := 1; k+2 < len(path); k++ {
		if r, n := offFace(path[k-1:k+3], regions, axes); n > 0 {
			path = slices.Replace(path, k, k+2, r[:n]...)
			k += n - 2 // on to the stretch out of the last point put in
		}
	}
	return path
}

// offFace takes four points of a path, s = [prev, p, q, next], and
// returns the n points that replace p and q when the stretch p→q runs
// along the corridor's boundary and can move off it (see OffFaces); n is
// 0 when it stays.
func offFace(s []Point, regions []Box, axes int) (r [4]Point, n int) {
	prev, p, q, next := s[0], s[1], s[2], s[3]
	p2, q2 := p, q
	for ax := range axes {
		if p[ax] == q[ax] {
			d := boundarySide(p, q, ax, regions, axes) * faceStep
			p2[ax] += d
			q2[ax] += d
		}
	}
	if p2 == p {
		return r, 0
	}
	in := func(a, b Point) bool { return inRoute(a, b, regions, axes) }
	keepP := !in(prev, p2)
	keepQ := !in(q2, next)
	if !in(p2, q2) || keepP && !in(p, p2) || keepQ && !in(q2, q) {
		return r, 0
	}
	if keepP {
		r[n], n = p, n+1
	}
	r[n], r[n+1], n = p2, q2, n+2
	if keepQ {
		r[n], n = q, n+1
	}
	return r, n
}

// boundarySide tells whether the segment p→q, which lies in a plane
// across axis ax, runs along the corridor's boundary: +1 or −1 when the
// corridor lies on that side of it only, 0 when it lies on both sides or
// on neither.
func boundarySide(p, q Point, ax int, regions []Box, axes int) float64 {
	shifted := func(d float64) bool {
		a, b := p, q
		a[ax] += d
		b[ax] += d
		return covered(a, b, regions, axes, false)
	}
	plus, minus := shifted(sideProbe), shifted(-sideProbe)
	switch {
	case plus && !minus:
		return 1
	case minus && !plus:
		return -1
	}
	return 0
}
