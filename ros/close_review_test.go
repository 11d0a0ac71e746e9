//go:build cgo

package ros

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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
