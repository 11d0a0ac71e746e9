//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the process in a process group of its own, so a
// Ctrl-C at the terminal reaches navlaunch only, which forwards it once.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalProcess sends sig to p; a process that has exited is ignored.
func signalProcess(p *os.Process, sig os.Signal) {
	p.Signal(sig) //nolint:errcheck // it may have just exited
}
