package voxel

import (
	"fmt"
	"math"

	"github.com/golang/geo/r3"
)

// Key is the integer index of one voxel: voxel (0,0,0) spans
// [origin, origin+resolution) on every axis of the map frame.
type Key struct{ X, Y, Z int32 }

// Add returns k shifted by (dx, dy, dz) voxels.
func (k Key) Add(dx, dy, dz int32) Key { return Key{k.X + dx, k.Y + dy, k.Z + dz} }

func (k Key) String() string { return fmt.Sprintf("(%d,%d,%d)", k.X, k.Y, k.Z) }

// MaxCoord bounds every voxel index, on each axis, to ±MaxCoord: at 0.1 m
// that is ±838 km, and the brick index of a voxel packs into 63 bits.
const MaxCoord = 1<<23 - 1

// worldBox holds every addressable voxel.
var worldBox = Box{Min: Key{-MaxCoord, -MaxCoord, -MaxCoord}, Max: Key{MaxCoord, MaxCoord, MaxCoord}}

// valid reports whether k is inside the addressable world.
func (k Key) valid() bool {
	return k.X >= -MaxCoord && k.X <= MaxCoord && k.Y >= -MaxCoord && k.Y <= MaxCoord &&
		k.Z >= -MaxCoord && k.Z <= MaxCoord
}

// Box is an axis-aligned box of voxels, both corners included. A box with
// Min > Max on any axis is empty.
type Box struct{ Min, Max Key }

// emptyBox is the identity of Union.
var emptyBox = Box{Min: Key{math.MaxInt32, math.MaxInt32, math.MaxInt32},
	Max: Key{math.MinInt32, math.MinInt32, math.MinInt32}}

// Empty reports whether b holds no voxel.
func (b Box) Empty() bool { return b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z }

// Contains reports whether k is inside b.
func (b Box) Contains(k Key) bool {
	return k.X >= b.Min.X && k.X <= b.Max.X && k.Y >= b.Min.Y && k.Y <= b.Max.Y &&
		k.Z >= b.Min.Z && k.Z <= b.Max.Z
}

// Extend returns the smallest box holding b and k.
func (b Box) Extend(k Key) Box {
	return Box{Min: Key{min(b.Min.X, k.X), min(b.Min.Y, k.Y), min(b.Min.Z, k.Z)},
		Max: Key{max(b.Max.X, k.X), max(b.Max.Y, k.Y), max(b.Max.Z, k.Z)}}
}

// Union returns the smallest box holding b and o.
func (b Box) Union(o Box) Box {
	if o.Empty() {
		return b
	}
	return b.Extend(o.Min).Extend(o.Max)
}

// Intersect returns the voxels in both b and o.
func (b Box) Intersect(o Box) Box {
	return Box{Min: Key{max(b.Min.X, o.Min.X), max(b.Min.Y, o.Min.Y), max(b.Min.Z, o.Min.Z)},
		Max: Key{min(b.Max.X, o.Max.X), min(b.Max.Y, o.Max.Y), min(b.Max.Z, o.Max.Z)}}
}

// Volume returns the number of voxels in b, or math.MaxInt64 when that
// does not fit in an int64 (a box of more than 2^63 voxels: the whole
// addressable space is (2^24−1)^3).
func (b Box) Volume() int64 {
	if b.Empty() {
		return 0
	}
	x, y, z := int64(b.Max.X)-int64(b.Min.X)+1, int64(b.Max.Y)-int64(b.Min.Y)+1, int64(b.Max.Z)-int64(b.Min.Z)+1
	if x > math.MaxInt64/y || x*y > math.MaxInt64/z {
		return math.MaxInt64
	}
	return x * y * z
}

// grow returns b with lo subtracted from Min and hi added to Max, per axis.
func (b Box) grow(lo, hi Key) Box {
	return Box{Min: Key{b.Min.X - lo.X, b.Min.Y - lo.Y, b.Min.Z - lo.Z},
		Max: Key{b.Max.X + hi.X, b.Max.Y + hi.Y, b.Max.Z + hi.Z}}
}

// Frame places voxels in the map frame: voxel k spans
// [Origin + k·Resolution, Origin + (k+1)·Resolution) on each axis.
type Frame struct {
	Origin     r3.Vector // metres, map frame
	Resolution float64   // voxel edge, metres
}

// KeyOf returns the voxel holding world point p, and false when p is not
// finite or lies outside the addressable world (±MaxCoord voxels).
func (f Frame) KeyOf(p r3.Vector) (Key, bool) {
	x := math.Floor((p.X - f.Origin.X) / f.Resolution)
	y := math.Floor((p.Y - f.Origin.Y) / f.Resolution)
	z := math.Floor((p.Z - f.Origin.Z) / f.Resolution)
	// NaN fails every comparison, so it is rejected here too.
	if !(math.Abs(x) <= MaxCoord && math.Abs(y) <= MaxCoord && math.Abs(z) <= MaxCoord) {
		return Key{}, false
	}
	return Key{int32(x), int32(y), int32(z)}, true
}

// Center returns the centre of voxel k in the map frame.
func (f Frame) Center(k Key) r3.Vector {
	return r3.Vector{
		X: f.Origin.X + (float64(k.X)+0.5)*f.Resolution,
		Y: f.Origin.Y + (float64(k.Y)+0.5)*f.Resolution,
		Z: f.Origin.Z + (float64(k.Z)+0.5)*f.Resolution,
	}
}

// Corner returns the minimum corner of voxel k in the map frame.
func (f Frame) Corner(k Key) r3.Vector {
	return r3.Vector{
		X: f.Origin.X + float64(k.X)*f.Resolution,
		Y: f.Origin.Y + float64(k.Y)*f.Resolution,
		Z: f.Origin.Z + float64(k.Z)*f.Resolution,
	}
}

// local returns p in voxel units relative to the origin: voxel k spans
// [k, k+1) on each axis.
func (f Frame) local(p r3.Vector) r3.Vector {
	return r3.Vector{X: (p.X - f.Origin.X) / f.Resolution, Y: (p.Y - f.Origin.Y) / f.Resolution,
		Z: (p.Z - f.Origin.Z) / f.Resolution}
}

func finite(v r3.Vector) bool {
	return !math.IsNaN(v.X+v.Y+v.Z) && !math.IsInf(v.X+v.Y+v.Z, 0)
}
