package cdr

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Reader decodes a CDR payload. The first error sticks: later reads return
// zero values and lengths of zero, so a decoder runs to its end without
// allocating anything after a failure. Generated decoders call Failed after
// each field to stop early and to record where the failure happened.
type Reader struct {
	buf       []byte
	off       int // next byte to read
	origin    int // index of the first body byte; alignment counts from here
	bigEndian bool
	err       error
	errOff    int
	path      []string // field names, innermost first, recorded while unwinding
}

// NewReader checks the encapsulation header of payload and returns a Reader
// positioned at the start of the body. A payload that is not plain CDR, big
// or little endian, gives a Reader whose Ok reports false.
func NewReader(payload []byte) Reader {
	r := Reader{buf: payload, off: 4, origin: 4}
	switch {
	case len(payload) < 4:
		r.off = 0
		r.fail(fmt.Errorf("%w: %d-byte payload has no encapsulation header", ErrTruncated, len(payload)))
	case payload[0] != 0x00 || payload[1] > 0x01:
		r.off = 0
		r.fail(fmt.Errorf("%w: header % x (want 00 01 or 00 00)", ErrEncapsulation, payload[:2]))
	default:
		r.bigEndian = payload[1] == 0x00
	}
	return r
}

// Ok reports whether no error has occurred yet.
func (r *Reader) Ok() bool { return r.err == nil }

// Failed reports whether an error has occurred; if so it records field as the
// enclosing field of the failure. Generated decoders call it after each field.
func (r *Reader) Failed(field string) bool {
	if r.err == nil {
		return false
	}
	r.path = append(r.path, field)
	return true
}

// FailedAt is Failed for element i of a sequence or array field.
func (r *Reader) FailedAt(field string, i int) bool {
	if r.err == nil {
		return false
	}
	r.path = append(r.path, field+"["+strconv.Itoa(i)+"]")
	return true
}

// Finish returns nil or a *DecodeError naming typ, the field path and the
// offset of the first failure.
func (r *Reader) Finish(typ string) error {
	if r.err == nil {
		return nil
	}
	path := slices.Clone(r.path)
	slices.Reverse(path)
	return &DecodeError{Type: typ, Field: strings.Join(path, "."), Offset: r.errOff, Err: r.err}
}

func (r *Reader) fail(err error) {
	if r.err == nil {
		r.err = err
		r.errOff = r.off
	}
}

// next aligns to align bytes and returns the next n bytes, or nil after
// recording ErrTruncated.
func (r *Reader) next(align, n int) []byte {
	if r.err != nil {
		return nil
	}
	off := r.off + (-(r.off - r.origin))&(align-1)
	if n > len(r.buf)-off {
		r.fail(fmt.Errorf("%w: need %d bytes at byte %d, payload has %d", ErrTruncated, n, off, len(r.buf)))
		return nil
	}
	r.off = off + n
	return r.buf[off : off+n : off+n]
}

// left returns the number of unread bytes.
func (r *Reader) left() int { return max(len(r.buf)-r.off, 0) }

// Bool reads one byte; any non-zero value is true.
func (r *Reader) Bool() bool { return r.Uint8() != 0 }

// Uint8 reads a byte.
func (r *Reader) Uint8() uint8 {
	b := r.next(1, 1)
	if b == nil {
		return 0
	}
	return b[0]
}

// Int8 reads a signed byte.
func (r *Reader) Int8() int8 { return int8(r.Uint8()) }

// Uint16 reads a uint16 aligned to 2 bytes.
func (r *Reader) Uint16() uint16 {
	b := r.next(2, 2)
	switch {
	case b == nil:
		return 0
	case r.bigEndian:
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

// Int16 reads an int16 aligned to 2 bytes.
func (r *Reader) Int16() int16 { return int16(r.Uint16()) }

// Uint32 reads a uint32 aligned to 4 bytes.
func (r *Reader) Uint32() uint32 {
	b := r.next(4, 4)
	switch {
	case b == nil:
		return 0
	case r.bigEndian:
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

// Int32 reads an int32 aligned to 4 bytes.
func (r *Reader) Int32() int32 { return int32(r.Uint32()) }

// Uint64 reads a uint64 aligned to 8 bytes.
func (r *Reader) Uint64() uint64 {
	b := r.next(8, 8)
	switch {
	case b == nil:
		return 0
	case r.bigEndian:
		return binary.BigEndian.Uint64(b)
	}
	return binary.LittleEndian.Uint64(b)
}

// Int64 reads an int64 aligned to 8 bytes.
func (r *Reader) Int64() int64 { return int64(r.Uint64()) }

// Float32 reads a float32 aligned to 4 bytes.
func (r *Reader) Float32() float32 { return math.Float32frombits(r.Uint32()) }

// Float64 reads a float64 aligned to 8 bytes.
func (r *Reader) Float64() float64 { return math.Float64frombits(r.Uint64()) }

// SeqLen reads the element count of a sequence whose elements take at least
// minSize bytes each on the wire. A count that cannot fit in the bytes left
// fails with ErrLength before the caller allocates anything.
func (r *Reader) SeqLen(minSize int) int {
	n := r.Uint32()
	if r.err != nil {
		return 0
	}
	if uint64(n)*uint64(minSize) > uint64(r.left()) {
		r.fail(fmt.Errorf("%w: %d elements of at least %d bytes, %d bytes left", ErrLength, n, minSize, r.left()))
		return 0
	}
	return int(n)
}

// BoundedSeqLen is SeqLen for a sequence declared T[<=max].
func (r *Reader) BoundedSeqLen(minSize, max int) int {
	n := r.SeqLen(minSize)
	if n > max {
		r.fail(fmt.Errorf("%w: %d elements, bound %d", ErrBound, n, max))
		return 0
	}
	return n
}

// String reads a string. The terminating NUL is dropped; a length of zero,
// which some writers use for the empty string, is accepted.
func (r *Reader) String() string {
	b := r.stringBytes()
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// BoundedString reads a string declared string<=max.
func (r *Reader) BoundedString(max int) string {
	b := r.stringBytes()
	if len(b) > max {
		r.fail(fmt.Errorf("%w: string of %d bytes, bound %d", ErrBound, len(b), max))
		return ""
	}
	return string(b)
}

func (r *Reader) stringBytes() []byte {
	n := r.Uint32()
	if r.err != nil || n == 0 {
		return nil
	}
	if uint64(n) > uint64(r.left()) {
		r.fail(fmt.Errorf("%w: string of %d bytes, %d bytes left", ErrLength, n, r.left()))
		return nil
	}
	b := r.next(1, int(n))
	if b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// Strings fills dst with strings.
func (r *Reader) Strings(dst []string) {
	for i := range dst {
		dst[i] = r.String()
	}
}

// BoundedStrings fills dst with strings declared string<=max.
func (r *Reader) BoundedStrings(dst []string, max int) {
	for i := range dst {
		dst[i] = r.BoundedString(max)
	}
}
