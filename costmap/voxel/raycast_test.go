package voxel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// bruteRay returns the voxels whose open cube the segment a→b (voxel
// units) crosses for a positive length, ordered by where it enters them.
func bruteRay(a, b r3.Vector) []Key {
	lo := Key{int32(math.Floor(min(a.X, b.X))), int32(math.Floor(min(a.Y, b.Y))), int32(math.Floor(min(a.Z, b.Z)))}
	hi := Key{int32(math.Floor(max(a.X, b.X))), int32(math.Floor(max(a.Y, b.Y))), int32(math.Floor(max(a.Z, b.Z)))}
	type hit struct {
		k  Key
		t0 float64
	}
	var hits []hit
	d := b.Sub(a)
	for z := lo.Z; z <= hi.Z; z++ {
		for y := lo.Y; y <= hi.Y; y++ {
			for x := lo.X; x <= hi.X; x++ {
				t0, t1 := 0.0, 1.0
				for ax, c := range [3]int32{x, y, z} {
					o, dv := [3]float64{a.X, a.Y, a.Z}[ax], [3]float64{d.X, d.Y, d.Z}[ax]
					if dv == 0 {
						if o < float64(c) || o >= float64(c)+1 {
							t0, t1 = 1, 0
						}
						continue
					}
					ta, tb := (float64(c)-o)/dv, (float64(c)+1-o)/dv
					t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
				}
				if t1-t0 > 1e-12 {
					hits = append(hits, hit{Key{x, y, z}, t0})
				}
			}
		}
	}
	// order by entry
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].t0 < hits[j-1].t0; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	out := make([]Key, len(hits))
	for i, h := range hits {
		out[i] = h.k
	}
	return out
}

func TestRayEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f := Frame{Origin: vec(-1.3, 2.1, 0.4), Resolution: 0.1}
	for i := range 20000 {
		span := []float64{0.05, 0.5, 3}[i%3]
		a := vec(rng.Float64()*4-2, rng.Float64()*4-2, rng.Float64()*4-2)
		b := a.Add(vec((rng.Float64()*2-1)*span, (rng.Float64()*2-1)*span, (rng.Float64()*2-1)*span))
		if i%10 == 0 { // axis-parallel and planar rays
			b.Y = a.Y
			if i%20 == 0 {
				b.Z = a.Z
			}
		}
		var got []Key
		f.Ray(a, b, func(k Key) bool { got = append(got, k); return true })
		want := bruteRay(f.local(a), f.local(b))
		require.Equal(t, want, got, "ray %d from %v to %v", i, a, b)
	}
}

// TestRayThroughEdges: rays along voxel edges and through corners step
// every axis at once (no voxel touched only along an edge), and the
// supercover adds the voxels sharing the edge or corner.
func TestRayThroughEdges(t *testing.T) {
	f := Frame{Resolution: 1}
	var got []Key
	f.Ray(vec(0.5, 0.5, 0.5), vec(2.5, 2.5, 0.5), func(k Key) bool { got = append(got, k); return true })
	require.Equal(t, []Key{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}, got)
	got = nil
	f.Supercover(vec(0.5, 0.5, 0.5), vec(1.5, 1.5, 1.5), func(k Key) bool { got = append(got, k); return true })
	require.Len(t, got, 8, "a diagonal step through a corner touches the whole 2×2×2 box: %v", got)
	got = nil
	f.Ray(vec(0.5, 0.5, 0.5), vec(math.NaN(), 0, 0), func(k Key) bool { got = append(got, k); return true })
	require.Empty(t, got)
}

// TestCloudClearsAlongRays checks what a cloud's ray clears against the
// brute-force traversal: every voxel before the endpoint's, none after.
func TestCloudClearsAlongRays(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		m := newMap(t, Config{Resolution: 0.1})
		o := vec(rng.Float64(), rng.Float64(), rng.Float64())
		p := o.Add(vec(rng.Float64()*4-2, rng.Float64()*4-2, rng.Float64()*2-1))
		cs, err := m.Apply(&Cloud{Origin: o, Points: []r3.Vector{p}, MaxRange: 10})
		require.NoError(t, err)
		// A return is marked a thousandth of a voxel on along its ray.
		q := p.Add(p.Sub(o).Mul(hitNudgeVoxels * 0.1 / p.Sub(o).Norm()))
		ray := bruteRay(m.frame.local(o), m.frame.local(q))
		end, _ := m.frame.KeyOf(q)
		require.Equal(t, end, ray[len(ray)-1])
		for _, k := range ray[:len(ray)-1] {
			require.Equal(t, Free, m.Cost(k), "ray %d: voxel %v on the ray", i, k)
		}
		require.Equal(t, Lethal, m.Cost(end))
		require.Equal(t, len(ray), cs.Len(), "ray %d: only the ray's voxels change", i)
	}
}

