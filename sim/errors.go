package sim

import "errors"

var (
	// ErrWorld: a world that cannot be loaded: YAML that does not parse, an
	// unknown key, a missing map file, a shape of zero, negative or
	// non-finite size, bounds that do not hold the world.
	ErrWorld = errors.New("sim: bad world")
	// ErrScenario: a scenario that cannot be run: bad YAML, an unknown key
	// or value, a limit out of range, an event for an obstacle that does
	// not exist at that time.
	ErrScenario = errors.New("sim: bad scenario")
	// ErrLog: a mission log line that cannot be read.
	ErrLog = errors.New("sim: bad mission log")
	// ErrNoPath: no collision-free path between two places (Space.Path).
	ErrNoPath = errors.New("sim: no path")
)
