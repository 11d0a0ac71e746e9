//go:build cgo

package ros

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros/dds"
)

const largeDomain = 87

// bigCloud is a 16 MB PointCloud2 with a deterministic pattern.
func bigCloud() *sensor_msgs.PointCloud2 {
	m := &sensor_msgs.PointCloud2{Header: std_msgs.Header{FrameID: "lidar"}, Height: 1, Width: 16 << 20 / 16,
		PointStep: 16, IsDense: true}
	m.RowStep = m.Width * m.PointStep
	for i, name := range []string{"x", "y", "z", "intensity"} {
		m.Fields = append(m.Fields, sensor_msgs.PointField{Name: name, Offset: uint32(4 * i),
			Datatype: sensor_msgs.PointField_FLOAT32, Count: 1})
	}
	m.Data = make([]byte, m.RowStep)
	for i := range m.Data {
		m.Data[i] = byte(i*31 + i>>11)
	}
	return m
}

// bigGrid is a 4000x4000 OccupancyGrid with a deterministic pattern.
func bigGrid() *nav_msgs.OccupancyGrid {
	m := &nav_msgs.OccupancyGrid{Header: std_msgs.Header{FrameID: "map"}}
	m.Info.Width, m.Info.Height, m.Info.Resolution = 4000, 4000, 0.05
	m.Info.Origin.Orientation.W = 1
	m.Data = make([]int8, 4000*4000)
	for i := range m.Data {
		m.Data[i] = int8(i%102) - 1
	}
	return m
}

func digest(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:8]) }

func gridBytes(g *nav_msgs.OccupancyGrid) []byte {
	b := make([]byte, len(g.Data))
	for i, v := range g.Data {
		b[i] = byte(v)
	}
	return b
}

// TestLargeMessagesAcrossProcesses sends a 16 MB PointCloud2 and a
// 4000x4000 OccupancyGrid to another process over loopback, which checks
// their SHA-256 and answers on /large_result.
func TestLargeMessagesAcrossProcesses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cloud, grid := bigCloud(), bigGrid()
	peer := exec.CommandContext(ctx, os.Args[0])
	peer.Env = append(os.Environ(), "NAVNODE_LARGE_PEER=1",
		"WANT_CLOUD="+digest(cloud.Data), "WANT_GRID="+digest(gridBytes(grid)))
	out := &prefixWriter{t: t}
	peer.Stdout, peer.Stderr = out, out
	require.NoError(t, peer.Start())
	defer peer.Wait()

	n, err := NewNode(ctx, "sender", WithMiddleware(testMiddleware(t, largeDomain)))
	require.NoError(t, err)
	defer n.Close()
	results := make(chan string, 4)
	_, err = Subscribe[std_msgs.String](n, "/large_result", QoSDefault, func(m *std_msgs.String) { results <- m.Data })
	require.NoError(t, err)
	pc, err := NewPublisher[sensor_msgs.PointCloud2](n, "/cloud", QoSDefault)
	require.NoError(t, err)
	pm, err := NewPublisher[nav_msgs.OccupancyGrid](n, "/map", QoSMap)
	require.NoError(t, err)
	require.NoError(t, pc.WaitMatched(ctx, 1))
	require.NoError(t, pm.WaitMatched(ctx, 1))

	start := time.Now()
	require.NoError(t, pc.Publish(cloud))
	require.NoError(t, pm.Publish(grid))
	want := map[string]bool{"cloud ok": false, "grid ok": false}
	for len(want) > 0 {
		select {
		case r := <-results:
			if _, ok := want[r]; !ok {
				t.Fatalf("peer reports %q", r)
			}
			delete(want, r)
		case <-ctx.Done():
			t.Fatalf("after %v still waiting for %v", time.Since(start), want)
		}
	}
	t.Logf("16 MB cloud and 16 MB grid delivered and verified in %v", time.Since(start))
}

// TestMain runs the test binary as the peer process of
// TestLargeMessagesAcrossProcesses when asked to.
func TestMain(m *testing.M) {
	if os.Getenv("NAVNODE_LARGE_PEER") == "1" {
		if err := largePeer(); err != nil {
			fmt.Fprintln(os.Stderr, "large peer:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// largePeer receives the large messages, checks their SHA-256 and reports
// on /large_result.
func largePeer() error {
	ctx, cancel := context.WithTimeout(context.Background(), 55*time.Second)
	defer cancel()
	mw, err := dds.New(dds.Loopback(largeDomain))
	if err != nil {
		return err
	}
	n, err := NewNode(ctx, "receiver", WithMiddleware(mw))
	if err != nil {
		return err
	}
	defer n.Close()
	res, err := NewPublisher[std_msgs.String](n, "/large_result", QoSDefault)
	if err != nil {
		return err
	}
	report := func(s string) { _ = res.Publish(&std_msgs.String{Data: s}) }
	check := func(what string, b []byte, want string) string {
		if got := digest(b); got != want {
			return fmt.Sprintf("%s corrupted: sha256 %s, want %s (%d bytes)", what, got, want, len(b))
		}
		return what + " ok"
	}
	done := make(chan struct{}, 2)
	if _, err = Subscribe[sensor_msgs.PointCloud2](n, "/cloud", QoSDefault, func(m *sensor_msgs.PointCloud2) {
		report(check("cloud", m.Data, os.Getenv("WANT_CLOUD")))
		done <- struct{}{}
	}); err != nil {
		return err
	}
	if _, err = Subscribe[nav_msgs.OccupancyGrid](n, "/map", QoSMap, func(m *nav_msgs.OccupancyGrid) {
		report(check("grid", gridBytes(m), os.Getenv("WANT_GRID")))
		done <- struct{}{}
	}); err != nil {
		return err
	}
	if err := res.WaitMatched(ctx, 1); err != nil {
		return err
	}
	for range 2 {
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// The results are reliable; wait until the sender has acknowledged them.
	return res.WaitAcked(ctx)
}

// prefixWriter passes a child process's output to the test log.
type prefixWriter struct{ t *testing.T }

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.t.Logf("peer: %s", p)
	return len(p), nil
}
