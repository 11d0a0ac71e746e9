package voxel

import "unsafe"

// A scan works on bricks in table order, and nearly every brick it
// reaches has left the processor's caches since the last scan. A load of
// a line that misses holds up every later instruction's retirement until
// the line arrives, so reading a brick's lines ahead with plain loads
// (one brick ahead: more would only wait longer) still stalls once per
// brick. A prefetch instruction does not: it is a hint the processor
// follows in the background. Go has no prefetch of its own outside the
// runtime, hence one instruction in assembly (prefetch_amd64.s,
// prefetch_arm64.s) and a no-op elsewhere (prefetch_other.go).

// prefetchLines prefetches the cache lines of a brick's byte layer that
// hold voxels of set: a z layer of 64 voxels, a word of set, is a line
// (see brickPad).
func prefetchLines[T int8 | uint8](l *[brickVoxels]T, set *voxelBits) {
	for w, bits := range set {
		if bits != 0 {
			prefetch(unsafe.Pointer(&l[w<<6]))
		}
	}
}

// prefetchHead prefetches the lines of a brick's first fields (org to
// shaped) and of its touched bits.
func prefetchHead(b *brick) {
	prefetch(unsafe.Pointer(b))
	prefetch(unsafe.Pointer(&b.touched))
}
