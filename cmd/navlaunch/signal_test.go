//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/syncbuf"
)

// navlaunchProcess is the test binary running as navlaunch.
type navlaunchProcess struct {
	cmd       *exec.Cmd
	out, errs syncbuf.Buffer
	copies    sync.WaitGroup
	exited    chan struct{}
	exitErr   error
}

func startNavlaunch(t *testing.T, args ...string) *navlaunchProcess {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	n := &navlaunchProcess{cmd: exec.Command(exe, args...), exited: make(chan struct{})}
	n.cmd.Env = append(os.Environ(), roleEnv+"=navlaunch")
	stdout, err := n.cmd.StdoutPipe()
	require.NoError(t, err)
	stderr, err := n.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, n.cmd.Start())
	for _, c := range []struct {
		r io.Reader
		w *syncbuf.Buffer
	}{{stdout, &n.out}, {stderr, &n.errs}} {
		n.copies.Add(1)
		go func() {
			defer n.copies.Done()
			sc := bufio.NewScanner(c.r)
			for sc.Scan() {
				c.w.Write([]byte(sc.Text() + "\n")) //nolint:errcheck
			}
		}()
	}
	go func() {
		n.copies.Wait()
		n.exitErr = n.cmd.Wait()
		close(n.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-n.exited:
		default:
			n.cmd.Process.Kill() //nolint:errcheck
			<-n.exited
		}
	})
	return n
}

// wait waits for navlaunch to exit and returns its exit status.
func (n *navlaunchProcess) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-n.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("navlaunch did not exit; stdout:\n%s\nstderr:\n%s", n.out.String(), n.errs.String())
	}
	var ee *exec.ExitError
	if errors.As(n.exitErr, &ee) {
		return ee.ExitCode()
	}
	require.NoError(t, n.exitErr)
	return 0
}

// TestSIGTERMStopsEverything runs navlaunch as a process on a launch file
// starting two children, checks their output is prefixed and they got the
// command lines the file gives, then sends navlaunch SIGTERM: both
// children get it, exit, and navlaunch exits 0, removing the parameters
// files it wrote.
func TestSIGTERMStopsEverything(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // navlaunch's parameters files
	file, bin := testLaunch(t,
		node("alpha", "$(var greeting)", `<param name="rate" value="5"/><remap from="in" to="/alpha_in"/>`),
		`<group><push-ros-namespace namespace="fleet"/>`+node("beta", "", `<param name="use_sim_time" value="true"/>`)+`</group>`)
	n := startNavlaunch(t, "-bin", bin, file, "greeting:=hello")
	waitFor(t, &n.out, "[alpha] ready\n")
	waitFor(t, &n.out, "[beta] ready\n")
	params := tmp + `/navlaunch_params_\d+\.yaml`
	require.Regexp(t, `\[alpha\] args: hello --ros-args -r __node:=alpha -r in:=/alpha_in --params-file `+params+`\n`, n.out.String())
	require.Regexp(t, `\[beta\] args: --ros-args -r __node:=beta -r __ns:=/fleet --params-file `+params+`\n`, n.out.String())
	// The children print their pids on stderr, a pipe of its own, which
	// can lag behind stdout's "ready".
	var pids [][]string
	require.Eventually(t, func() bool {
		pids = regexp.MustCompile(`(?m)^\[(alpha|beta)\] pid (\d+)$`).FindAllStringSubmatch(n.errs.String(), -1)
		return len(pids) == 2
	}, 10*time.Second, 5*time.Millisecond, "both pids on stderr")

	require.NoError(t, n.cmd.Process.Signal(syscall.SIGTERM))
	require.Equal(t, 0, n.wait(t), "stderr:\n%s", n.errs.String())
	require.Contains(t, n.out.String(), "[alpha] got terminated\n")
	require.Contains(t, n.out.String(), "[beta] got terminated\n")
	require.Contains(t, n.errs.String(), "[navlaunch] terminated: stopping every process\n")
	for _, m := range pids {
		pid, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		require.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "%s (pid %d) is still there", m[1], pid)
	}
	for _, line := range strings.Split(strings.TrimSpace(n.out.String()), "\n") {
		require.Regexp(t, `^\[(alpha|beta)\] `, line)
	}
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Empty(t, left)
}

// TestExitStatus: navlaunch exits with the status of the first failure.
func TestExitStatus(t *testing.T) {
	file, bin := testLaunch(t, node("alpha", "-exit 7", ""), node("beta", "-exit 0", ""))
	n := startNavlaunch(t, "-bin", bin, file)
	require.Equal(t, 7, n.wait(t))
	require.Contains(t, n.errs.String(), "navlaunch: alpha failed: exit status 7\n")
}
