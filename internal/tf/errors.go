package tf

import "errors"

// Sentinel errors, matched with errors.Is; the errors around them name the
// frames and times involved.
var (
	// ErrInvalid is a transform that cannot be stored: a non-finite
	// translation or one longer than MaxTranslation, a quaternion that is not finite or has zero norm, an
	// empty frame name, a frame that is its own parent, or a stamp outside
	// builtin_interfaces/Time's range.
	ErrInvalid = errors.New("tf: invalid transform")
	// ErrUnknownFrame is a lookup of a frame no transform has named.
	ErrUnknownFrame = errors.New("tf: unknown frame")
	// ErrNoPath is a lookup between frames of two disconnected trees.
	ErrNoPath = errors.New("tf: frames are not connected")
	// ErrExtrapolation is a lookup at a time outside a frame's history by
	// more than Options.Tolerance.
	ErrExtrapolation = errors.New("tf: extrapolation")
	// ErrLoop is a lookup whose parent chain comes back to a frame already
	// visited (or is deeper than MaxDepth).
	ErrLoop = errors.New("tf: loop in the frame tree")
	// ErrOldData is a dynamic transform older than the history kept for its
	// frame; it is ignored.
	ErrOldData = errors.New("tf: transform older than the history")
	// ErrFull is a transform naming a new frame when Options.MaxFrames
	// frames are known, or a frame's first transform when
	// Options.MaxTotalRecords transforms are held.
	ErrFull = errors.New("tf: buffer full")
)
