//go:build !linux

package planners

import "time"

// threadCPU is not available here: benchmarks time by the wall clock.
func threadCPU() (time.Duration, bool) { return 0, false }
