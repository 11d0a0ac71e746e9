package ros

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/ros/rmw"
)

// Message is a generated message type of msgs/, through a pointer.
type Message[T any] interface {
	*T
	msgs.Message
}

// Publisher publishes messages of type T on one topic.
type Publisher[T any, PT Message[T]] struct {
	n     *Node
	topic string
	w     rmw.Writer

	mu   sync.Mutex
	buf  []byte
	last int // size of the last payload, the next one's buffer size
}

// NewPublisher creates a publisher on topic (resolved as the node resolves
// names: relative, ~/private and remapped).
func NewPublisher[T any, PT Message[T]](n *Node, topic string, q QoS) (*Publisher[T, PT], error) {
	fq, err := n.ResolveTopic(topic)
	if err != nil {
		return nil, err
	}
	p := &Publisher[T, PT]{n: n, topic: fq}
	info := PT(new(T)).MsgType()
	p.w, err = n.mw.NewWriter(fq, info, q, func(ev rmw.Event) { n.qosEvent(false, fq, q, ev) })
	if err != nil {
		return nil, fmt.Errorf("ros: publisher on %s: %w", fq, err)
	}
	return p, nil
}

// Publish encodes m and sends it. With reliable QoS it may wait while
// matched readers catch up.
func (p *Publisher[T, PT]) Publish(m *T) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if aw, ok := p.w.(rmw.AppendWriter); ok && p.last >= directMin {
		// Encode straight into the middleware's buffer: one copy fewer.
		return aw.WriteAppend(p.last+p.last/8, func(dst []byte) ([]byte, error) {
			out, err := PT(m).AppendCDR(dst)
			p.last = len(out)
			return out, err
		})
	}
	var err error
	if p.buf, err = PT(m).AppendCDR(p.buf[:0]); err != nil {
		return err
	}
	p.last = len(p.buf)
	return p.w.Write(p.buf)
}

// directMin is the payload size from which Publish encodes into the
// middleware's buffer instead of its own; below it a copy costs nothing.
const directMin = 64 << 10

// Topic returns the fully qualified topic name.
func (p *Publisher[T, PT]) Topic() string { return p.topic }

// Matched returns the number of subscriptions matched now.
func (p *Publisher[T, PT]) Matched() int { return p.w.Matched() }

// WaitMatched waits until at least n subscriptions match, ctx ends or the
// node closes.
func (p *Publisher[T, PT]) WaitMatched(ctx context.Context, n int) error {
	return p.n.waitMatched(ctx, p.w.Matched, n, p.topic)
}

// WaitAcked waits until every matched reliable subscription has
// acknowledged all messages published, or ctx ends (10 s without a
// deadline).
func (p *Publisher[T, PT]) WaitAcked(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ros: %s: waiting for acknowledgements: %w", p.topic, err)
		}
		// Wait in slices so that cancelling ctx is noticed.
		err := p.w.WaitAcked(min(time.Until(deadline), 50*time.Millisecond))
		if !errors.Is(err, rmw.ErrTimeout) {
			return err
		}
	}
}

// GID returns the publisher's identity in the ROS graph.
func (p *Publisher[T, PT]) GID() rmw.GID { return p.w.GID() }

// Close closes the publisher.
func (p *Publisher[T, PT]) Close() error { return p.w.Close() }

// waitMatched polls matched until it reaches want, ctx ends or the node
// closes.
func (n *Node) waitMatched(ctx context.Context, matched func() int, want int, topic string) error {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for matched() < want {
		select {
		case <-ctx.Done():
			return fmt.Errorf("ros: %s: %d of %d peers matched: %w", topic, matched(), want, ctx.Err())
		case <-n.done:
			return fmt.Errorf("ros: %s: %w", topic, ErrClosed)
		case <-t.C:
		}
	}
	return nil
}
