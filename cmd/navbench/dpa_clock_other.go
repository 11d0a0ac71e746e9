//go:build !linux

package main

import "time"

// threadCPU reports that this system has no per-thread CPU clock here.
func threadCPU() (time.Duration, bool) { return 0, false }
