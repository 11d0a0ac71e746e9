//go:build cgo

package ros

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/rcl_interfaces"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros/dds"
	"github.com/navnode/navnode/ros/rmw"
)

// testMiddleware keeps traffic on loopback without multicast, on a domain
// of the test's own.
func testMiddleware(t *testing.T, domain uint32) rmw.Middleware {
	mw, err := dds.New(dds.Loopback(domain))
	require.NoError(t, err)
	return mw
}

func deadline(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestPublishSubscribeBetweenNodes(t *testing.T) {
	ctx := deadline(t)
	mw := testMiddleware(t, 81)
	a, err := NewNode(ctx, "talker", WithMiddleware(mw), WithNamespace("robot1"))
	require.NoError(t, err)
	defer a.Close()
	b, err := NewNode(ctx, "listener", WithMiddleware(mw), WithNamespace("/robot1"))
	require.NoError(t, err)
	defer b.Close()

	got := make(chan geometry_msgs.PoseStamped, 1)
	sub, err := Subscribe[geometry_msgs.PoseStamped](b, "goal_pose", QoSDefault, func(m *geometry_msgs.PoseStamped) {
		got <- *m
	})
	require.NoError(t, err)
	require.Equal(t, "/robot1/goal_pose", sub.Topic())
	pub, err := NewPublisher[geometry_msgs.PoseStamped](a, "/robot1/goal_pose", QoSDefault)
	require.NoError(t, err)
	require.NoError(t, pub.WaitMatched(ctx, 1))
	require.NoError(t, sub.WaitMatched(ctx, 1))

	want := geometry_msgs.PoseStamped{Header: std_msgs.Header{FrameID: "map"}}
	want.Pose.Position.X, want.Pose.Orientation.W = 1.5, 1
	require.NoError(t, pub.Publish(&want))
	select {
	case m := <-got:
		require.Equal(t, want, m)
	case <-ctx.Done():
		t.Fatal("no message")
	}
	require.Equal(t, uint64(1), sub.Stats().Received)
}

func TestPrivateAndRemappedTopics(t *testing.T) {
	ctx := deadline(t)
	n, err := NewNode(ctx, "navnode", WithMiddleware(testMiddleware(t, 82)),
		WithArgs([]string{"--ros-args", "-r", "scan:=/lidar/scan", "-r", "__ns:=/r2"}))
	require.NoError(t, err)
	defer n.Close()
	require.Equal(t, "/r2/navnode", n.FullName())
	require.Equal(t, "r2.navnode", n.LoggerName())
	p, err := NewPublisher[std_msgs.String](n, "~/markers", QoSDefault)
	require.NoError(t, err)
	require.Equal(t, "/r2/navnode/markers", p.Topic())
	s, err := Subscribe[std_msgs.String](n, "scan", QoSSensorData, func(*std_msgs.String) {})
	require.NoError(t, err)
	require.Equal(t, "/lidar/scan", s.Topic())
	_, err = NewPublisher[std_msgs.String](n, "bad name", QoSDefault)
	require.ErrorIs(t, err, ErrInvalidName)
}

func TestRosout(t *testing.T) {
	ctx := deadline(t)
	mw := testMiddleware(t, 83)
	logs := make(chan rcl_interfaces.Log, 10)
	watcher, err := NewNode(ctx, "watcher", WithMiddleware(mw))
	require.NoError(t, err)
	defer watcher.Close()
	n, err := NewNode(ctx, "navnode", WithMiddleware(mw), WithNamespace("/r1"))
	require.NoError(t, err)
	defer n.Close()
	sub, err := Subscribe[rcl_interfaces.Log](watcher, "/rosout", QoSRosout, func(m *rcl_interfaces.Log) {
		if m.Name == "r1.navnode" {
			logs <- *m
		}
	})
	require.NoError(t, err)
	require.NoError(t, sub.WaitMatched(ctx, 2))
	n.Logger().Warn("goal inside obstacle", zap.Float64("x", 2.5))
	select {
	case m := <-logs:
		require.Equal(t, rcl_interfaces.Log_WARN, m.Level)
		require.Equal(t, "goal inside obstacle x=2.5", m.Msg)
		require.NotEmpty(t, m.File)
		require.NotZero(t, m.Line)
		require.InDelta(t, time.Now().Unix(), m.Stamp.Sec, 5)
	case <-ctx.Done():
		t.Fatal("no /rosout message")
	}
}

// TestMalformedIsCountedAndSkipped publishes garbage on a subscribed topic
// with a raw writer: the subscription logs it once, counts it and goes on.
func TestMalformedIsCountedAndSkipped(t *testing.T) {
	ctx := deadline(t)
	mw := testMiddleware(t, 84)
	core, logs := observer.New(zap.DebugLevel)
	n, err := NewNode(ctx, "navnode", WithMiddleware(mw), WithLogger(zap.New(core)))
	require.NoError(t, err)
	defer n.Close()
	got := make(chan string, 1)
	sub, err := Subscribe[std_msgs.String](n, "/chatter", QoSDefault, func(m *std_msgs.String) { got <- m.Data })
	require.NoError(t, err)

	raw, err := mw.NewNode("evil", "/")
	require.NoError(t, err)
	defer raw.Close()
	w, err := raw.NewWriter("/chatter", (&std_msgs.String{}).MsgType(), QoSDefault, nil)
	require.NoError(t, err)
	require.NoError(t, sub.WaitMatched(ctx, 1))
	for _, bad := range [][]byte{{0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f}, {9, 9, 9, 9}, {0, 1, 0, 0, 9, 0, 0, 0, 'a'}} {
		require.NoError(t, w.Write(bad))
	}
	good, _ := (&std_msgs.String{Data: "still alive"}).AppendCDR(nil)
	require.NoError(t, w.Write(good))
	select {
	case s := <-got:
		require.Equal(t, "still alive", s)
	case <-ctx.Done():
		t.Fatal("the good message after the bad ones never arrived")
	}
	require.Equal(t, SubscriptionStats{Received: 1, Malformed: 3}, sub.Stats())
	warned := logs.FilterMessage("malformed message skipped").All()
	require.Len(t, warned, 1, "rate-limited to one line per 5 s")
	require.Equal(t, "/chatter", warned[0].ContextMap()["topic"])
	require.Contains(t, warned[0].ContextMap()["error"], "std_msgs/msg/String")
}

func TestIncompatibleQoSIsLoggedOnceWithBothProfiles(t *testing.T) {
	ctx := deadline(t)
	mw := testMiddleware(t, 85)
	core, logs := observer.New(zap.DebugLevel)
	n, err := NewNode(ctx, "navnode", WithMiddleware(mw), WithLogger(zap.New(core)))
	require.NoError(t, err)
	defer n.Close()
	_, err = Subscribe[std_msgs.String](n, "/map_like", QoSMap, func(*std_msgs.String) {})
	require.NoError(t, err)
	other, err := NewNode(ctx, "volatile_pub", WithMiddleware(mw))
	require.NoError(t, err)
	defer other.Close()
	_, err = NewPublisher[std_msgs.String](other, "/map_like", QoSDefault)
	require.NoError(t, err)
	for len(logs.FilterMessageSnippet("incompatible QoS").All()) == 0 {
		require.NoError(t, ctx.Err(), "no incompatible QoS warning")
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // a repeated report would arrive by now
	warned := logs.FilterMessageSnippet("incompatible QoS").All()
	require.Len(t, warned, 1)
	f := warned[0].ContextMap()
	// rclcpp's words for a subscription (a review found a publisher's, 2026-11-22).
	require.Contains(t, warned[0].Message,
		"New publisher discovered on topic '/map_like', offering incompatible QoS. No messages will be received from it.")
	require.Contains(t, warned[0].Message, "DURABILITY")
	require.Equal(t, "Volatile publisher and transient local subscription", f["reason"])
	require.Contains(t, f["ours"], "transient_local")
	require.Contains(t, f["theirs"], "volatile")
}

// cycloneThreads lists the threads CycloneDDS has started in this process,
// by the names it gives them.
func cycloneThreads(t *testing.T) []string {
	dirs, err := filepath.Glob("/proc/self/task/*/comm")
	require.NoError(t, err)
	var names []string
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		name := strings.TrimSpace(string(b))
		for _, prefix := range []string{"gc", "dq.", "tev", "recv", "lease", "xmit", "dds_"} {
			if strings.HasPrefix(name, prefix) {
				names = append(names, name)
			}
		}
	}
	return names
}

// TestCancelClosesEverything proves that cancelling a node's context stops
// every goroutine and every CycloneDDS thread it started.
func TestCancelClosesEverything(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	require.Empty(t, cycloneThreads(t), "no domain open before the test")
	ctx, cancel := context.WithCancel(context.Background())
	mw := testMiddleware(t, 86)
	n, err := NewNode(ctx, "navnode", WithMiddleware(mw))
	require.NoError(t, err)
	_, err = Subscribe[std_msgs.String](n, "/a", QoSDefault, func(*std_msgs.String) {})
	require.NoError(t, err)
	p, err := NewPublisher[std_msgs.String](n, "/a", QoSDefault)
	require.NoError(t, err)
	require.NoError(t, p.Publish(&std_msgs.String{Data: "x"}))
	require.NotEmpty(t, cycloneThreads(t))
	cancel()
	select {
	case <-n.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("node did not close")
	}
	require.Empty(t, cycloneThreads(t), "CycloneDDS threads left after close")
	require.ErrorIs(t, p.Publish(&std_msgs.String{}), dds.ErrClosed)
}

// TestSlowHandlerKeepsLatest blocks a handler while more messages arrive:
// they wait in the reader's history, which keep-last depth 1 holds to the
// newest, so the handler sees the first message and then the last.
func TestSlowHandlerKeepsLatest(t *testing.T) {
	ctx := deadline(t)
	n, err := NewNode(ctx, "slow", WithMiddleware(testMiddleware(t, 89)))
	require.NoError(t, err)
	defer n.Close()
	latest := QoSDefault
	latest.Depth = 1
	got, release := make(chan string, 10), make(chan struct{})
	sub, err := Subscribe[std_msgs.String](n, "chatter", latest, func(m *std_msgs.String) {
		got <- m.Data
		<-release
	})
	require.NoError(t, err)
	pub, err := NewPublisher[std_msgs.String](n, "chatter", QoSDefault)
	require.NoError(t, err)
	require.NoError(t, pub.WaitMatched(ctx, 1))
	require.NoError(t, sub.WaitMatched(ctx, 1))

	require.NoError(t, pub.Publish(&std_msgs.String{Data: "first"}))
	select {
	case m := <-got:
		require.Equal(t, "first", m)
	case <-ctx.Done():
		t.Fatal("no first message")
	}
	for _, s := range []string{"a", "b", "c", "last"} {
		require.NoError(t, pub.Publish(&std_msgs.String{Data: s}))
	}
	require.NoError(t, pub.WaitAcked(ctx)) // all four are in the reader's history
	close(release)
	select {
	case m := <-got:
		require.Equal(t, "last", m)
	case <-ctx.Done():
		t.Fatal("no message after the handler returned")
	}
	require.Never(t, func() bool { return len(got) > 0 }, 200*time.Millisecond, 20*time.Millisecond)
	require.Equal(t, uint64(2), sub.Stats().Received)
}

// TestPublishWhileClosing publishes small and large messages from several
// goroutines while the node closes: every Publish either succeeds or
// returns ErrClosed, and nothing touches a deleted writer (run with -race).
func TestPublishWhileClosing(t *testing.T) {
	for round := range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		n, err := NewNode(ctx, "closing", WithMiddleware(testMiddleware(t, 87)))
		require.NoError(t, err)
		small, err := NewPublisher[std_msgs.String](n, "/small", QoSDefault)
		require.NoError(t, err)
		large, err := NewPublisher[std_msgs.UInt8MultiArray](n, "/large", QoSSensorData)
		require.NoError(t, err)
		errs := make(chan error, 4)
		for i := range 4 {
			go func() {
				big := &std_msgs.UInt8MultiArray{Data: make([]byte, 256<<10)}
				for {
					var err error
					if i%2 == 0 {
						err = small.Publish(&std_msgs.String{Data: "x"})
					} else {
						err = large.Publish(big)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(round) * 5 * time.Millisecond) // let the writers get going, a little longer each round
		cancel()
		<-n.Done()
		for range 4 {
			require.ErrorIs(t, <-errs, ErrClosed)
		}
	}
}

func TestTopicTypeClash(t *testing.T) {
	n, err := NewNode(deadline(t), "clash", WithMiddleware(testMiddleware(t, 88)))
	require.NoError(t, err)
	defer n.Close()
	_, err = NewPublisher[std_msgs.String](n, "/a", QoSDefault)
	require.NoError(t, err)
	_, err = Subscribe[geometry_msgs.PoseStamped](n, "/a", QoSDefault, func(*geometry_msgs.PoseStamped) {})
	require.ErrorContains(t, err, "has type std_msgs::msg::dds_::String_")
}

// TestWaitsEndOnCloseAndCancel: waits without a deadline return when the
// node closes or their context is cancelled.
func TestWaitsEndOnCloseAndCancel(t *testing.T) {
	n, err := NewNode(context.Background(), "waiter", WithMiddleware(testMiddleware(t, 90)))
	require.NoError(t, err)
	p, err := NewPublisher[std_msgs.String](n, "/nobody", QoSDefault)
	require.NoError(t, err)
	require.NoError(t, p.WaitAcked(context.Background()), "nothing to acknowledge: no reader")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, p.WaitAcked(cancelled), context.Canceled)

	waited := make(chan error, 1)
	go func() { waited <- p.WaitMatched(context.Background(), 1) }()
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, n.Close())
	select {
	case err := <-waited:
		require.ErrorIs(t, err, ErrClosed)
	case <-time.After(5 * time.Second):
		t.Fatal("WaitMatched did not return when the node closed")
	}
}

// TestSubscriptionCloseWaitsWhileNodeCloses: Subscription.Close waits for
// a running handler even when the node, its context cancelled, is closing
// at the same time and has already marked the subscription closed. It
// used to return at once, and a caller that then closed what the handler
// writes to could panic (found by a review, 2026-11-22).
func TestSubscriptionCloseWaitsWhileNodeCloses(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, err := NewNode(ctx, "closer", WithMiddleware(testMiddleware(t, 91)))
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	var running atomic.Bool
	sub, err := Subscribe[std_msgs.String](n, "/c", QoSDefault, func(*std_msgs.String) {
		if running.Swap(true) {
			return // one message is enough
		}
		close(entered)
		<-release
		time.Sleep(50 * time.Millisecond)
		running.Store(false)
	})
	require.NoError(t, err)
	pub, err := NewPublisher[std_msgs.String](n, "/c", QoSDefault)
	require.NoError(t, err)
	require.NoError(t, pub.WaitMatched(deadline(t), 1))
	require.NoError(t, pub.Publish(&std_msgs.String{Data: "x"}))
	<-entered
	cancel()                           // the node starts closing and waits for the handler
	time.Sleep(100 * time.Millisecond) // by now it has marked its endpoints closed
	close(release)
	require.NoError(t, sub.Close())
	require.False(t, running.Load(), "Subscription.Close returned while its handler was still running")
	<-n.Done()
}
