//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/syncbuf"
)

// These tests came from a review (2026-11-22): each failed before its fix.

// reviewLaunch writes shell scripts into a -bin directory and a launch
// file starting them, and returns the file and the directory.
func reviewLaunch(t *testing.T, scripts map[string]string, body string) (file, bin string) {
	t.Helper()
	bin, dir := t.TempDir(), t.TempDir()
	for name, text := range scripts {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+text), 0o755))
	}
	file = filepath.Join(dir, "r.launch.xml")
	require.NoError(t, os.WriteFile(file, []byte("<launch>\n"+body+"\n</launch>\n"), 0o644))
	return file, bin
}

// TestCrashWhileStoppingIsAFailure: navlaunch fails on death by a signal
// it did not send. Here one process ends first (status 0), -exit-on-first
// sends SIGINT to the other, which then dies of SIGSEGV (as a node
// crashing in its shutdown would): navlaunch never sent SIGSEGV.
func TestCrashWhileStoppingIsAFailure(t *testing.T) {
	file, bin := reviewLaunch(t, map[string]string{
		"crasher": "trap 'trap - SEGV; kill -SEGV $$' INT TERM\necho armed\nwhile :; do sleep 0.05; done\n",
		"quick":   "sleep 0.5\nexit 0\n",
	}, `<node pkg="navnode" exec="crasher"/><node pkg="navnode" exec="quick"/>`)
	var out, errs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := run(ctx, []string{"-bin", bin, "-exit-on-first", "-grace", "5s", file}, &out, &errs)
	t.Logf("stderr:\n%s", errs.String())
	require.Contains(t, errs.String(), "[navlaunch] crasher: ended by signal: segmentation fault")
	require.Error(t, err, "crasher died of a signal navlaunch did not send")
}

// TestDryRunEnvIsShellReady: -dry-run prints command lines ready to paste
// into a shell; an <env> value that needs quoting still sets the variable.
func TestDryRunEnvIsShellReady(t *testing.T) {
	file, bin := reviewLaunch(t, map[string]string{"show": "echo \"FOO=[$FOO]\"\n"},
		`<node pkg="navnode" exec="show"><env name="FOO" value="a b"/></node>`)
	var out, errs bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-bin", bin, "-dry-run", file}, &out, &errs))
	line := strings.TrimSpace(out.String())
	t.Logf("dry-run: %s", line)
	_, cmdline, ok := strings.Cut(line, "] ")
	require.True(t, ok)
	got, err := exec.Command("sh", "-c", cmdline).CombinedOutput()
	require.NoError(t, err, "%s", got)
	require.Equal(t, "FOO=[a b]\n", string(got))
}

// TestFindPkgShareFromAnotherPackage: a user's own package's launch file
// that includes navnode's, with navnode installed in an ament prefix:
// $(find-pkg-share navnode) is navnode's share directory, not the user's
// package's.
func TestFindPkgShareFromAnotherPackage(t *testing.T) {
	prefix := t.TempDir()
	share := filepath.Join(prefix, "share", "navnode")
	require.NoError(t, os.MkdirAll(filepath.Join(share, "launch"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(prefix, "lib", "navnode"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(prefix, "lib", "navnode", "navnode"), []byte("#!/bin/sh\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(share, "launch", "navnode.launch.xml"),
		[]byte(`<launch><node pkg="navnode" exec="navnode"/></launch>`), 0o644))
	mine := filepath.Join(t.TempDir(), "my_robot", "launch")
	require.NoError(t, os.MkdirAll(mine, 0o755))
	file := filepath.Join(mine, "robot.launch.xml")
	require.NoError(t, os.WriteFile(file,
		[]byte(`<launch><include file="$(find-pkg-share navnode)/launch/navnode.launch.xml"/></launch>`), 0o644))
	t.Setenv("AMENT_PREFIX_PATH", prefix)
	var out, errs bytes.Buffer
	err := run(context.Background(), []string{"-dry-run", file}, &out, &errs)
	require.NoError(t, err)
	require.Contains(t, out.String(), filepath.Join(prefix, "lib", "navnode", "navnode"))
}

// TestHangupLeavesNoOrphans: a terminal hangup (closing the terminal, an
// ssh session dropping) sends SIGHUP to the foreground process group,
// which navlaunch is in, and not to its children, in groups of their own:
// navlaunch passes it on, and no child outlives it.
func TestHangupLeavesNoOrphans(t *testing.T) {
	file, bin := testLaunch(t, node("alpha", "", ""))
	exe, err := os.Executable()
	require.NoError(t, err)
	var errs syncbuf.Buffer
	cmd := exec.Command(exe, "-bin", bin, file)
	cmd.Env = append(os.Environ(), roleEnv+"=navlaunch")
	cmd.Stderr = &errs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // as a shell's foreground job
	require.NoError(t, cmd.Start())
	var pid int
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`(?m)^\[alpha\] pid (\d+)$`).FindStringSubmatch(errs.String())
		if m == nil {
			return false
		}
		pid, _ = strconv.Atoi(m[1])
		return true
	}, 30*time.Second, 5*time.Millisecond)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) //nolint:errcheck
	time.Sleep(200 * time.Millisecond)                       // the child is waiting for signals
	require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGHUP))
	werr := cmd.Wait()
	t.Logf("navlaunch: %v; stderr:\n%s", werr, errs.String())
	time.Sleep(500 * time.Millisecond)
	require.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "alpha (pid %d) outlived navlaunch", pid)
}

// TestStopReachesGroupOfExitedProcess: a node whose executable is a
// wrapper that starts its program in the background and exits leaves the
// program in the wrapper's process group; stopping navlaunch signals that
// group too. It used to signal only the processes still running, and the
// program outlived navlaunch (review, 2026-11-23).
func TestStopReachesGroupOfExitedProcess(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "bg.pid")
	file, bin := reviewLaunch(t, map[string]string{
		"starter": "sleep 300 >/dev/null 2>&1 &\necho $! > " + pidFile + ".tmp\nmv " + pidFile + ".tmp " + pidFile + "\nexit 0\n",
		"waiter":  "trap 'exit 0' INT TERM\nwhile :; do sleep 0.05; done\n",
	}, `<node pkg="navnode" exec="starter"/><node pkg="navnode" exec="waiter"/>`)
	var out, errs bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan error, 1)
	go func() { result <- run(ctx, []string{"-bin", bin, "-grace", "5s", file}, &out, &errs) }()
	pid := readPid(t, pidFile)
	time.Sleep(500 * time.Millisecond) // the starter has exited
	cancel()                           // as a SIGTERM to navlaunch
	select {
	case <-result:
	case <-time.After(30 * time.Second):
		t.Fatal("navlaunch did not return")
	}
	requireGone(t, pid)
}
