package voxel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// referenceWalkRegion is walkRegion one dda.next at a time: the voxels it
// visits in the region, then the first voxel out of it with the tMax
// there, or ended.
func referenceWalkRegion(g *scanRegion, t dda, end Key) (visited []Key, out Key, tMax [3]float64, ended bool) {
	for {
		if t.k == end {
			return visited, t.k, t.tMax, true
		}
		visited = append(visited, t.k)
		if !t.next() {
			return visited, t.k, t.tMax, true
		}
		if !g.contains(t.k) {
			return visited, t.k, t.tMax, false
		}
	}
}

// TestWalkRegionEqualsDDA walks random rays through random regions with
// walkRegion and with dda.next, and requires the same voxels, the same
// exit voxel and the same tMax, to the bit: rays along an axis, in a
// plane, along 45° diagonals (equal tDelta on two or three axes, ties on
// every step), through voxel faces, edges and corners, starting on faces,
// ending in the region and out of it.
func TestWalkRegionEqualsDDA(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	coord := func(span float64) float64 {
		v := (rng.Float64()*2 - 1) * span
		switch rng.IntN(4) {
		case 0:
			return math.Round(v) // on a face
		case 1:
			return math.Round(2*v) / 2 // on a face or a centre
		}
		return v
	}
	for round := range 300 {
		c := Key{rng.Int32N(200) - 100, rng.Int32N(200) - 100, rng.Int32N(40) - 20}
		reach := []float64{5, 40, 300}[round%3]
		var g scanRegion
		// At most 2^18 bits (regionBitsPerRay per ray), so that checking
		// every word after each ray stays quick.
		g.reset(Box{Min: c, Max: c}.Extend(c.Add(int32(reach), int32(reach), int32(reach/4))), c, 1+rng.IntN(64))
		for range 50 {
			o := r3.Vector{X: float64(c.X) + coord(2), Y: float64(c.Y) + coord(2), Z: float64(c.Z) + coord(2)}
			d := r3.Vector{X: coord(reach), Y: coord(reach), Z: coord(reach / 4)}
			switch rng.IntN(6) {
			case 0: // along an axis
				d.Y, d.Z = 0, 0
			case 1: // in a plane
				d.Z = 0
			case 2: // a diagonal, in a plane or in space
				s := coord(reach)
				d = r3.Vector{X: s, Y: s * float64(1-2*rng.IntN(2)), Z: s * float64(rng.IntN(3)-1)}
			case 3: // along y or z: other major axes
				d.X = coord(1)
			}
			if d == (r3.Vector{}) {
				continue
			}
			var s dda
			s.init(o, d)
			if !g.contains(s.k) {
				continue
			}
			e := o.Add(d)
			end := Key{int32(math.Floor(e.X)), int32(math.Floor(e.Y)), int32(math.Floor(e.Z))}
			if rng.IntN(8) == 0 { // an end voxel off the segment's last one
				end = end.Add(rng.Int32N(3)-1, rng.Int32N(3)-1, rng.Int32N(3)-1)
			}
			visited, out, tMax, ended := referenceWalkRegion(&g, s, end)

			w := rayWalk{tx: s.tMax[0], ty: s.tMax[1], tz: s.tMax[2], dx: s.tDelta[0], dy: s.tDelta[1], dz: s.tDelta[2]}
			k, done := w.walkRegion(&g, s.k, end, s.step)
			require.Equal(t, ended, done, "o %v d %v", o, d)
			if !ended {
				require.Equal(t, out, k, "o %v d %v", o, d)
				for a, v := range [3]float64{w.tx, w.ty, w.tz} {
					require.Equal(t, math.Float64bits(tMax[a]+0), math.Float64bits(v+0), "o %v d %v: tMax[%d]", o, d, a)
				}
			}
			for _, v := range visited {
				i := g.index(v)
				if g.bits[i>>6]&(1<<(i&63)) == 0 {
					t.Fatalf("o %v d %v: %v not visited", o, d, v)
				}
				g.bits[i>>6] &^= 1 << (i & 63)
			}
			for i, word := range g.bits {
				if word != 0 {
					t.Fatalf("o %v d %v: word %d: voxels visited off the ray", o, d, i)
				}
			}
		}
	}
}
