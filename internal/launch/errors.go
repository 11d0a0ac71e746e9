package launch

import (
	"errors"
	"fmt"
)

// Sentinel errors, matched with errors.Is; the messages around them name
// the offending element, value or file.
var (
	// ErrSyntax is malformed XML, an unknown element or attribute, a
	// missing attribute, an element in the wrong place, or a <param value>
	// launch cannot type (a null, a mapping, a list of mixed types).
	ErrSyntax = errors.New("launch: invalid launch file")
	// ErrSubstitution is a $(...) that cannot be evaluated: an undefined
	// $(var), an unset $(env), an unknown substitution, bad syntax, or
	// one whose value a <param value> cannot take.
	ErrSubstitution = errors.New("launch: substitution")
	// ErrArgument is a required launch argument that was not given, a
	// command-line argument no file declares, or a malformed name:=value.
	ErrArgument = errors.New("launch: argument")
	// ErrIncludeLoop is a launch file that includes itself, directly or not.
	ErrIncludeLoop = errors.New("launch: include loop")
	// ErrNotFound is a package or executable that cannot be found; the
	// message reads "package NAME not found (...)".
	ErrNotFound = errors.New("not found")
)

// PosError is an error at an element of a launch file. An error in an
// included file is a PosError at the <include> wrapping one in the
// included file, so the message reads from the outermost file in.
type PosError struct {
	File string // the launch file as it was named to Load or in <include>
	Line int    // 1-based line of the element's start tag
	Err  error
}

func (e *PosError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

func (e *PosError) Unwrap() error { return e.Err }
