package voxel

import "math/bits"

// Voxels live in bricks of 8×8×8, allocated where something is known, in a
// hash table keyed by brick coordinates. A voxel in no brick has no sensor
// evidence, no shape and no obstacle within the inflation radius: its state
// is the static layer's, and its cost follows from that alone.

const (
	brickShift  = 3
	brickEdge   = 1 << brickShift // voxels
	brickMask   = brickEdge - 1
	brickVoxels = brickEdge * brickEdge * brickEdge
)

// Occupancy states, ordered by precedence when layers are combined.
const (
	unknown  uint8 = iota // no layer knows anything
	free                  // some layer saw it free, none occupied
	occupied              // some layer holds an obstacle here
)

// brick holds the state of 8×8×8 voxels; index i = x | y<<3 | z<<6 in
// brick-local coordinates. Layers that a brick does not use stay nil.
type brick struct {
	// The fields a scan reads first, in the cache line that starts 8
	// bytes before the brick (see brickPad).
	org    Key                  // voxel coordinates of the brick's minimum corner
	seen   int32                // voxels with sensor evidence
	sensor *[brickVoxels]int8   // log-odds in eighths per voxel; noObservation if never observed
	d2     *[brickVoxels]uint16 // squared distance to the nearest obstacle, voxels²; far beyond the radius; nil: all far
	marks  int32                // voxels the sensor layer holds occupied
	gen    uint32               // Apply generation of touched
	near   int32                // voxels with d2 != far
	shaped int32                // voxels covered by a shape

	hitTime *[brickVoxels]uint32 // ms since the map's epoch of each voxel's last hit; nil until the first hit
	shapes  *[brickVoxels]uint16 // number of shapes covering each voxel
	oldest  uint32               // no mark in the brick is older than this (ms since epoch)
	_       [brickPad]byte

	occ     [brickVoxels]uint8       // combined occupancy state of every voxel
	cost    [brickVoxels]Cost        // cost of every voxel, as last reported
	touched [brickVoxels / 64]uint64 // voxels already queued for a cost update in this Apply
}

// brickPad places a brick's layers on cache lines. The allocator puts a
// brick (an object with pointers, over 512 bytes) 8 bytes into a slot
// that starts a cache line, after its header; the padding makes occ
// start 56 bytes past a multiple of 64 in the brick, hence on a line,
// and each z layer of 64 voxels one line rather than two (what a scan
// prefetches, prefetchLines). The layers after occ are 64-byte multiples,
// so that a sensedBrick's layer, after the brick, starts a line too.
// TestBrickLayout checks the offsets.
const brickPad = 52

// brickKey packs brick coordinates (voxel coordinates >> 3, each within
// ±2^20) into a map key.
type brickKey uint64

func brickOf(k Key) brickKey {
	const off = 1 << 20
	return brickKey(uint64(k.X>>brickShift+off) | uint64(k.Y>>brickShift+off)<<21 | uint64(k.Z>>brickShift+off)<<42)
}

// index returns k's index within its brick.
func index(k Key) int {
	return int(k.X&brickMask) | int(k.Y&brickMask)<<brickShift | int(k.Z&brickMask)<<(2*brickShift)
}

// keyAt returns the voxel at index i of b.
func (b *brick) keyAt(i int) Key {
	return Key{b.org.X + int32(i&brickMask), b.org.Y + int32(i>>brickShift&brickMask), b.org.Z + int32(i>>(2*brickShift))}
}

func brickOrigin(k Key) Key {
	return Key{k.X &^ brickMask, k.Y &^ brickMask, k.Z &^ brickMask}
}

// box returns the voxels of b.
func (b *brick) box() Box {
	return Box{Min: b.org, Max: b.org.Add(brickMask, brickMask, brickMask)}
}

// empty reports whether b holds nothing its absence would not imply.
func (b *brick) empty() bool { return b.near == 0 && b.seen == 0 && b.shaped == 0 }

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }
