//go:build unix

package main

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
)

// ownProcessGroup puts the process in a process group of its own, so a
// Ctrl-C at the terminal reaches navlaunch only, which forwards it once.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalProcess sends sig to p, and returns it; a process that has exited
// is ignored.
func signalProcess(p *os.Process, sig os.Signal) os.Signal {
	p.Signal(sig) //nolint:errcheck // it may have just exited
	return sig
}

// endedBy reports whether a process ended by one of the signals sent.
func endedBy(st *os.ProcessState, sent []os.Signal) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && slices.Contains(sent, os.Signal(ws.Signal()))
}
