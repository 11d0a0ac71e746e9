//go:build cgo

package dds

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/ros/rmw"
)

// endpoint is a DDS writer or reader of one node.
type endpoint struct {
	n        *node
	handle   C.dds_entity_t
	topic    *topic
	ddsTopic string // e.g. "rt/goal_pose"
	typeName string // e.g. "geometry_msgs::msg::dds_::PoseStamped_"
	reader   bool
	qos      rmw.QoS
	gid      rmw.GID
	handler  rmw.Handler
	events   rmw.EventFunc
	closed   atomic.Bool

	// inUse is held for reading while a write uses the endpoint's C
	// objects (the writer, the topic's sertype); closing takes it for
	// writing before they are deleted.
	inUse sync.RWMutex

	// A reader's delivery: its own waitset, the guard that wakes it to
	// stop, and done, closed when its goroutine has returned.
	ws, guard C.dds_entity_t
	done      chan struct{}

	statusMu sync.Mutex       // serializes status reports with Close
	warned   map[rmw.GID]bool // incompatible peers already reported
}

var (
	_ rmw.AppendWriter = (*endpoint)(nil)
	_ rmw.Reader       = (*endpoint)(nil)
)

// NewWriter creates a writer on ROS topic name (fully qualified).
func (n *node) NewWriter(name string, t msgs.TypeInfo, q rmw.QoS, events rmw.EventFunc) (rmw.Writer, error) {
	return n.newDDSEndpoint("rt"+name, t, q, nil, events)
}

// NewReader creates a reader on ROS topic name (fully qualified).
func (n *node) NewReader(name string, t msgs.TypeInfo, q rmw.QoS, h rmw.Handler, events rmw.EventFunc) (rmw.Reader, error) {
	if h == nil {
		return nil, fmt.Errorf("dds: reader on %s needs a handler", name)
	}
	return n.newDDSEndpoint("rt"+name, t, q, h, events)
}

// newDDSEndpoint creates a reader (h != nil) or writer on DDS topic ddsTopic
// and announces it in ros_discovery_info.
func (n *node) newDDSEndpoint(ddsTopic string, t msgs.TypeInfo, q rmw.QoS, h rmw.Handler, events rmw.EventFunc) (*endpoint, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	e := &endpoint{n: n, ddsTopic: ddsTopic, typeName: t.DDSName, reader: h != nil, qos: q,
		handler: h, events: events, warned: map[rmw.GID]bool{}}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, ErrClosed
	}
	tp, err := n.openTopic(e.ddsTopic, e.typeName)
	if err != nil {
		return nil, err
	}
	e.topic = tp
	if err := e.create(t, qosToC(q)); err != nil {
		n.closeTopic(e.ddsTopic)
		return nil, err
	}
	n.endpoints[e.handle] = e
	if err := n.graph.publish(); err != nil {
		delete(n.endpoints, e.handle)
		e.deleteEntities()
		n.closeTopic(e.ddsTopic)
		return nil, err
	}
	if e.reader {
		e.done = make(chan struct{})
		go e.serve()
	}
	return e, nil
}

func (e *endpoint) create(t msgs.TypeInfo, q C.navdds_qos) error {
	ud, udLen := cBytes(e.n.typeHashUserData(t.Hash))
	kind := "writer"
	if e.reader {
		kind = "reader"
		e.handle = C.navdds_create_reader(e.n.pp, e.topic.handle, &q, ud, udLen)
	} else {
		e.handle = C.navdds_create_writer(e.n.pp, e.topic.handle, &q, ud, udLen)
	}
	if e.handle < 0 {
		return &ddsError{op: fmt.Sprintf("creating %s on %s", kind, e.ddsTopic), code: int(e.handle)}
	}
	if rc := C.dds_get_guid(e.handle, (*C.dds_guid_t)(unsafe.Pointer(&e.gid))); rc < 0 {
		C.dds_delete(e.handle)
		return &ddsError{op: "reading endpoint GUID", code: int(rc)}
	}
	isReader := C.int32_t(0)
	if e.reader {
		isReader = 1
		e.ws = C.navdds_create_reader_waitset(e.n.pp, e.handle, &e.guard)
		if e.ws < 0 {
			C.dds_delete(e.handle)
			return &ddsError{op: "creating the reader's waitset", code: int(e.ws)}
		}
	}
	if rc := C.navdds_attach_status(e.n.ws, e.handle, isReader); rc < 0 {
		e.deleteEntities()
		return &ddsError{op: "attaching to the status waitset", code: int(rc)}
	}
	return nil
}

// deleteEntities deletes the endpoint and, for a reader, its waitset and
// guard (the read condition goes with the reader).
func (e *endpoint) deleteEntities() {
	if e.reader {
		C.dds_delete(e.ws)
		C.dds_delete(e.guard)
	}
	C.dds_delete(e.handle)
}

// Write publishes one CDR payload; Cyclone copies it.
func (e *endpoint) Write(payload []byte) error {
	if len(payload) < 4 {
		return fmt.Errorf("dds: write to %s: %d-byte payload has no encapsulation header", e.ddsTopic, len(payload))
	}
	e.inUse.RLock()
	defer e.inUse.RUnlock()
	if e.closed.Load() {
		return ErrClosed
	}
	return e.writeLocked(payload)
}

