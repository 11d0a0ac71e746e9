//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestStopReachesGrandchildren: a node whose executable is a wrapper (a
// shell script, as a venv's launcher is) starts the real program as its
// child. Stopping navlaunch must stop both, as the terminal's Ctrl-C does
// under ros2 launch; navlaunch used to signal the wrapper's pid alone
// and leave the program running (found by a review, 2026-11-22).
func TestStopReachesGrandchildren(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	file, bin := reviewLaunch(t, map[string]string{
		"wrapper": "sleep 300 &\necho $! > " + pidFile + ".tmp\nmv " + pidFile + ".tmp " + pidFile + "\nwait\n",
	}, `<node pkg="navnode" exec="wrapper"/>`)
	var out, errs bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan error, 1)
	go func() { result <- run(ctx, []string{"-bin", bin, "-grace", "5s", file}, &out, &errs) }()
	pid := readPid(t, pidFile)
	cancel() // as SIGTERM or Ctrl-C to navlaunch
	select {
	case <-result:
	case <-time.After(30 * time.Second):
		t.Fatal("navlaunch did not return")
	}
	requireGone(t, pid)
	require.NotContains(t, errs.String(), "killing it", "the wrapper outlived the signal:\n%s", errs.String())
}

// readPid waits for a pid written to file, and kills it when the test ends.
func readPid(t *testing.T, file string) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	}, 10*time.Second, 5*time.Millisecond, "no pid in %s", file)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) //nolint:errcheck
	return pid
}

// requireGone waits up to five seconds for the process pid to be gone
// (a zombie waiting for init counts as gone).
func requireGone(t *testing.T, pid int) {
	t.Helper()
	gone := func() bool {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return syscall.Kill(pid, 0) == syscall.ESRCH
		}
		return strings.Contains(string(stat), ") Z ")
	}
	require.Eventually(t, gone, 5*time.Second, 10*time.Millisecond, "process %d outlived navlaunch", pid)
}
