package voxel

import (
	"testing"
	"unsafe"
)

// TestBrickLayout checks that a brick's layers, and a sensedBrick's
// sensor layer, start 56 bytes past a multiple of 64 into the object (on
// a cache line, after the allocator's 8-byte header), and that padding
// keeps both in the size classes they would have without it (1280 and
// 1792 bytes with the header). On 64-bit platforms.
func TestBrickLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layout is tuned for 64-bit platforms; on others it only costs speed")
	}
	var b sensedBrick
	for name, off := range map[string]uintptr{
		"occ":     unsafe.Offsetof(b.occ),
		"cost":    unsafe.Offsetof(b.cost),
		"touched": unsafe.Offsetof(b.touched),
		"sensor":  unsafe.Offsetof(b.sensor),
	} {
		if off%64 != 56 {
			t.Errorf("%s at offset %d: want 56 mod 64", name, off)
		}
	}
	if n := unsafe.Sizeof(brick{}) + 8; n > 1280 {
		t.Errorf("brick and header take %d bytes: want at most 1280", n)
	}
	if n := unsafe.Sizeof(b) + 8; n > 1792 {
		t.Errorf("sensedBrick and header take %d bytes: want at most 1792", n)
	}
}
