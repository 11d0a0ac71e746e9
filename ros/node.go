package ros

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/navnode/navnode/internal/logging"
	"github.com/navnode/navnode/ros/rmw"
)

// Node is a ROS 2 node: a name in the graph that owns publishers,
// subscriptions, parameters and a logger that also publishes on /rosout.
// Cancelling the context given to NewNode closes it.
type Node struct {
	name, ns string
	log      *zap.Logger
	args     Args
	params   *params
	mw       rmw.Node // closing it closes every publisher and subscription

	mu     sync.Mutex
	closed bool
	done   chan struct{} // closed once Close has finished
}

type options struct {
	ns         string
	argv       []string
	logger     *zap.Logger
	middleware rmw.Middleware
	domainID   *uint32
}

// Option configures NewNode.
type Option func(*options)

// WithNamespace puts the node in namespace ns ("/robot1" or "robot1").
func WithNamespace(ns string) Option { return func(o *options) { o.ns = ns } }

// WithArgs gives the node its command line; the --ros-args sections are
// parsed as rcl does (remaps, parameters, parameter files, log level).
func WithArgs(argv []string) Option { return func(o *options) { o.argv = argv } }

// WithLogger sets the logger the node's logger is built on; by default it
// is internal/logging's console logger at the --log-level given. A logger
// passed here keeps its own level: --log-level can only raise it.
func WithLogger(l *zap.Logger) Option { return func(o *options) { o.logger = l } }

// WithMiddleware sets the middleware; by default CycloneDDS configured from
// the environment (ROS_DOMAIN_ID, ROS_DISTRO, ROS_AUTOMATIC_DISCOVERY_RANGE,
// ROS_STATIC_PEERS, ROS_LOCALHOST_ONLY, CYCLONEDDS_URI).
func WithMiddleware(m rmw.Middleware) Option { return func(o *options) { o.middleware = m } }

// WithDomainID overrides ROS_DOMAIN_ID for the default middleware.
func WithDomainID(id uint32) Option { return func(o *options) { o.domainID = &id } }

// NewNode creates node name and joins the ROS graph.
func NewNode(ctx context.Context, name string, opts ...Option) (*Node, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	args, _, err := ParseArgs(o.argv)
	if err != nil {
		return nil, err
	}
	ns := o.ns
	if ns == "" {
		ns = "/"
	} else if !strings.HasPrefix(ns, "/") {
		ns = "/" + ns
	}
	name, ns = remapNode(args.Remaps, name, ns)
	if err := ValidateNodeName(name); err != nil {
		return nil, err
	}
	if err := ValidateNamespace(ns); err != nil {
		return nil, err
	}
	n := &Node{name: name, ns: ns, args: args, done: make(chan struct{})}
	if err := n.setUp(o); err != nil {
		return nil, err
	}
	go func() {
		select {
		case <-ctx.Done():
			n.Close()
		case <-n.done:
		}
	}()
	return n, nil
}

func (n *Node) setUp(o options) error {
	base, err := n.baseLogger(o.logger)
	if err != nil {
		return err
	}
	mw := o.middleware
	if mw == nil {
		if mw, err = defaultMiddleware(o.domainID, n.args.Enclave); err != nil {
			return err
		}
	}
	if n.mw, err = mw.NewNode(n.name, n.ns); err != nil {
		return fmt.Errorf("ros: node %s: %w", n.FullName(), err)
	}
	n.params = newParams(n.args.Params, n.FullName())
	if err := n.startRosout(base); err != nil {
		n.mw.Close()
		return err
	}
	return nil
}

// baseLogger returns the logger to build on, at the level --log-level gives
// the node's logger.
func (n *Node) baseLogger(l *zap.Logger) (*zap.Logger, error) {
	level := n.args.LogLevel
	if lv, ok := n.args.LoggerLevels[n.LoggerName()]; ok {
		level = lv
	}
	if level == "unset" {
		level = ""
	}
	if l == nil {
		l, err := logging.New(logging.Options{Level: level})
		if err != nil {
			return nil, err
		}
		return l.Named(n.LoggerName()), nil
	}
	if level == "" {
		return l.Named(n.LoggerName()), nil
	}
	lv, err := logging.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	return l.WithOptions(zap.IncreaseLevel(lv)).Named(n.LoggerName()), nil
}

