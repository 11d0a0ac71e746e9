//go:build cgo

package ros

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/navnode/navnode/msgs/std_msgs"
)

// These tests came from a review (2026-11-22): each failed before its fix.

// TestSubscriptionCloseWaitsWhileNodeCloses: Subscription.Close waits for
// a running handler even when the node, its context cancelled, is closing
// at the same time and has already marked the subscription closed. It
// used to return at once, and a caller that then closed what the handler
// writes to could panic.
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

// TestIncompatibleQoSWords: a subscription's incompatible publisher is
// logged in rclcpp's words for subscriptions ("No messages will be
// received from it"), not a publisher's.
func TestIncompatibleQoSWords(t *testing.T) {
	ctx := deadline(t)
	mw := testMiddleware(t, 92)
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
	require.Eventually(t, func() bool { return len(logs.FilterMessageSnippet("incompatible QoS").All()) > 0 },
		10*time.Second, 10*time.Millisecond, "no incompatible QoS warning")
	require.Contains(t, logs.FilterMessageSnippet("incompatible QoS").All()[0].Message,
		"New publisher discovered on topic '/map_like', offering incompatible QoS. No messages will be received from it.")
}
