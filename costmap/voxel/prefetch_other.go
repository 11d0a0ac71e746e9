//go:build !amd64 && !arm64

package voxel

import "unsafe"

// prefetch does nothing on this architecture (see prefetch.go).
func prefetch(p unsafe.Pointer) {}
