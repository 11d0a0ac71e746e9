//go:build rclgo

package rclgo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tiiuae/rclgo/pkg/rclgo"
	"github.com/tiiuae/rclgo/pkg/rclgo/types"

	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/ros/rmw"
)

// ErrNotSupported is what the rclgo backend returns for what rclgo lacks.
var ErrNotSupported = errors.New("rclgo: not supported by the rclgo backend")

// Middleware is rmw.Middleware on rcl.
type Middleware struct {
	rcl    *rclgo.Context
	ctx    context.Context
	cancel context.CancelFunc

	mu    sync.Mutex
	types map[string]types.MessageTypeSupport
}

var _ rmw.Middleware = (*Middleware)(nil)

// New initializes rcl. It gives rcl no command line: package ros applies
// --ros-args itself (remaps, parameters, log levels), and rcl applying the
// remaps again to names already remapped would chain rules that must not
// chain. Close releases it.
func New() (*Middleware, error) {
	rcl, err := rclgo.NewContext(rclgo.ClockTypeROSTime, nil)
	if err != nil {
		return nil, fmt.Errorf("rclgo: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Middleware{rcl: rcl, ctx: ctx, cancel: cancel, types: map[string]types.MessageTypeSupport{}}, nil
}

// Close stops every reader and shuts rcl down.
func (m *Middleware) Close() error {
	m.cancel()
	return m.rcl.Close()
}

// typeSupport loads the C type support of t by name, once.
func (m *Middleware) typeSupport(t msgs.TypeInfo) (types.MessageTypeSupport, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ts, ok := m.types[t.Name]; ok {
		return ts, nil
	}
	pkg, name, ok := strings.Cut(t.Name, "/msg/")
	if !ok {
		return nil, fmt.Errorf("rclgo: type name %q is not pkg/msg/Name", t.Name)
	}
	ts, err := rclgo.LoadDynamicMessageTypeSupport(pkg, name)
	if err != nil {
		return nil, fmt.Errorf("rclgo: %s: %w", t.Name, err)
	}
	m.types[t.Name] = ts
	return ts, nil
}

// NewNode creates an rcl node.
func (m *Middleware) NewNode(name, ns string) (rmw.Node, error) {
	n, err := m.rcl.NewNode(name, ns)
	if err != nil {
		return nil, fmt.Errorf("rclgo: %w", err)
	}
	ctx, cancel := context.WithCancel(m.ctx)
	return &node{m: m, n: n, ctx: ctx, cancel: cancel}, nil
}

type node struct {
	m      *Middleware
	n      *rclgo.Node
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	readers []*reader
}

func (n *node) NewWriter(topic string, t msgs.TypeInfo, q rmw.QoS, _ rmw.EventFunc) (rmw.Writer, error) {
	ts, err := n.m.typeSupport(t)
	if err != nil {
		return nil, err
	}
	p, err := n.n.NewPublisher(topic, ts, &rclgo.PublisherOptions{Qos: profile(q)})
	if err != nil {
		return nil, fmt.Errorf("rclgo: publisher on %s: %w", topic, err)
	}
	return &writer{p: p}, nil
}

func (n *node) NewReader(topic string, t msgs.TypeInfo, q rmw.QoS, h rmw.Handler, _ rmw.EventFunc) (rmw.Reader, error) {
	ts, err := n.m.typeSupport(t)
	if err != nil {
		return nil, err
	}
	s, err := n.n.NewSubscription(topic, ts, &rclgo.SubscriptionOptions{Qos: profile(q)}, func(s *rclgo.Subscription) {
		if payload, _, err := s.TakeSerializedMessage(); err == nil {
			h(payload)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("rclgo: subscription to %s: %w", topic, err)
	}
	ws, err := n.m.rcl.NewWaitSet()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("rclgo: %w", err)
	}
	ws.AddSubscriptions(s)
	ctx, cancel := context.WithCancel(n.ctx)
	r := &reader{s: s, ws: ws, cancel: cancel, done: make(chan struct{})}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		cancel()
		ws.Close()
		s.Close()
		return nil, rmw.ErrClosed
	}
	n.readers = append(n.readers, r)
	go func() {
		defer close(r.done)
		_ = ws.Run(ctx) // returns when ctx is cancelled
	}()
	return r, nil
}

// Close stops the node's readers and frees their wait sets, then destroys
// the node with its publishers and subscriptions.
func (n *node) Close() error {
	n.mu.Lock()
	n.closed = true
	readers := n.readers
	n.mu.Unlock()
	n.cancel()
	for _, r := range readers {
		r.stop()
	}
	return n.n.Close()
}

// profile maps a QoS profile to rcl's.
func profile(q rmw.QoS) rclgo.QosProfile {
	p := rclgo.NewDefaultQosProfile()
	p.History, p.Depth = rclgo.HistoryKeepLast, q.Depth
	if q.History == rmw.KeepAll {
		p.History = rclgo.HistoryKeepAll
	}
	p.Reliability = rclgo.ReliabilityBestEffort
	if q.Reliability == rmw.Reliable {
		p.Reliability = rclgo.ReliabilityReliable
	}
	p.Durability = rclgo.DurabilityVolatile
	if q.Durability == rmw.TransientLocal {
		p.Durability = rclgo.DurabilityTransientLocal
	}
	p.Liveliness = rclgo.LivelinessAutomatic
	if q.Liveliness == rmw.ManualByTopic {
		p.Liveliness = rclgo.LivelinessManualByTopic
	}
	p.Deadline, p.Lifespan, p.LivelinessLeaseDuration = q.Deadline, q.Lifespan, q.LivelinessLease
	return p
}

type writer struct{ p *rclgo.Publisher }

func (w *writer) Write(payload []byte) error { return w.p.PublishSerialized(payload) }

func (w *writer) Matched() int {
	n, err := w.p.GetSubscriptionCount()
	if err != nil {
		return 0
	}
	return n
}

func (w *writer) WaitAcked(time.Duration) error { return ErrNotSupported }

func (w *writer) GID() rmw.GID { return rmw.GID{} }

func (w *writer) Close() error { return w.p.Close() }

type reader struct {
	s      *rclgo.Subscription
	ws     *rclgo.WaitSet
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

func (r *reader) Matched() int {
	n, err := r.s.GetPublisherCount()
	if err != nil {
		return 0
	}
	return n
}

func (r *reader) GID() rmw.GID { return rmw.GID{} }

func (r *reader) Close() error {
	if !r.stop() {
		return nil
	}
	return r.s.Close()
}

// stop ends the reader's goroutine and frees its wait set, once; it
// reports whether this call did it.
func (r *reader) stop() bool {
	stopped := false
	r.once.Do(func() {
		r.cancel()
		<-r.done
		r.ws.Close()
		stopped = true
	})
	return stopped
}
