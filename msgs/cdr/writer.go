package cdr

import (
	"encoding/binary"
	"fmt"
	"math"
)

// HeaderLE is the encapsulation header of a little-endian plain CDR payload,
// the only one navnode writes.
var HeaderLE = [4]byte{0x00, 0x01, 0x00, 0x00}

var zeros [8]byte

// Writer appends a little-endian CDR payload to a byte slice. Methods record
// the first error and keep going; Finish reports it.
type Writer struct {
	buf    []byte
	origin int // index in buf of the first body byte; alignment counts from here
	err    error
}

// NewWriter starts a payload at the end of dst by appending the encapsulation
// header. Pass dst[:0] of a buffer kept between calls to encode without
// allocating.
func NewWriter(dst []byte) Writer {
	dst = append(dst, HeaderLE[:]...)
	return Writer{buf: dst, origin: len(dst)}
}

// Finish returns the payload and the first error met while writing it.
func (w *Writer) Finish() ([]byte, error) { return w.buf, w.err }

// Fail records err unless an earlier error is already recorded.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *Writer) align(n int) {
	if pad := -(len(w.buf) - w.origin) & (n - 1); pad > 0 {
		w.buf = append(w.buf, zeros[:pad]...)
	}
}

// Bool writes b as one byte, 0 or 1.
func (w *Writer) Bool(b bool) {
	var v byte
	if b {
		v = 1
	}
	w.buf = append(w.buf, v)
}

// Uint8 writes v.
func (w *Writer) Uint8(v uint8) { w.buf = append(w.buf, v) }

// Int8 writes v.
func (w *Writer) Int8(v int8) { w.buf = append(w.buf, byte(v)) }

// Uint16 writes v aligned to 2 bytes.
func (w *Writer) Uint16(v uint16) {
	w.align(2)
	w.buf = binary.LittleEndian.AppendUint16(w.buf, v)
}

// Int16 writes v aligned to 2 bytes.
func (w *Writer) Int16(v int16) { w.Uint16(uint16(v)) }

// Uint32 writes v aligned to 4 bytes.
func (w *Writer) Uint32(v uint32) {
	w.align(4)
	w.buf = binary.LittleEndian.AppendUint32(w.buf, v)
}

// Int32 writes v aligned to 4 bytes.
func (w *Writer) Int32(v int32) { w.Uint32(uint32(v)) }

// Uint64 writes v aligned to 8 bytes.
func (w *Writer) Uint64(v uint64) {
	w.align(8)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
}

// Int64 writes v aligned to 8 bytes.
func (w *Writer) Int64(v int64) { w.Uint64(uint64(v)) }

// Float32 writes v aligned to 4 bytes.
func (w *Writer) Float32(v float32) { w.Uint32(math.Float32bits(v)) }

// Float64 writes v aligned to 8 bytes.
func (w *Writer) Float64(v float64) { w.Uint64(math.Float64bits(v)) }

// SeqLen writes the element count of a sequence.
func (w *Writer) SeqLen(n int) {
	if uint64(n) > math.MaxUint32 {
		w.Fail(fmt.Errorf("%w: sequence of %d elements", ErrTooLong, n))
		n = 0
	}
	w.Uint32(uint32(n))
}

// BoundedSeqLen writes the element count of a sequence declared T[<=max] in
// field of type typ, failing if n exceeds max.
func (w *Writer) BoundedSeqLen(n, max int, typ, field string) {
	if n > max {
		w.Fail(&EncodeError{Type: typ, Field: field,
			Err: fmt.Errorf("%w: %d elements, bound %d", ErrBound, n, max)})
	}
	w.SeqLen(n)
}

// String writes s as a uint32 length that counts the terminating NUL, the
// bytes of s, and the NUL.
func (w *Writer) String(s string) {
	if uint64(len(s)) >= math.MaxUint32 {
		w.Fail(fmt.Errorf("%w: string of %d bytes", ErrTooLong, len(s)))
		s = ""
	}
	w.Uint32(uint32(len(s) + 1))
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, 0)
}

// BoundedString writes s, declared string<=max in field of type typ, failing
// if s is longer than max bytes.
func (w *Writer) BoundedString(s string, max int, typ, field string) {
	if len(s) > max {
		w.Fail(&EncodeError{Type: typ, Field: field,
			Err: fmt.Errorf("%w: string of %d bytes, bound %d", ErrBound, len(s), max)})
	}
	w.String(s)
}

// Strings writes each string of s.
func (w *Writer) Strings(s []string) {
	for _, v := range s {
		w.String(v)
	}
}

// BoundedStrings writes each string of s, each declared string<=max.
func (w *Writer) BoundedStrings(s []string, max int, typ, field string) {
	for _, v := range s {
		w.BoundedString(v, max, typ, field)
	}
}
