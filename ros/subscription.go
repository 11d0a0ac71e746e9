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
// Messages are decoded as they arrive into a queue as deep as the QoS
// history (at least 1); when the handler falls behind, the oldest waiting
// message is dropped, as keep-last does. Messages are reused: the *T a
// handler gets is valid until it returns.
type Subscription[T any, PT Message[T]] struct {
	n       *Node
	topic   string
	r       rmw.Reader
	handler func(*T)
	q       *queue[T]
	done    chan struct{}

	received, malformed, dropped atomic.Uint64
	warn                         rateLimiter
}

// SubscriptionStats counts what a subscription has received.
type SubscriptionStats struct {
	Received  uint64 // decoded and queued
	Malformed uint64 // payloads that failed to decode, logged and skipped
	Dropped   uint64 // decoded but overwritten before the handler took them
}

// Subscribe subscribes to topic (resolved as the node resolves names).
func Subscribe[T any, PT Message[T]](n *Node, topic string, q QoS, handler func(*T)) (*Subscription[T, PT], error) {
	fq, err := n.ResolveTopic(topic)
	if err != nil {
		return nil, err
	}
	depth := q.Depth
	if q.History == rmw.KeepAll || depth < 1 {
		depth = max(depth, 100)
	}
	s := &Subscription[T, PT]{n: n, topic: fq, handler: handler, q: newQueue[T](depth), done: make(chan struct{}),
		warn: rateLimiter{every: 5 * time.Second}}
	info := PT(new(T)).MsgType()
	s.r, err = n.mw.NewReader(fq, info, q, s.receive, func(ev rmw.Event) { n.qosEvent("subscription", fq, q, ev) })
	if err != nil {
		return nil, fmt.Errorf("ros: subscription to %s: %w", fq, err)
	}
	go s.run()
	if err := n.addCloser(func() { s.Close() }); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// receive decodes one payload; it runs on the middleware's delivery goroutine.
func (s *Subscription[T, PT]) receive(payload []byte) {
	m := s.q.slot()
	if err := PT(m).UnmarshalCDR(payload); err != nil {
		s.q.release(m)
		count := s.malformed.Add(1)
		if skipped, ok := s.warn.allow(); ok {
			s.n.log.Warn("malformed message skipped", zap.String("topic", s.topic), zap.Error(err),
				zap.Int("bytes", len(payload)), zap.Uint64("malformed_total", count),
				zap.Uint64("not_logged_since_last", skipped))
		}
		return
	}
	s.received.Add(1)
	if s.q.push(m) {
		s.dropped.Add(1)
	}
}

func (s *Subscription[T, PT]) run() {
	defer close(s.done)
	for {
		m, ok := s.q.pop()
		if !ok {
			return
		}
		s.handler(m)
		s.q.release(m)
	}
}

// Topic returns the fully qualified topic name.
func (s *Subscription[T, PT]) Topic() string { return s.topic }

// Matched returns the number of publishers matched now.
func (s *Subscription[T, PT]) Matched() int { return s.r.Matched() }

// WaitMatched waits until at least n publishers match or ctx ends.
func (s *Subscription[T, PT]) WaitMatched(ctx context.Context, n int) error {
	return waitMatched(ctx, s.r.Matched, n, s.topic)
}

// GID returns the subscription's identity in the ROS graph.
func (s *Subscription[T, PT]) GID() rmw.GID { return s.r.GID() }

// Stats returns the subscription's counters.
func (s *Subscription[T, PT]) Stats() SubscriptionStats {
	return SubscriptionStats{Received: s.received.Load(), Malformed: s.malformed.Load(), Dropped: s.dropped.Load()}
}

// Close stops delivery; it waits for a running handler to return and drops
// the messages still queued.
func (s *Subscription[T, PT]) Close() error {
	err := s.r.Close()
	s.q.close()
	<-s.done
	return err
}

// queue is a bounded FIFO of decoded messages that drops the oldest when
// full, with a free list so messages and their slices are reused.
type queue[T any] struct {
	mu     sync.Mutex
	items  []*T // ring buffer of waiting messages
	head   int
	n      int
	free   []*T
	ready  chan struct{} // holds a token while items are waiting
	closed bool
}

func newQueue[T any](depth int) *queue[T] {
	return &queue[T]{items: make([]*T, depth), ready: make(chan struct{}, 1)}
}

// slot returns a message to decode into.
func (q *queue[T]) slot() *T {
	q.mu.Lock()
	defer q.mu.Unlock()
	if k := len(q.free); k > 0 {
		m := q.free[k-1]
		q.free = q.free[:k-1]
		return m
	}
	return new(T)
}

// release gives back a message that will not be queued or was handled.
func (q *queue[T]) release(m *T) {
	q.mu.Lock()
	q.free = append(q.free, m)
	q.mu.Unlock()
}

// push queues m and reports whether the oldest waiting message was dropped
// to make room.
func (q *queue[T]) push(m *T) (dropped bool) {
	q.mu.Lock()
	if q.closed {
		q.free = append(q.free, m)
		q.mu.Unlock()
		return false
	}
	if q.n == len(q.items) {
		q.free = append(q.free, q.items[q.head])
		q.head = (q.head + 1) % len(q.items)
		q.n--
		dropped = true
	}
	q.items[(q.head+q.n)%len(q.items)] = m
	q.n++
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return dropped
}

// pop waits for the oldest message; it returns false once the queue is closed.
func (q *queue[T]) pop() (*T, bool) {
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return nil, false
		}
		if q.n > 0 {
			m := q.items[q.head]
			q.items[q.head] = nil
			q.head = (q.head + 1) % len(q.items)
			q.n--
			more := q.n > 0
			q.mu.Unlock()
			if more {
				select {
				case q.ready <- struct{}{}:
				default:
				}
			}
			return m, true
		}
		q.mu.Unlock()
		<-q.ready
	}
}

func (q *queue[T]) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
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
