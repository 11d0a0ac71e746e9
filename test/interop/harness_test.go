// Package interop tests navnode's ROS 2 client layer against DDS stacks it
// shares no code with: a CycloneDDS C program with idlc-generated types, a
// Fast DDS C++ program with fastddsgen-generated types, and the npm package
// @foxglove/ros2. The peers are built by "make peers".
package interop

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/navnode/navnode/internal/syncbuf"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
)

// loopbackConfig is the CycloneDDS configuration of the C peers: navnode's
// own for loopback with unicast discovery (dds.Loopback).
var loopbackConfig = dds.Loopback(0).CycloneConfig()

// repoRoot is the module root, two levels up from this package.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// program is how to start a peer: a binary with leading arguments and
// extra environment, and the DDS configuration navnode needs to meet it.
type program struct {
	name    string
	path    string
	args    []string
	env     []string
	navnode func(domain uint32) dds.Config
}

// built returns a peer built by make peers under build/interop.
func built(t testing.TB, name string) program {
	t.Helper()
	p := filepath.Join(repoRoot, "build", "interop", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("peer %s is not built (%v): run make peers", name, err)
	}
	return program{name: name, path: p, navnode: dds.Loopback}
}

// testCtx bounds a whole test.
func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// navnode is the Go side of a test: a ros.Node on its own domain, whose
// logs the test can inspect.
type navnode struct {
	*ros.Node
	logs *observer.ObservedLogs
	mw   *dds.Middleware // for readers of raw payloads
}

func newNavnode(t testing.TB, ctx context.Context, prog program, domain uint32) *navnode {
	t.Helper()
	mw, err := dds.New(prog.navnode(domain))
	require.NoError(t, err)
	core, logs := observer.New(zap.DebugLevel)
	n, err := ros.NewNode(ctx, "navnode", ros.WithMiddleware(mw), ros.WithLogger(zap.New(core)))
	require.NoError(t, err)
	t.Cleanup(func() { n.Close() })
	return &navnode{Node: n, logs: logs, mw: mw}
}

// peer is a running peer process. Publishing peers stay up until their
// stdin closes, which wait does.
type peer struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   syncbuf.Buffer
	done  chan error
}

// command returns the command that runs prog with args on domain.
func (prog program) command(ctx context.Context, domain uint32, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, prog.path, append(append([]string{}, prog.args...), args...)...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("ROS_DOMAIN_ID=%d", domain), "CYCLONEDDS_URI="+loopbackConfig)
	cmd.Env = append(cmd.Env, prog.env...)
	return cmd
}

// startPeer runs a peer on domain with args; its output is kept for the
// test's failure messages.
func startPeer(t testing.TB, ctx context.Context, domain uint32, prog program, args ...string) *peer {
	t.Helper()
	p := &peer{name: prog.name + " " + strings.Join(args, " "), done: make(chan error, 1)}
	p.cmd = prog.command(ctx, domain, args...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	var err error
	p.stdin, err = p.cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.stdin.Close()
		_ = p.cmd.Process.Kill() // fails harmlessly if it has exited
		p.done <- <-p.done
	})
	return p
}

// waitReady waits until the peer says its endpoint has matched navnode's.
func (p *peer) waitReady(t testing.TB, ctx context.Context) {
	t.Helper()
	for !strings.Contains(p.out.String(), "READY\n") {
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("peer %q exited before it was ready (%v):\n%s", p.name, err, p.out.String())
		case <-ctx.Done():
			t.Fatalf("peer %q never matched navnode: %v\noutput so far:\n%s", p.name, ctx.Err(), p.out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// proceed tells a publishing peer that navnode's side has matched too.
func (p *peer) proceed(t testing.TB) {
	t.Helper()
	_, err := io.WriteString(p.stdin, "go\n")
	require.NoError(t, err, "peer %q", p.name)
}

// wait lets the peer finish (closing its stdin), waits for it to exit and
// fails the test, with its output, if it did not succeed.
func (p *peer) wait(t testing.TB, ctx context.Context) string {
	t.Helper()
	p.stdin.Close()
	select {
	case err := <-p.done:
		p.done <- err
		require.NoError(t, err, "peer %q failed:\n%s", p.name, p.out.String())
	case <-ctx.Done():
		t.Fatalf("peer %q did not finish: %v\noutput so far:\n%s", p.name, ctx.Err(), p.out.String())
	}
	return p.out.String()
}

// waitFor waits for a value from ch, or fails the test saying what was
// expected and what the peer printed.
func waitFor[T any](t testing.TB, ctx context.Context, ch <-chan T, what string, peers ...*peer) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		var b strings.Builder
		for _, p := range peers {
			fmt.Fprintf(&b, "\npeer %q printed:\n%s", p.name, p.out.String())
		}
		t.Fatalf("navnode never received %s: %v%s", what, ctx.Err(), b.String())
	}
	var zero T
	return zero
}

// offer sends v unless ch is full: peers republish until told to stop, and
// a handler blocked on a full channel would hold up the node's Close.
func offer[T any](ch chan<- T, v T) {
	select {
	case ch <- v:
	default:
	}
}
