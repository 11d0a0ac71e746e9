package ros

import (
	"context"
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
	qos   QoS
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
	p := &Publisher[T, PT]{n: n, topic: fq, qos: q}
	info := PT(new(T)).MsgType()
	p.w, err = n.mw.NewWriter(fq, info, q, func(ev rmw.Event) { n.qosEvent("publisher", fq, q, ev) })
	if err != nil {
		return nil, fmt.Errorf("ros: publisher on %s: %w", fq, err)
	}
	if err := n.addCloser(func() { p.w.Close() }); err != nil {
		p.w.Close()
		return nil, err
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

// WaitMatched waits until at least n subscriptions match or ctx ends.
func (p *Publisher[T, PT]) WaitMatched(ctx context.Context, n int) error {
	return waitMatched(ctx, p.w.Matched, n, p.topic)
}

// WaitAcked waits until every matched reliable subscription has
// acknowledged all messages published, or ctx ends (10 s without a
// deadline).
func (p *Publisher[T, PT]) WaitAcked(ctx context.Context) error {
	timeout := 10 * time.Second
	if d, ok := ctx.Deadline(); ok {
		timeout = time.Until(d)
	}
	return p.w.WaitAcked(timeout)
}

// GID returns the publisher's identity in the ROS graph.
func (p *Publisher[T, PT]) GID() rmw.GID { return p.w.GID() }

// Close closes the publisher.
func (p *Publisher[T, PT]) Close() error { return p.w.Close() }

func waitMatched(ctx context.Context, matched func() int, n int, topic string) error {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for matched() < n {
		select {
		case <-ctx.Done():
			return fmt.Errorf("ros: %s: %d of %d peers matched: %w", topic, matched(), n, ctx.Err())
		case <-t.C:
		}
	}
	return nil
}
