// Package interop tests navnode's ROS 2 client layer against DDS stacks it
// shares no code with: a CycloneDDS C program with idlc-generated types, a
// Fast DDS C++ program with fastddsgen-generated types, and the npm package
// @foxglove/ros2. The peers are built by "make peers".
package interop

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
)

// loopbackConfig is the CycloneDDS configuration of the C peer: loopback
// unicast discovery, as navnode's ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST.
const loopbackConfig = `<CycloneDDS><Domain Id="any"><General><AllowMulticast>false</AllowMulticast>` +
	`<Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces></General>` +
	`<Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>` +
	`<Peers><Peer address="localhost"/></Peers></Discovery></Domain></CycloneDDS>`

// repoRoot is the module root, two levels up from this package.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// bin returns the path of a peer built by make peers.
func bin(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(repoRoot, "build", "interop", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("peer %s is not built (%v): run make peers", name, err)
	}
	return p
}

// testCtx bounds a whole test.
func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// navnode is the Go side of a test: a ros.Node on its own domain, whose
// logs the test can inspect.
type navnode struct {
	*ros.Node
	logs *observer.ObservedLogs
}

func newNavnode(t *testing.T, ctx context.Context, domain uint32) *navnode {
	t.Helper()
	mw, err := dds.New(dds.Loopback(domain))
	require.NoError(t, err)
	core, logs := observer.New(zap.DebugLevel)
	n, err := ros.NewNode(ctx, "navnode", ros.WithMiddleware(mw), ros.WithLogger(zap.New(core)))
	require.NoError(t, err)
	t.Cleanup(func() { n.Close() })
	return &navnode{Node: n, logs: logs}
}

// peer is a running peer process.
type peer struct {
	name string
	cmd  *exec.Cmd
	out  syncBuffer
	done chan error
}

// startPeer runs a peer on domain with args; its output is kept for the
// test's failure messages.
func startPeer(t *testing.T, ctx context.Context, domain uint32, path string, args ...string) *peer {
	t.Helper()
	p := &peer{name: filepath.Base(path) + " " + strings.Join(args, " "), done: make(chan error, 1)}
	p.cmd = exec.CommandContext(ctx, path, args...)
	p.cmd.Env = append(os.Environ(), fmt.Sprintf("ROS_DOMAIN_ID=%d", domain), "CYCLONEDDS_URI="+loopbackConfig)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	require.NoError(t, p.cmd.Start())
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
		}
		<-p.done
	})
	return p
}

// wait waits for the peer to exit and fails the test, with its output, if
// it did not succeed.
func (p *peer) wait(t *testing.T, ctx context.Context) string {
	t.Helper()
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
func waitFor[T any](t *testing.T, ctx context.Context, ch <-chan T, what string, peers ...*peer) T {
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

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
