//go:build unix

package main

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
)

// ownProcessGroup puts the process in a process group of its own, so a
// Ctrl-C at the terminal reaches navlaunch only, which forwards it once
// to the whole group: the process and whatever it started (a wrapper
// script's program), as the terminal would under ros2 launch. Where the
// system can, the process also gets SIGTERM when navlaunch dies without
// stopping it (see stopWithParent).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stopWithParent(cmd.SysProcAttr)
}

// signalProcess sends sig to p's process group, and returns it; a group
// that has gone is ignored.
func signalProcess(p *os.Process, sig os.Signal) os.Signal {
	s, ok := sig.(syscall.Signal)
	if !ok || syscall.Kill(-p.Pid, s) != nil {
		p.Signal(sig) //nolint:errcheck // it may have just exited
	}
	return sig
}

// endedBy reports whether a process ended by one of the signals sent.
func endedBy(st *os.ProcessState, sent []os.Signal) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && slices.Contains(sent, os.Signal(ws.Signal()))
}

// signalGroup sends sig to the process group of p, which has exited: what
// it started in the background (a wrapper's program) is still in it. A
// group that has gone is ignored; Linux does not hand out the id of a
// group that still has members to a new process.
func signalGroup(p *os.Process, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(-p.Pid, s) //nolint:errcheck // the group may be gone
	}
}