// TestCloudFloor: with Floor, a return below FloorZ clears its ray up to
// and including its voxel and marks nothing; one above it marks as
// before, even where a ray to the floor passes through its voxel.
func TestCloudFloor(t *testing.T) {
	o := vec(0.05, 0.05, 0.45)
	// The ray to the floor point crosses voxel (8, 0, 2), where the
	// other return is.
	floorPt, wall := vec(1.55, 0.05, 0.01), vec(0.85, 0.05, 0.22)
	m := newMap(t, Config{Resolution: 0.1})
	k, _ := m.frame.KeyOf(wall)
	require.Equal(t, Key{8, 0, 2}, k)
	cs, err := m.Apply(&Cloud{Origin: o, Points: []r3.Vector{floorPt, wall}, MaxRange: 10, Floor: true, FloorZ: 0.05})
	require.NoError(t, err)
	require.Equal(t, 1, cs.Input.Floor)
	require.Equal(t, Lethal, m.Cost(k), "a return above the floor is marked though the floor ray crosses it")
	end, _ := m.frame.KeyOf(floorPt)
	require.Equal(t, Free, m.Cost(end), "the floor is cleared, not marked")
	for _, v := range bruteRay(m.frame.local(o), m.frame.local(floorPt)) {
		if v != k {
			require.Equal(t, Free, m.Cost(v), "voxel %v on the floor ray", v)
		}
	}
	// Without Floor the same return is an obstacle.
	m2 := newMap(t, Config{Resolution: 0.1})
	_, err = m2.Apply(&Cloud{Origin: o, Points: []r3.Vector{floorPt}, MaxRange: 10})
	require.NoError(t, err)
	require.Equal(t, Lethal, m2.Cost(end))
	// A scan passes Floor on.
	m3 := newMap(t, Config{Resolution: 0.1})
	down := Pose{Position: o, Orientation: Quat{Y: math.Sin(0.2), W: math.Cos(0.2)}} // pitched 0.4 rad down
	cs, err = m3.Apply(&Scan{Pose: down, Ranges: []float32{1.2}, RangeMax: 10, Floor: true, FloorZ: 0.05})
	require.NoError(t, err)
	require.Equal(t, 1, cs.Input.Floor)
}

// TestSupercoverEqualsBruteForce compares the voxels Supercover visits
// with the brute-force supercover: segments between voxel centres in
// frames whose origin and resolution are not round in binary (so the
// centres reach Supercover rounded, off the edges and corners the exact
// segments cross), segments along voxel faces and edges, and arbitrary
// ones. Each voxel is visited once.
func TestSupercoverEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	frames := []Frame{
		{Origin: vec(-1.3, 2.1, 0.4), Resolution: 0.1},
		{Origin: vec(-10.025, -7.3, 0.07), Resolution: 0.05},
		{Origin: vec(3.3, 0, -0.9), Resolution: 0.15},
		{Resolution: 1},
	}
	centre := func(k Key) r3.Vector { return vec(float64(k.X)+0.5, float64(k.Y)+0.5, float64(k.Z)+0.5) }
	for i := range 30000 {
		f := frames[i%len(frames)]
		ka := Key{rng.Int32N(40) - 20, rng.Int32N(40) - 20, rng.Int32N(20) - 10}
		var a, b, la, lb r3.Vector // world and exact voxel-unit ends
		switch i % 3 {
		case 0: // centre to centre, often a diagonal
			n := rng.Int32N(6)
			kb := ka.Add(n*(rng.Int32N(3)-1), n*(rng.Int32N(3)-1), n*(rng.Int32N(3)-1))
			if i%2 == 0 {
				kb = ka.Add(rng.Int32N(9)-4, rng.Int32N(9)-4, rng.Int32N(5)-2)
			}
			a, b, la, lb = f.Center(ka), f.Center(kb), centre(ka), centre(kb)
		case 1: // on a face or an edge: corners to corners and centres of faces
			lb = vec(float64(ka.X+rng.Int32N(7)-3), float64(ka.Y+rng.Int32N(7)-3), float64(ka.Z)+0.5*float64(rng.Int32N(3)))
			la = vec(float64(ka.X), float64(ka.Y)+0.5*float64(rng.Int32N(2)), float64(ka.Z))
			a, b = f.Corner(Key{}).Add(la.Mul(f.Resolution)), f.Corner(Key{}).Add(lb.Mul(f.Resolution))
			if f.Resolution != 1 || f.Origin != (r3.Vector{}) {
				continue // exact only where metres and voxels agree
			}
		default:
			a = f.Center(ka).Add(vec(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Mul(f.Resolution))
			b = a.Add(vec(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1).Mul(4 * f.Resolution))
			la, lb = f.local(a), f.local(b)
		}
		got := map[Key]bool{}
		f.Supercover(a, b, func(k Key) bool {
			require.False(t, got[k], "segment %d: voxel %v visited twice", i, k)
			got[k] = true
			return true
		})
		require.Equal(t, bruteSupercover(la, lb), got, "segment %d from %v to %v (voxels %v to %v)", i, a, b, la, lb)
	}
}

// TestRayOnFaces: rays whose ends and crossings lie exactly on voxel faces,
// edges and corners (ends on an eighth-voxel grid, exact in binary) visit
// exactly the voxels whose interior they cross: none past the end, where
// the crossing times summed up would have reached the last face a
// rounding error early, and none before the start, where a ray leaves
// its start's face downwards.
func TestRayOnFaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	f := Frame{Origin: vec(-4, 2, 0.5), Resolution: 0.5}
	eighth := func() float64 { return float64(rng.IntN(129)-64) / 8 }
	for i := range 20000 {
		a := vec(eighth(), eighth(), eighth())
		b := a.Add(vec(eighth(), eighth(), eighth()))
		if i%4 == 0 {
			b = vec(math.Round(b.X), math.Round(b.Y), math.Round(b.Z)) // ends on a corner
		}
		var got []Key
		f.Ray(a, b, func(k Key) bool { got = append(got, k); return true })
		want := bruteRay(f.local(a), f.local(b))
		require.Equal(t, want, got, "ray %d from %v to %v", i, a, b)
	}
}
