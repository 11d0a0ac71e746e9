package rosconv

import "errors"

// Sentinel errors, matched with errors.Is; the errors around them name the
// field and value at fault.
var (
	// ErrInvalid is a message with a value outside its contract: a
	// non-finite pose, a zero quaternion, a resolution ≤ 0, a data length
	// that disagrees with the dimensions, a stamp out of range.
	ErrInvalid = errors.New("rosconv: invalid message")
	// ErrNoXYZ is a point cloud without float32 or float64 fields named
	// x, y and z, each count ≥ 1.
	ErrNoXYZ = errors.New("rosconv: point cloud has no float x, y, z fields")
	// ErrLayout is a point cloud whose layout does not fit its data: a
	// field past point_step, points past row_step, rows past the data,
	// overlapping or repeated x, y, z fields.
	ErrLayout = errors.New("rosconv: point cloud layout does not fit its data")
	// ErrTooLarge is a message beyond the sizes navnode accepts (see
	// MaxGridCells, MaxBeams).
	ErrTooLarge = errors.New("rosconv: message too large")
	// ErrUnsupported is a marker type or action navnode does not turn into
	// an obstacle.
	ErrUnsupported = errors.New("rosconv: unsupported marker")
)