// WriteAppend encodes straight into a serdata of sizeHint bytes' capacity
// and publishes it; if the encoding does not fit, it publishes a copy.
func (e *endpoint) WriteAppend(sizeHint int, encode rmw.AppendFunc) error {
	e.inUse.RLock()
	defer e.inUse.RUnlock()
	if e.closed.Load() {
		return ErrClosed
	}
	var data *C.uchar
	sd := C.navdds_serdata_alloc(e.topic.sertype, C.uint32_t(sizeHint), &data)
	if sd == nil {
		return &ddsError{op: "allocating a sample for " + e.ddsTopic, code: -5}
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(data)), sizeHint)[:0]
	out, err := encode(buf)
	if err != nil || len(out) < 4 || unsafe.SliceData(out) != unsafe.SliceData(buf) {
		C.navdds_serdata_free(sd) // failed, or grew into Go memory
		if err != nil {
			return err
		}
		if len(out) < 4 {
			return fmt.Errorf("dds: write to %s: %d-byte payload has no encapsulation header", e.ddsTopic, len(out))
		}
		return e.writeLocked(out)
	}
	if rc := C.navdds_write_serdata(e.handle, sd, C.uint32_t(len(out))); rc < 0 {
		return &ddsError{op: "writing to " + e.ddsTopic, code: int(rc)}
	}
	return nil
}

// writeLocked is Write for a caller that holds inUse.
func (e *endpoint) writeLocked(payload []byte) error {
	if rc := C.navdds_write(e.handle, e.topic.sertype, unsafe.Pointer(&payload[0]), C.size_t(len(payload))); rc < 0 {
		return &ddsError{op: "writing to " + e.ddsTopic, code: int(rc)}
	}
	return nil
}

// Matched returns the number of peers matched now.
func (e *endpoint) Matched() int {
	var n C.dds_return_t
	if e.reader {
		n = C.dds_get_matched_publications(e.handle, nil, 0)
	} else {
		n = C.dds_get_matched_subscriptions(e.handle, nil, 0)
	}
	return max(int(n), 0)
}

// WaitAcked waits until matched reliable readers have acknowledged every
// sample written, or timeout passes.
func (e *endpoint) WaitAcked(timeout time.Duration) error {
	if e.closed.Load() {
		return ErrClosed
	}
	if rc := C.dds_wait_for_acks(e.handle, C.dds_duration_t(max(timeout, 0))); rc < 0 {
		return &ddsError{op: "waiting for acknowledgements on " + e.ddsTopic, code: int(rc)}
	}
	return nil
}

// GID returns the endpoint's DDS GUID.
func (e *endpoint) GID() rmw.GID { return e.gid }

// Close deletes the endpoint; a handler or write running for it finishes
// first.
func (e *endpoint) Close() error {
	already := e.closed.Swap(true)
	e.quiesce() // even when the node (or another Close) closed it first: its handler may still run
	if already {
		return nil
	}
	n := e.n
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.endpoints, e.handle)
	if n.closed {
		return nil // the participant's deletion takes the entities with it
	}
	e.deleteEntities()
	n.closeTopic(e.ddsTopic)
	return n.graph.publish()
}

// quiesce waits, once closed is set, until nothing uses the endpoint: the
// reader's goroutine has returned, and no write or status report runs.
func (e *endpoint) quiesce() {
	if e.reader && e.done != nil {
		C.dds_set_guardcondition(e.guard, true)
		<-e.done
	}
	e.inUse.Lock()
	e.inUse.Unlock()
	e.statusMu.Lock()
	e.statusMu.Unlock()
}

// serve is a reader's delivery goroutine. It blocks in the reader's own
// waitset and hands each sample to the handler, on this goroutine, straight
// from Cyclone's memory; samples are taken one at a time, so while the
// handler runs, new ones wait in the reader's DDS history, where keep-last
// replaces the oldest.
func (e *endpoint) serve() {
	defer close(e.done)
	for !e.closed.Load() {
		if C.navdds_wait(e.ws, nil, 0) < 0 {
			return
		}
		for !e.closed.Load() && e.takeOne() {
		}
		// Let goroutines the handler woke run on this P now: blocked in the
		// cgo wait above, this goroutine keeps the P for up to 20 µs, until
		// sysmon takes it back.
		runtime.Gosched()
	}
}

// takeOne delivers the next sample and reports whether there was one.
func (e *endpoint) takeOne() bool {
	var s C.navdds_sample
	if C.navdds_take_one(e.handle, e.topic.sertype, &s) <= 0 {
		return false
	}
	defer C.navdds_release(&s)
	if s.valid != 0 {
		e.handler(unsafe.Slice((*byte)(unsafe.Pointer(s.data)), int(s.size)))
	}
	return true
}

// cBytes returns b as the pointer and length arguments of a C call: a nil
// pointer when b is empty.
func cBytes(b []byte) (unsafe.Pointer, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return unsafe.Pointer(&b[0]), C.size_t(len(b))
}
