package rmw

import (
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/navnode/navnode/msgs"
)

// GID identifies a writer or reader in the ROS graph: the 16-byte DDS GUID
// (12-byte participant prefix, 4-byte entity id). Humble pads it to 24 bytes
// with zeros on the wire.
type GID [16]byte

// String formats g as ros2 topic info -v does: dotted hex bytes.
func (g GID) String() string {
	parts := make([]string, len(g))
	for i, b := range g {
		parts[i] = hex.EncodeToString([]byte{b})
	}
	return strings.Join(parts, ".")
}

// Errors every backend returns, matched with errors.Is.
var (
	// ErrClosed is an operation on a closed node, writer or reader.
	ErrClosed = errors.New("closed")
	// ErrTimeout is a wait that ran out of time.
	ErrTimeout = errors.New("timed out")
)

// Middleware creates nodes. It is safe for concurrent use.
type Middleware interface {
	// NewNode joins the ROS graph as node name in namespace ns (absolute,
	// e.g. "/" or "/robot1"); both are already validated.
	NewNode(name, ns string) (Node, error)
}

// Node creates the endpoints of one ROS node. Closing it closes them all.
type Node interface {
	// NewWriter creates a writer on the fully qualified topic name.
	NewWriter(topic string, t msgs.TypeInfo, q QoS, events EventFunc) (Writer, error)
	// NewReader creates a reader on the fully qualified topic name; h gets
	// each sample taken from the reader's history, one at a time, on a
	// goroutine of the reader's own.
	NewReader(topic string, t msgs.TypeInfo, q QoS, h Handler, events EventFunc) (Reader, error)
	Close() error
}

// Handler receives one CDR payload, encapsulation header first. payload is
// valid only until Handler returns. Each reader calls its handler on a
// goroutine of its own, one payload at a time; while it runs, new samples
// wait in the reader's history (keep-last replaces the oldest).
type Handler func(payload []byte)

// Writer publishes payloads.
type Writer interface {
	// Write publishes one CDR payload; it does not keep payload.
	Write(payload []byte) error
	// Matched returns the number of readers currently matched.
	Matched() int
	// WaitAcked waits until every matched reliable reader has acknowledged
	// everything written, or timeout passes (an error matching ErrTimeout).
	WaitAcked(timeout time.Duration) error
	GID() GID
	Close() error
}

// AppendFunc appends an encoded payload to dst and returns the result, as
// the generated AppendCDR methods do.
type AppendFunc func(dst []byte) ([]byte, error)

// AppendWriter is a Writer that can have a payload encoded straight into
// the middleware's own buffer, saving a copy of large messages.
type AppendWriter interface {
	Writer
	// WriteAppend publishes what encode appends to a buffer of at least
	// sizeHint bytes' capacity.
	WriteAppend(sizeHint int, encode AppendFunc) error
}

// Reader receives payloads through its Handler.
type Reader interface {
	// Matched returns the number of writers currently matched.
	Matched() int
	GID() GID
	Close() error
}

// EventKind names a QoS event.
type EventKind int

// Event kinds.
const (
	// IncompatibleQoS: a peer on the same topic and type cannot be matched
	// because of its QoS. Event.Policy names the first policy at fault.
	IncompatibleQoS EventKind = iota
)

// Event reports a change that concerns one writer or reader.
type Event struct {
	Kind   EventKind
	Policy string // DDS QoS policy at fault, e.g. "RELIABILITY"
	Peers  []Peer // the incompatible peers, when the backend can list them
}

// Peer is another endpoint on the same topic.
type Peer struct {
	GID GID
	QoS QoS
}

// EventFunc receives events. It runs on the backend's status goroutine,
// shared by every endpoint of the node, so it must not block.
type EventFunc func(Event)
