package ros

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/navnode/navnode/ros/rmw"
)

// Subscription receives messages of type T on one topic and calls its
// handler with each, one at a time, on a goroutine of its own.
//
// The queue is the DDS reader's history, as deep as the QoS says: while the
// handler runs, new messages wait there, and under keep-last the oldest
// waiting one is replaced when it is full. The message is reused: the *T a
// handler gets is valid until it returns.
type Subscription[T any, PT Message[T]] struct {
	n       *Node
	topic   string
	r       rmw.Reader
	handler func(*T)
	msg     T // decoded into, message after message

	received, malformed atomic.Uint64
	warn                rateLimiter
}

// SubscriptionStats counts what a subscription has received.
type SubscriptionStats struct {
	Received  uint64 // decoded and handed to the handler
	Malformed uint64 // payloads that failed to decode, logged and skipped
}

// Subscribe subscribes to topic (resolved as the node resolves names).
func Subscribe[T any, PT Message[T]](n *Node, topic string, q QoS, handler func(*T)) (*Subscription[T, PT], error) {
	fq, err := n.ResolveTopic(topic)
	if err != nil {
		return nil, err
	}
	s := &Subscription[T, PT]{n: n, topic: fq, handler: handler, warn: rateLimiter{every: 5 * time.Second}}
	info := PT(new(T)).MsgType()
	s.r, err = n.mw.NewReader(fq, info, q, s.receive, func(ev rmw.Event) { n.qosEvent(true, fq, q, ev) })
	if err != nil {
		return nil, fmt.Errorf("ros: subscription to %s: %w", fq, err)
	}
	return s, nil
}

// receive decodes one payload and runs the handler; the middleware calls it
// on the reader's delivery goroutine.
func (s *Subscription[T, PT]) receive(payload []byte) {
	if err := PT(&s.msg).UnmarshalCDR(payload); err != nil {
		count := s.malformed.Add(1)
		if skipped, ok := s.warn.allow(); ok {
			s.n.log.Warn("malformed message skipped", zap.String("topic", s.topic), zap.Error(err),
				zap.Int("bytes", len(payload)), zap.Uint64("malformed_total", count),
				zap.Uint64("not_logged_since_last", skipped))
		}
		return
	}
	s.received.Add(1)
	s.handler(&s.msg)
}

// Topic returns the fully qualified topic name.
func (s *Subscription[T, PT]) Topic() string { return s.topic }

// Matched returns the number of publishers matched now.
func (s *Subscription[T, PT]) Matched() int { return s.r.Matched() }

// WaitMatched waits until at least n publishers match, ctx ends or the node
// closes.
func (s *Subscription[T, PT]) WaitMatched(ctx context.Context, n int) error {
	return s.n.waitMatched(ctx, s.r.Matched, n, s.topic)
}

// GID returns the subscription's identity in the ROS graph.
func (s *Subscription[T, PT]) GID() rmw.GID { return s.r.GID() }

// Stats returns the subscription's counters.
func (s *Subscription[T, PT]) Stats() SubscriptionStats {
	return SubscriptionStats{Received: s.received.Load(), Malformed: s.malformed.Load()}
}

// Close stops delivery; it waits for a running handler to return. A
// handler must not close its own subscription.
func (s *Subscription[T, PT]) Close() error {
	return s.r.Close()
}

// rateLimiter lets one event through per period and counts the others.
type rateLimiter struct {
	every time.Duration
	mu    sync.Mutex
	last  time.Time
	held  uint64
}

// allow reports whether to log now, and how many events were held back
// since the last one logged.
func (r *rateLimiter) allow() (uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); r.last.IsZero() || now.Sub(r.last) >= r.every {
		held := r.held
		r.last, r.held = now, 0
		return held, true
	}
	r.held++
	return 0, false
}
