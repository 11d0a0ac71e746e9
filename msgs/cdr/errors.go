package cdr

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrTruncated means the payload ended before a field did.
	ErrTruncated = errors.New("truncated")
	// ErrLength means a length read from the wire cannot fit in the bytes left.
	ErrLength = errors.New("length exceeds payload")
	// ErrBound means a bounded string or sequence is longer than its bound.
	ErrBound = errors.New("bound exceeded")
	// ErrEncapsulation means the encapsulation header is missing or names an
	// encoding other than plain CDR (XCDR1).
	ErrEncapsulation = errors.New("unsupported encapsulation")
	// ErrTooLong means a string or sequence is too long for a uint32 length.
	ErrTooLong = errors.New("length does not fit in uint32")
)

// DecodeError reports where decoding failed.
type DecodeError struct {
	Type   string // ROS type name, e.g. "geometry_msgs/msg/PoseStamped"
	Field  string // dotted field path, e.g. "header.frame_id"; empty for the header
	Offset int    // byte offset into the payload, header included
	Err    error  // one of the sentinel errors, possibly wrapped with detail
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cdr: decoding %s", e.Type)
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s", e.Field)
	}
	fmt.Fprintf(&b, " at byte %d: %v", e.Offset, e.Err)
	return b.String()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// EncodeError reports a value that cannot be encoded.
type EncodeError struct {
	Type  string // ROS type name of the message that holds the field
	Field string // field name
	Err   error  // ErrBound or ErrTooLong, wrapped with detail
}

func (e *EncodeError) Error() string {
	return fmt.Sprintf("cdr: encoding %s: field %s: %v", e.Type, e.Field, e.Err)
}

func (e *EncodeError) Unwrap() error { return e.Err }
