//go:build amd64 || arm64

package voxel

import "unsafe"

// prefetch asks the processor to bring the cache line holding p into its
// caches, without waiting for it. p is not read: it may be any address.
//
//go:noescape
func prefetch(p unsafe.Pointer)
