// Package cdr reads and writes the XCDR1 (classic CDR) encoding that ROS 2
// uses on the wire.
//
// A serialized ROS 2 message starts with a 4-byte encapsulation header:
// 00 01 00 00 for little-endian CDR (what navnode writes) or 00 00 00 00 for
// big-endian CDR (which it also reads). The body follows, with every primitive
// aligned to its own size, counted from the first byte after the header, up to
// a maximum alignment of 8. Strings are a uint32 length that includes the
// terminating NUL, then the bytes and the NUL. Sequences are a uint32 element
// count, then the elements; an empty sequence adds no padding. Fixed arrays are
// the elements alone.
//
// Writer and Reader are the low-level halves used by the generated message
// packages under msgs/. Application code calls the generated AppendCDR and
// UnmarshalCDR methods instead.
//
// Reader never trusts the wire: every length is checked against the bytes left
// before anything is allocated, the first error sticks, and later reads return
// zero values, so generated decoders need no error checks between primitives.
package cdr
