package voxel

import "errors"

// Sentinel errors, matched with errors.Is; the errors around them say what
// was wrong with which value.
var (
	// ErrConfig is a Config no map can have.
	ErrConfig = errors.New("voxel: invalid configuration")
	// ErrInput is an update that cannot be applied at all (a grid with zero
	// resolution, a shape with a NaN size, a sensor origin that is not
	// finite). Bad individual points are skipped and counted instead.
	ErrInput = errors.New("voxel: invalid input")
	// ErrMemory is an update that would exceed Config.MaxBricks. The map
	// holds the part of the update applied so far, except that inflation
	// distances the limit had no room for are missing (those voxels keep
	// their costs without them); the first later update that finds room
	// settles them and lists their costs in its change set.
	ErrMemory = errors.New("voxel: memory limit reached")
	// ErrFormat is a map file that cannot be read.
	ErrFormat = errors.New("voxel: invalid map file")
	// ErrUnknownShape is a modify or delete of a shape id never added.
	ErrUnknownShape = errors.New("voxel: unknown shape id")
)
