package dds

import (
	"errors"
	"fmt"

	"github.com/navnode/navnode/ros/rmw"
)

// ErrNoCgo is returned by New in a build without cgo.
var ErrNoCgo = errors.New("dds: navnode was built without cgo; CycloneDDS needs cgo")

// ErrClosed is returned by operations on a closed node, writer or reader.
var ErrClosed = rmw.ErrClosed

// ddsError is a negative DDS return code with what was being done.
type ddsError struct {
	op   string
	code int
}

func (e *ddsError) Error() string {
	return fmt.Sprintf("dds: %s: %s (%d)", e.op, retcodeName(e.code), e.code)
}

// Is matches DDS_RETCODE_TIMEOUT to rmw.ErrTimeout and
// DDS_RETCODE_ALREADY_DELETED to rmw.ErrClosed.
func (e *ddsError) Is(target error) bool {
	return target == rmw.ErrTimeout && e.code == -10 || target == rmw.ErrClosed && e.code == -9
}

// retcodeName names CycloneDDS's DDS_RETCODE_* values.
func retcodeName(code int) string {
	names := map[int]string{
		-1: "error", -2: "unsupported", -3: "bad parameter", -4: "precondition not met",
		-5: "out of resources", -6: "not enabled", -7: "immutable policy", -8: "inconsistent policy",
		-9: "already deleted", -10: "timeout", -11: "no data", -12: "illegal operation",
		-13: "not allowed by security",
	}
	if n, ok := names[code]; ok {
		return n
	}
	return "unknown error"
}
