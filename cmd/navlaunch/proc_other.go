//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// ownProcessGroup does nothing where there are no process groups.
func ownProcessGroup(*exec.Cmd) {}

// signalProcess kills p: other systems cannot deliver SIGINT or SIGTERM.
func signalProcess(p *os.Process, _ os.Signal) os.Signal {
	p.Kill() //nolint:errcheck // it may have just exited
	return os.Kill
}

// endedBy reports whether a process navlaunch killed ended: its exit
// does not say how.
func endedBy(st *os.ProcessState, sent []os.Signal) bool {
	return len(sent) > 0 && st.ExitCode() != 0
}

// signalGroup does nothing where there are no process groups.
func signalGroup(*os.Process, os.Signal) {}