// defaultMiddleware is CycloneDDS configured from the environment; with the
// rclgo build tag there is none (see backend_rclgo.go).
func defaultMiddleware(domainID *uint32, enclave string) (rmw.Middleware, error) {
	id := uint32(0)
	if domainID != nil {
		id = *domainID
	} else {
		var err error
		if id, err = DomainIDFromEnv(); err != nil {
			return nil, err
		}
	}
	return newDefaultMiddleware(id, enclave)
}

// DomainIDFromEnv parses ROS_DOMAIN_ID as rcl_get_default_domain_id
// does, with strtoul(s, &end, 0): leading white space and anything after
// the number are ignored ("5 ", " 5" and "5\r" are domain 5), and only a
// value with no number in front ("x5") is refused; so is one above 232.
// Unset or empty means domain 0.
func DomainIDFromEnv() (uint32, error) {
	s := os.Getenv("ROS_DOMAIN_ID")
	if s == "" {
		return 0, nil
	}
	v, rest, ok := cUlongPrefix(s)
	if !ok || v == 0 && rest != "" || v > 232 {
		return 0, fmt.Errorf("%w: %q", ErrDomainID, s)
	}
	return uint32(v), nil
}

// Name returns the node's name after remapping.
func (n *Node) Name() string { return n.name }

// Namespace returns the node's namespace after remapping.
func (n *Node) Namespace() string { return n.ns }

// FullName returns the fully qualified node name, e.g. "/robot1/navnode".
func (n *Node) FullName() string { return joinName(n.ns, n.name) }

// LoggerName returns the node's logger name as rclcpp forms it:
// "robot1.navnode" for /robot1/navnode.
func (n *Node) LoggerName() string {
	return strings.ReplaceAll(strings.TrimPrefix(n.FullName(), "/"), "/", ".")
}

// Logger returns the node's logger: stderr and /rosout.
func (n *Node) Logger() *zap.Logger { return n.log }

// Args returns the parsed --ros-args of the node's command line.
func (n *Node) Args() Args { return n.args }

// ResolveTopic returns the fully qualified name of a topic name as written
// by the user ("scan", "~/markers", "/map"), after the remap rules.
func (n *Node) ResolveTopic(name string) (string, error) {
	fq, err := ExpandTopicName(name, n.name, n.ns)
	if err != nil {
		return "", err
	}
	return remapped(n.args.Remaps, fq, n.name, n.ns)
}

// Close closes every publisher and subscription, then leaves the graph. It
// waits for subscription handlers to return.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		<-n.done
		return nil
	}
	n.closed = true
	n.mu.Unlock()
	err := n.mw.Close()
	_ = n.log.Sync()
	close(n.done)
	return err
}

// Done is closed once the node has closed.
func (n *Node) Done() <-chan struct{} { return n.done }

// qosEvent logs what the middleware reports about an endpoint's peers:
// each incompatible peer once, with both profiles.
func (n *Node) qosEvent(reader bool, topic string, ours QoS, ev rmw.Event) {
	if ev.Kind != rmw.IncompatibleQoS {
		return
	}
	peerKind, verb, lost := "subscription", "requesting", "sent to"
	if reader {
		peerKind, verb, lost = "publisher", "offering", "received from"
	}
	// rclcpp's words, so that people searching for them find this.
	msg := fmt.Sprintf("New %s discovered on topic '%s', %s incompatible QoS. No messages will be %s it. "+
		"Last incompatible policy: %s", peerKind, topic, verb, lost, ev.Policy)
	if len(ev.Peers) == 0 { // the backend could not name them
		n.log.Warn(msg, zap.String("ours", ours.String()))
		return
	}
	for _, p := range ev.Peers {
		pub, sub := ours, p.QoS
		if reader {
			pub, sub = p.QoS, ours
		}
		n.log.Warn(msg, zap.String("reason", rmw.Incompatible(pub, sub)), zap.String("ours", ours.String()),
			zap.String("theirs", p.QoS.String()), zap.Stringer("peer", p.GID))
	}
}
