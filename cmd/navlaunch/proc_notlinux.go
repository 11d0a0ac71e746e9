//go:build unix && !linux

package main

import "syscall"

// stopWithParent does nothing: only Linux signals a child when its parent
// dies.
func stopWithParent(*syscall.SysProcAttr) {}
