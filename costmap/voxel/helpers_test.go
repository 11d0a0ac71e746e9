package voxel

import (
	"math"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

func newMap(t testing.TB, cfg Config) *Map {
	t.Helper()
	m, err := New(cfg)
	require.NoError(t, err)
	return m
}

// snapshot returns the cost of every voxel of b, x fastest.
func snapshot(m *Map, b Box) []Cost {
	out := make([]Cost, 0, b.Volume())
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				out = append(out, m.Cost(Key{x, y, z}))
			}
		}
	}
	return out
}

func keyAtIndex(b Box, i int) Key {
	w, h := int(b.Max.X-b.Min.X+1), int(b.Max.Y-b.Min.Y+1)
	return Key{b.Min.X + int32(i%w), b.Min.Y + int32(i/w%h), b.Min.Z + int32(i/(w*h))}
}

// bruteCosts computes every cost of box b from the map's occupancy alone,
// the slow way: for each voxel, every obstacle within reach, with Nav2's
// cost formula written out again.
func bruteCosts(m *Map, b Box) []Cost {
	cfg := m.cfg
	res := cfg.Resolution
	r := int32(math.Ceil(cfg.Robot.InflationRadius/res - 1e-9))
	h := int32(1)
	if cfg.Robot.Shape == Cylinder {
		h = int32(math.Ceil(cfg.Robot.Height/res - 1e-9))
	}
	// occupancy of b grown by the reach, densely
	g := Box{Min: b.Min.Add(-r, -r, -r), Max: b.Max.Add(r, r, r+h)}
	gw, gh := g.Max.X-g.Min.X+1, g.Max.Y-g.Min.Y+1
	occ := make([]bool, g.Volume())
	for i := range occ {
		occ[i] = m.Occupied(keyAtIndex(g, i))
	}
	at := func(x, y, z int32) bool { return occ[(x-g.Min.X)+(y-g.Min.Y)*gw+(z-g.Min.Z)*gw*gh] }
	out := make([]Cost, 0, b.Volume())
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				v := Key{x, y, z}
				best := int32(math.MaxInt32)
				zlo, zhi := z-r, z+r
				if cfg.Robot.Shape == Cylinder {
					zlo, zhi = z, z+h-1
				}
				for oz := zlo; oz <= zhi && r > 0; oz++ {
					for oy := y - r; oy <= y+r; oy++ {
						for ox := x - r; ox <= x+r; ox++ {
							if !at(ox, oy, oz) {
								continue
							}
							d2 := (ox-x)*(ox-x) + (oy-y)*(oy-y)
							if cfg.Robot.Shape == Sphere {
								d2 += (oz - z) * (oz - z)
							}
							best = min(best, d2)
						}
					}
				}
				out = append(out, referenceCost(cfg, at(x, y, z), m.Known(v), best, r))
			}
		}
	}
	return out
}

// referenceCost is Nav2's computeCost and its unknown rule, from the
// squared distance d2 in voxels.
func referenceCost(cfg Config, occupiedHere, known bool, d2, r int32) Cost {
	if occupiedHere {
		return Lethal
	}
	c := Free
	if r > 0 && d2 <= r*r {
		d := math.Sqrt(float64(d2)) * cfg.Resolution
		switch {
		case d <= cfg.Robot.Radius:
			c = Inscribed
		default:
			c = Cost(252 * math.Exp(-cfg.Robot.CostScaling*(d-cfg.Robot.Radius)))
		}
	}
	if !known {
		if c >= Inscribed || (cfg.Robot.InflateUnknown && c > 0) {
			return c
		}
		return Unknown
	}
	return c
}

// requireCostsEqual compares two snapshots of b and names the first
// differing voxels.
func requireCostsEqual(t *testing.T, b Box, want, got []Cost, msg string) {
	t.Helper()
	require.Len(t, got, len(want))
	bad := 0
	for i := range want {
		if want[i] != got[i] {
			if bad < 5 {
				t.Errorf("%s: voxel %v: want cost %d, got %d", msg, keyAtIndex(b, i), want[i], got[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d voxels differ", msg, bad, len(want))
	}
}

func vec(x, y, z float64) r3.Vector { return r3.Vector{X: x, Y: y, Z: z} }
