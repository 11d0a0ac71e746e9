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

// writeNumbers appends the elements of s, aligned to their size. An empty
// slice writes nothing, not even padding.
func writeNumbers[T number](w *Writer, s []T) {
	if len(s) == 0 {
		return
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	w.align(size)
	b := asBytes(s)
	if hostLittleEndian {
		w.buf = append(w.buf, b...)
		return
	}
	for i := 0; i < len(b); i += size {
		for j := i + size - 1; j >= i; j-- {
			w.buf = append(w.buf, b[j])
		}
	}
}

// readNumbers fills dst from the payload, aligned to the element size.
func readNumbers[T number](r *Reader, dst []T) {
	if len(dst) == 0 {
		return
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	src := r.next(size, len(dst)*size)
	if src == nil {
		clear(dst)
		return
	}
	b := asBytes(dst)
	if size == 1 || hostLittleEndian != r.bigEndian {
		copy(b, src)
		return
	}
	for i := 0; i < len(b); i += size {
		for j := 0; j < size; j++ {
			b[i+j] = src[i+size-1-j]
		}
	}
}

// Uint8s writes the elements of s.
func (w *Writer) Uint8s(s []uint8) { w.buf = append(w.buf, s...) }

// Int8s writes the elements of s.
func (w *Writer) Int8s(s []int8) { writeNumbers(w, s) }

// Uint16s writes the elements of s.
func (w *Writer) Uint16s(s []uint16) { writeNumbers(w, s) }

// Int16s writes the elements of s.
func (w *Writer) Int16s(s []int16) { writeNumbers(w, s) }

// Uint32s writes the elements of s.
func (w *Writer) Uint32s(s []uint32) { writeNumbers(w, s) }

// Int32s writes the elements of s.
func (w *Writer) Int32s(s []int32) { writeNumbers(w, s) }

// Uint64s writes the elements of s.
func (w *Writer) Uint64s(s []uint64) { writeNumbers(w, s) }

// Int64s writes the elements of s.
func (w *Writer) Int64s(s []int64) { writeNumbers(w, s) }

// Float32s writes the elements of s.
func (w *Writer) Float32s(s []float32) { writeNumbers(w, s) }

// Float64s writes the elements of s.
func (w *Writer) Float64s(s []float64) { writeNumbers(w, s) }

// Bools writes the elements of s, one byte each.
func (w *Writer) Bools(s []bool) {
	for _, b := range s {
		w.Bool(b)
	}
}

// Uint8s fills dst from the payload.
func (r *Reader) Uint8s(dst []uint8) { readNumbers(r, dst) }

// Int8s fills dst from the payload.
func (r *Reader) Int8s(dst []int8) { readNumbers(r, dst) }

// Uint16s fills dst from the payload.
func (r *Reader) Uint16s(dst []uint16) { readNumbers(r, dst) }

// Int16s fills dst from the payload.
func (r *Reader) Int16s(dst []int16) { readNumbers(r, dst) }

// Uint32s fills dst from the payload.
func (r *Reader) Uint32s(dst []uint32) { readNumbers(r, dst) }

// Int32s fills dst from the payload.
func (r *Reader) Int32s(dst []int32) { readNumbers(r, dst) }

// Uint64s fills dst from the payload.
func (r *Reader) Uint64s(dst []uint64) { readNumbers(r, dst) }

// Int64s fills dst from the payload.
func (r *Reader) Int64s(dst []int64) { readNumbers(r, dst) }

// Float32s fills dst from the payload.
func (r *Reader) Float32s(dst []float32) { readNumbers(r, dst) }

// Float64s fills dst from the payload.
func (r *Reader) Float64s(dst []float64) { readNumbers(r, dst) }

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
