package main

import (
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestKilledNavlaunchStopsChildren: navlaunch killed by SIGKILL, which it
// cannot forward, still leaves no node running: the kernel sends each
// SIGTERM (found by a review, 2026-11-22).
func TestKilledNavlaunchStopsChildren(t *testing.T) {
	file, bin := testLaunch(t, node("alpha", "", ""), node("beta", "", ""))
	n := startNavlaunch(t, "-bin", bin, file)
	var pids [][]string
	require.Eventually(t, func() bool {
		pids = regexp.MustCompile(`(?m)^\[(alpha|beta)\] pid (\d+)$`).FindAllStringSubmatch(n.errs.String(), -1)
		return len(pids) == 2
	}, 30*time.Second, 5*time.Millisecond, "both pids on stderr")
	waitFor(t, &n.out, "[alpha] ready\n")
	waitFor(t, &n.out, "[beta] ready\n")
	for _, m := range pids {
		pid, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) //nolint:errcheck
	}
	require.NoError(t, n.cmd.Process.Signal(syscall.SIGKILL))
	<-n.exited
	for _, m := range pids {
		pid, _ := strconv.Atoi(m[2])
		requireGone(t, pid)
	}
}
