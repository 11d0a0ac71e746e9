//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// ownProcessGroup does nothing where there are no process groups.
func ownProcessGroup(*exec.Cmd) {}

// signalProcess kills p: other systems cannot deliver SIGINT or SIGTERM.
func signalProcess(p *os.Process, _ os.Signal) {
	p.Kill() //nolint:errcheck // it may have just exited
}
