package cdr

import (
	"encoding/binary"
	"unsafe"
)

// number is a fixed-size primitive whose memory layout on a little-endian
// host is its little-endian CDR encoding, so arrays of it copy in bulk.
type number interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~uint64 | ~int64 | ~float32 | ~float64
}

// hostLittleEndian reports whether this machine stores numbers little-endian,
// as CDR payloads written by navnode do.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// asBytes views the memory of s as bytes, without copying.
func asBytes[T number](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// bulk appends b, the memory of a slice of size-byte numbers, aligned to
// size. An empty slice writes nothing, not even padding.
func (w *Writer) bulk(b []byte, size int) {
	if len(b) == 0 {
		return
	}
	w.align(size)
	if hostLittleEndian || size == 1 {
		w.buf = append(w.buf, b...)
		return
	}
	for i := 0; i < len(b); i += size {
		for j := i + size - 1; j >= i; j-- {
			w.buf = append(w.buf, b[j])
		}
	}
}

// fill reads len(dst) bytes of size-byte numbers, aligned to size, into dst,
// the memory of a slice of numbers.
func (r *Reader) fill(dst []byte, size int) {
	if len(dst) == 0 {
		return
	}
	src := r.next(size, len(dst))
	if src == nil {
		clear(dst)
		return
	}
	if size == 1 || hostLittleEndian != r.bigEndian {
		copy(dst, src)
		return
	}
	for i := 0; i < len(dst); i += size {
		for j := 0; j < size; j++ {
			dst[i+j] = src[i+size-1-j]
		}
	}
}

// Uint8s writes the elements of s.
func (w *Writer) Uint8s(s []uint8) { w.buf = append(w.buf, s...) }

// Int8s writes the elements of s.
func (w *Writer) Int8s(s []int8) { w.bulk(asBytes(s), 1) }

// Uint16s writes the elements of s.
func (w *Writer) Uint16s(s []uint16) { w.bulk(asBytes(s), 2) }

// Int16s writes the elements of s.
func (w *Writer) Int16s(s []int16) { w.bulk(asBytes(s), 2) }

// Uint32s writes the elements of s.
func (w *Writer) Uint32s(s []uint32) { w.bulk(asBytes(s), 4) }

// Int32s writes the elements of s.
func (w *Writer) Int32s(s []int32) { w.bulk(asBytes(s), 4) }

// Uint64s writes the elements of s.
func (w *Writer) Uint64s(s []uint64) { w.bulk(asBytes(s), 8) }

// Int64s writes the elements of s.
func (w *Writer) Int64s(s []int64) { w.bulk(asBytes(s), 8) }

// Float32s writes the elements of s.
func (w *Writer) Float32s(s []float32) { w.bulk(asBytes(s), 4) }

// Float64s writes the elements of s.
func (w *Writer) Float64s(s []float64) { w.bulk(asBytes(s), 8) }

// Bools writes the elements of s, one byte each.
func (w *Writer) Bools(s []bool) {
	for _, b := range s {
		w.Bool(b)
	}
}

// Uint8s fills dst from the payload.
func (r *Reader) Uint8s(dst []uint8) { r.fill(asBytes(dst), 1) }

// Int8s fills dst from the payload.
func (r *Reader) Int8s(dst []int8) { r.fill(asBytes(dst), 1) }

// Uint16s fills dst from the payload.
func (r *Reader) Uint16s(dst []uint16) { r.fill(asBytes(dst), 2) }

// Int16s fills dst from the payload.
func (r *Reader) Int16s(dst []int16) { r.fill(asBytes(dst), 2) }

// Uint32s fills dst from the payload.
func (r *Reader) Uint32s(dst []uint32) { r.fill(asBytes(dst), 4) }

// Int32s fills dst from the payload.
func (r *Reader) Int32s(dst []int32) { r.fill(asBytes(dst), 4) }

// Uint64s fills dst from the payload.
func (r *Reader) Uint64s(dst []uint64) { r.fill(asBytes(dst), 8) }

// Int64s fills dst from the payload.
func (r *Reader) Int64s(dst []int64) { r.fill(asBytes(dst), 8) }

// Float32s fills dst from the payload.
func (r *Reader) Float32s(dst []float32) { r.fill(asBytes(dst), 4) }

// Float64s fills dst from the payload.
func (r *Reader) Float64s(dst []float64) { r.fill(asBytes(dst), 8) }

// Bools fills dst from the payload; any non-zero byte is true.
func (r *Reader) Bools(dst []bool) {
	src := r.next(1, len(dst))
	if src == nil {
		clear(dst)
		return
	}
	for i, b := range src {
		dst[i] = b != 0
	}
}

// AppendUint8s reads n bytes and returns them in dst[:n], reusing the
// capacity of dst when it suffices. The bytes are copied exactly once and the
// new memory is not zeroed first, which makes this the fast path for
// PointCloud2 and Image data.
func (r *Reader) AppendUint8s(dst []uint8, n int) []uint8 {
	src := r.next(1, n)
	if src == nil {
		return dst[:0]
	}
	return append(dst[:0], src...)
}

// AppendInt8s is AppendUint8s for int8 data, the fast path for OccupancyGrid.
func (r *Reader) AppendInt8s(dst []int8, n int) []int8 {
	src := r.next(1, n)
	if src == nil {
		return dst[:0]
	}
	return append(dst[:0], unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(src))), len(src))...)
}

// Resize returns s with length n, reusing its capacity when it suffices.
// Elements kept from s are not cleared: decoders overwrite every field.
func Resize[S ~[]E, E any](s S, n int) S {
	if cap(s) >= n {
		return s[:n]
	}
	return make(S, n)
}
