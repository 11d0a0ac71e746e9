package main

import "syscall"

// stopWithParent has the kernel send the process SIGTERM when navlaunch
// dies, killed by a signal it cannot catch (SIGKILL, the OOM killer),
// so that no node is left running without its launcher.
func stopWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }
