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

	// A reader's delivery: its own waitset, the guard that wakes it to
	// stop, and done, closed when its goroutine has returned.
	ws, guard C.dds_entity_t
	done      chan struct{}

	statusMu sync.Mutex       // serializes status reports with Close
	matched  int              // last matched count reported
	warned   map[rmw.GID]bool // incompatible peers already reported
}

var (
	_ rmw.AppendWriter = (*endpoint)(nil)
	_ rmw.Reader       = (*endpoint)(nil)
)

// NewWriter creates a writer on ROS topic name (fully qualified).
func (n *node) NewWriter(name string, t msgs.TypeInfo, q rmw.QoS, events rmw.EventFunc) (rmw.Writer, error) {
	return n.newEndpoint(name, t, q, nil, events)
}

// NewReader creates a reader on ROS topic name (fully qualified).
func (n *node) NewReader(name string, t msgs.TypeInfo, q rmw.QoS, h rmw.Handler, events rmw.EventFunc) (rmw.Reader, error) {
	if h == nil {
		return nil, fmt.Errorf("dds: reader on %s needs a handler", name)
	}
	return n.newEndpoint(name, t, q, h, events)
}

// newEndpoint creates the DDS endpoint of ROS topic name: "rt" + name.
func (n *node) newEndpoint(name string, t msgs.TypeInfo, q rmw.QoS, h rmw.Handler, events rmw.EventFunc) (*endpoint, error) {
	return n.newDDSEndpoint("rt"+name, t, q, h, events)
}

// newDDSEndpoint creates a reader (h != nil) or writer on DDS topic ddsTopic.
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
		return nil, err
	}
	return e, nil
}

func (e *endpoint) create(t msgs.TypeInfo, q C.navdds_qos) error {
	var ud []byte
	if e.n.cfg.Distro == Jazzy && t.Hash != "" {
		ud = []byte("typehash=" + t.Hash + ";")
	}
	var udp unsafe.Pointer
	if len(ud) > 0 {
		udp = unsafe.Pointer(&ud[0])
	}
	kind := "writer"
	if e.reader {
		kind = "reader"
		e.handle = C.navdds_create_reader(e.n.pp, e.topic.handle, &q, udp, C.size_t(len(ud)))
	} else {
		e.handle = C.navdds_create_writer(e.n.pp, e.topic.handle, &q, udp, C.size_t(len(ud)))
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
	if e.reader {
		e.done = make(chan struct{})
		go e.serve()
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
	if e.closed.Load() {
		return ErrClosed
	}
	if len(payload) < 4 {
		return fmt.Errorf("dds: write to %s: %d-byte payload has no encapsulation header", e.ddsTopic, len(payload))
	}
	if rc := C.navdds_write(e.handle, e.topic.sertype, unsafe.Pointer(&payload[0]), C.size_t(len(payload))); rc < 0 {
		return &ddsError{op: "writing to " + e.ddsTopic, code: int(rc)}
	}
	return nil
}

// WriteAppend encodes straight into a serdata of sizeHint bytes' capacity
// and publishes it; if the encoding does not fit, it publishes a copy.
func (e *endpoint) WriteAppend(sizeHint int, encode rmw.AppendFunc) error {
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
	if err != nil || len(out) == 0 || unsafe.SliceData(out) != unsafe.SliceData(buf) {
		C.navdds_serdata_free(sd) // failed, or grew into Go memory
		if err != nil {
			return err
		}
		return e.Write(out)
	}
	if rc := C.navdds_write_serdata(e.handle, sd, C.uint32_t(len(out))); rc < 0 {
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
	if rc := C.dds_wait_for_acks(e.handle, C.dds_duration_t(timeout)); rc < 0 {
		return &ddsError{op: "waiting for acknowledgements on " + e.ddsTopic, code: int(rc)}
	}
	return nil
}

// GID returns the endpoint's DDS GUID.
func (e *endpoint) GID() rmw.GID { return e.gid }

// Close deletes the endpoint; a handler running for it finishes first.
func (e *endpoint) Close() error {
	if e.closed.Swap(true) {
		return nil
	}
	e.stop()
	e.statusMu.Lock() // wait out a status report in progress
	e.statusMu.Unlock()
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

// stop ends a reader's delivery goroutine and waits for it.
func (e *endpoint) stop() {
	if e.reader {
		C.dds_set_guardcondition(e.guard, true)
		<-e.done
	}
}

// serve is a reader's delivery goroutine. It blocks in the reader's own
// waitset and hands each sample to the handler, on this goroutine, straight
// from Cyclone's memory; samples are taken one at a time, so while the
// handler runs, new ones wait in the reader's DDS history, where keep-last
// replaces the oldest.
func (e *endpoint) serve() {
	defer close(e.done)
	var xs [2]C.dds_attach_t
	for !e.closed.Load() {
		if C.navdds_wait(e.ws, &xs[0], C.int32_t(len(xs))) < 0 {
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
	if C.navdds_take(e.handle, e.topic.sertype, &s, 1) <= 0 {
		return false
	}
	defer C.navdds_release(&s, 1)
	if s.valid != 0 {
		e.handler(unsafe.Slice((*byte)(unsafe.Pointer(s.data)), int(s.size)))
	}
	return true
}

// status reads the endpoint's DDS status and reports what changed; the
// node's status goroutine calls it.
func (e *endpoint) status() {
	e.statusMu.Lock()
	defer e.statusMu.Unlock()
	var st C.navdds_status
	var rc C.dds_return_t
	if e.reader {
		rc = C.navdds_reader_status(e.handle, &st)
	} else {
		rc = C.navdds_writer_status(e.handle, &st)
	}
	if rc < 0 || e.closed.Load() {
		return
	}
	if m := int(st.matched); m != e.matched {
		e.matched = m
		e.emit(rmw.Event{Kind: rmw.Matched, Matched: m})
	}
	if st.incompatible_new == 0 {
		return
	}
	ev := rmw.Event{Kind: rmw.IncompatibleQoS, Matched: e.matched, Policy: policyName(int(st.last_policy))}
	for _, p := range e.incompatiblePeers() {
		if !e.warned[p.GID] {
			e.warned[p.GID] = true
			ev.Peers = append(ev.Peers, p)
		}
	}
	e.emit(ev)
}

func (e *endpoint) emit(ev rmw.Event) {
	if e.events != nil {
		e.events(ev)
	}
}

// incompatiblePeers lists the endpoints on the other side of the topic
// whose QoS cannot match ours, from the builtin discovery topics.
func (e *endpoint) incompatiblePeers() []rmw.Peer {
	const batch = 64
	out := (*[batch]C.navdds_peer)(C.malloc(C.size_t(batch) * C.size_t(unsafe.Sizeof(C.navdds_peer{}))))
	defer C.free(unsafe.Pointer(out))
	topic, typ := C.CString(e.ddsTopic), C.CString(e.typeName)
	defer C.free(unsafe.Pointer(topic))
	defer C.free(unsafe.Pointer(typ))
	publications := C.int32_t(0)
	if e.reader {
		publications = 1
	}
	k := int(C.navdds_peers(e.n.pp, publications, topic, typ, &out[0], batch))
	var peers []rmw.Peer
	for _, p := range out[:max(k, 0)] {
		peer := rmw.Peer{QoS: qosFromC(p.qos)}
		for i := range peer.GID {
			peer.GID[i] = byte(p.guid[i])
		}
		pub, sub := peer.QoS, e.qos
		if !e.reader {
			pub, sub = e.qos, peer.QoS
		}
		if rmw.Incompatible(pub, sub) != "" {
			peers = append(peers, peer)
		}
	}
	return peers
}

func qosToC(q rmw.QoS) C.navdds_qos {
	b := func(v bool) C.int32_t {
		if v {
			return 1
		}
		return 0
	}
	return C.navdds_qos{
		reliable:        b(q.Reliability == rmw.Reliable),
		transient_local: b(q.Durability == rmw.TransientLocal),
		keep_all:        b(q.History == rmw.KeepAll),
		depth:           C.int32_t(q.Depth),
		deadline:        C.int64_t(q.Deadline),
		lifespan:        C.int64_t(q.Lifespan),
		manual_by_topic: b(q.Liveliness == rmw.ManualByTopic),
		lease:           C.int64_t(q.LivelinessLease),
	}
}

func qosFromC(c C.navdds_qos) rmw.QoS {
	q := rmw.QoS{Depth: int(c.depth), Deadline: time.Duration(c.deadline), Lifespan: time.Duration(c.lifespan),
		LivelinessLease: time.Duration(c.lease)}
	if c.keep_all != 0 {
		q.History = rmw.KeepAll
	}
	if c.reliable != 0 {
		q.Reliability = rmw.Reliable
	}
	if c.transient_local != 0 {
		q.Durability = rmw.TransientLocal
	}
	if c.manual_by_topic != 0 {
		q.Liveliness = rmw.ManualByTopic
	}
	return q
}

// policyName names a dds_qos_policy_id_t the way DDS documents it.
func policyName(id int) string {
	names := map[int]string{1: "USER_DATA", 2: "DURABILITY", 3: "PRESENTATION", 4: "DEADLINE",
		5: "LATENCY_BUDGET", 6: "OWNERSHIP", 8: "LIVELINESS", 10: "PARTITION", 11: "RELIABILITY",
		12: "DESTINATION_ORDER", 13: "HISTORY", 14: "RESOURCE_LIMITS", 21: "LIFESPAN",
		22: "DURABILITY_SERVICE", 24: "TYPE_CONSISTENCY", 25: "DATA_REPRESENTATION"}
	if s, ok := names[id]; ok {
		return s
	}
	return fmt.Sprintf("policy %d", id)
}
