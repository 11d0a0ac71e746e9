// Package node tests the navnode command end to end: started from its
// launch file by navlaunch, fed over DDS by a peer in the test process,
// checked on what it publishes.
package node

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/syncbuf"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
)

// repoRoot is the module root, two levels up from this package.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// TestMain removes the binaries the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binaries builds navnode, navlaunch and navsim once per test run.
func binaries(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "navnode-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir, "./cmd/navnode", "./cmd/navlaunch", "./cmd/navsim")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return binDir
}

// launched is navnode running under navlaunch.
type launched struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan error
}

// launch starts launch/navnode.launch.xml with the parameters file
// params and extra launch arguments on DDS domain, loopback only.
func launch(t testing.TB, domain uint32, params string, args ...string) *launched {
	t.Helper()
	return launchFile(t, domain, nil, nil, "navnode.launch.xml", append([]string{"params_file:=" + params}, args...)...)
}

// launchFile runs navlaunch with flags on launch/file with launch
// arguments args, on DDS domain, loopback only, with env added.
func launchFile(t testing.TB, domain uint32, env, flags []string, file string, args ...string) *launched {
	t.Helper()
	bin := binaries(t)
	argv := append(append([]string{"-bin", bin, "-share", repoRoot}, flags...), filepath.Join(repoRoot, "launch", file))
	argv = append(argv, args...)
	cmd := exec.Command(filepath.Join(bin, "navlaunch"), argv...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("ROS_DOMAIN_ID=%d", domain),
		"ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST", "CYCLONEDDS_URI="+dds.LoopbackInterface)
	cmd.Env = append(cmd.Env, env...)
	l := &launched{cmd: cmd, out: &syncbuf.Buffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = l.out, l.out
	require.NoError(t, cmd.Start())
	go func() { l.done <- cmd.Wait() }()
	t.Cleanup(func() {
		l.stop(t)
		if t.Failed() {
			t.Logf("navlaunch output:\n%s", l.out.String())
		}
	})
	return l
}

// errRunning is wait's error when navlaunch has not exited.
var errRunning = errors.New("navlaunch still running")

// wait waits up to d for navlaunch to exit by itself (0: does not wait).
func (l *launched) wait(d time.Duration) error {
	select {
	case err := <-l.done:
		l.done <- err
		return err
	default:
	}
	select {
	case err := <-l.done:
		l.done <- err
		return err
	case <-time.After(d):
		return fmt.Errorf("%w after %v", errRunning, d)
	}
}

// stop sends SIGINT and waits for a clean exit. A navlaunch still
// running 15 s later is killed and waited for; its nodes get SIGTERM
// from the kernel when it dies (navlaunch asks for it on Linux), so
// none stays on the domain the next test uses.
func (l *launched) stop(t testing.TB) error {
	if err := l.wait(0); !errors.Is(err, errRunning) {
		return err
	}
	_ = l.cmd.Process.Signal(syscall.SIGINT)
	if err := l.wait(15 * time.Second); !errors.Is(err, errRunning) {
		return err
	}
	_ = l.cmd.Process.Kill()
	_ = l.wait(5 * time.Second)
	return fmt.Errorf("navlaunch did not stop within 15 s of SIGINT")
}

// peer returns a ros node on domain, loopback only, for the test side.
func peer(t testing.TB, ctx context.Context, domain uint32) *ros.Node {
	t.Helper()
	mw, err := dds.New(dds.Loopback(domain))
	require.NoError(t, err)
	n, err := ros.NewNode(ctx, "peer", ros.WithMiddleware(mw))
	require.NoError(t, err)
	t.Cleanup(func() { n.Close() })
	return n
}

// writeParams writes a ros__parameters file for navnode.
func writeParams(t testing.TB, values map[string]any) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("/**/navnode:\n  ros__parameters:\n")
	for k, v := range values {
		switch v := v.(type) {
		case string:
			fmt.Fprintf(&b, "    %s: %q\n", k, v)
		default:
			fmt.Fprintf(&b, "    %s: %v\n", k, v)
		}
	}
	p := filepath.Join(t.TempDir(), "params.yaml")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}
