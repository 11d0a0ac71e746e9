package replanner

import "errors"

// Sentinel errors, matched with errors.Is; the errors around them say which
// value was wrong and why.
var (
	// ErrConfig is a Config no loop can run with (a nil map, an empty or
	// oversized Volume, a NaN tolerance, ground mode on a map whose robot is
	// not a Cylinder…).
	ErrConfig = errors.New("replanner: invalid configuration")
	// ErrInput is a pose or goal with a NaN or infinite coordinate. The
	// loop ignores it and keeps its state.
	ErrInput = errors.New("replanner: invalid input")
	// ErrOutside is a goal outside the planning Volume (ground mode: outside
	// its x-y extent). The loop ignores it and keeps its state.
	ErrOutside = errors.New("replanner: goal outside the planning volume")
)
