//go:build cgo

package dds

/*
#cgo pkg-config: CycloneDDS
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/navnode/navnode/ros/rmw"
)

// Middleware is rmw.Middleware on CycloneDDS.
type Middleware struct{ cfg Config }

var _ rmw.Middleware = (*Middleware)(nil)

// New returns a middleware that joins DDS as cfg says.
func New(cfg Config) (*Middleware, error) {
	if cfg.Enclave == "" {
		cfg.Enclave = "/"
	}
	return &Middleware{cfg: cfg}, nil
}

// domains holds the CycloneDDS domains this process has created, shared by
// the nodes on them and deleted, with their threads, when the last one
// closes.
var domains = struct {
	sync.Mutex
	m map[uint32]*domain
}{m: map[uint32]*domain{}}

type domain struct {
	handle C.dds_entity_t
	config string
	refs   int
}

func acquireDomain(id uint32, config string) (*domain, error) {
	domains.Lock()
	defer domains.Unlock()
	if d, ok := domains.m[id]; ok {
		if d.config != config {
			return nil, fmt.Errorf("dds: domain %d is already open in this process with another configuration", id)
		}
		d.refs++
		return d, nil
	}
	cfg := C.CString(config)
	defer C.free(unsafe.Pointer(cfg))
	h := C.navdds_create_domain(C.uint32_t(id), cfg)
	if h < 0 {
		return nil, &ddsError{op: fmt.Sprintf("creating domain %d", id), code: int(h)}
	}
	d := &domain{handle: h, config: config, refs: 1}
	domains.m[id] = d
	return d, nil
}

func releaseDomain(id uint32) {
	domains.Lock()
	defer domains.Unlock()
	d := domains.m[id]
	if d.refs--; d.refs == 0 {
		C.dds_delete(d.handle) // deletes its participants and stops its threads
		delete(domains.m, id)
	}
}

// node is one ROS node: a DDS participant, its status goroutine and its
// entry in ros_discovery_info.
type node struct {
	cfg      Config
	name, ns string
	pp       C.dds_entity_t
	ws       C.dds_entity_t // the status waitset: every endpoint's QoS events
	guard    C.dds_entity_t // wakes the status goroutine to stop
	gid      rmw.GID
	done     chan struct{} // closed when the status goroutine has returned

	mu        sync.Mutex
	closed    bool
	endpoints map[C.dds_entity_t]*endpoint
	topics    map[string]*topic
	graph     *graph
}

// topic is a DDS topic and the sertype Cyclone uses for it. The topic
// holds the only reference to the sertype.
type topic struct {
	handle   C.dds_entity_t
	sertype  *C.struct_ddsi_sertype
	typeName string
	refs     int
}

// NewNode creates the participant of node name in namespace ns and
// announces it on ros_discovery_info.
func (m *Middleware) NewNode(name, ns string) (rmw.Node, error) {
	if _, err := acquireDomain(m.cfg.DomainID, m.cfg.CycloneConfig()); err != nil {
		return nil, err
	}
	n := &node{cfg: m.cfg, name: name, ns: ns, done: make(chan struct{}),
		endpoints: map[C.dds_entity_t]*endpoint{}, topics: map[string]*topic{}}
	if err := n.open(); err != nil {
		if n.pp > 0 {
			C.dds_delete(n.pp)
		}
		releaseDomain(m.cfg.DomainID)
		return nil, err
	}
	go n.run()
	return n, nil
}

func (n *node) open() error {
	ud := []byte("enclave=" + n.cfg.Enclave + ";")
	n.pp = C.navdds_create_participant(C.uint32_t(n.cfg.DomainID), unsafe.Pointer(&ud[0]), C.size_t(len(ud)))
	if n.pp < 0 {
		return &ddsError{op: "creating participant", code: int(n.pp)}
	}
	if rc := C.dds_get_guid(n.pp, (*C.dds_guid_t)(unsafe.Pointer(&n.gid))); rc < 0 {
		return &ddsError{op: "reading participant GUID", code: int(rc)}
	}
	n.ws = C.navdds_create_waitset(n.pp, &n.guard)
	if n.ws < 0 {
		return &ddsError{op: "creating waitset", code: int(n.ws)}
	}
	g, err := newGraph(n)
	if err != nil {
		return err
	}
	n.graph = g
	return g.publish()
}

// Close deletes every endpoint and the participant, after the status and
// delivery goroutines have stopped; no handler runs after Close returns.
func (n *node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	n.mu.Unlock()
	C.dds_set_guardcondition(n.guard, true)
	<-n.done
	n.mu.Lock()
	open := make([]*endpoint, 0, len(n.endpoints))
	for _, e := range n.endpoints {
		open = append(open, e)
	}
	n.mu.Unlock()
	for _, e := range open { // stop readers and writes before deleting the entities
		e.closed.Store(true)
		e.quiesce()
	}
	C.dds_delete(n.pp)
	releaseDomain(n.cfg.DomainID)
	return nil
}

// run is the node's status goroutine: it waits on the node's waitset and
// reports the matches and QoS conflicts of the endpoints that triggered it.
func (n *node) run() {
	defer close(n.done)
	const batch = 64
	var xs [batch]C.dds_attach_t
	for {
		k := int(C.navdds_wait(n.ws, &xs[0], batch))
		if k < 0 {
			return
		}
		for _, x := range xs[:min(k, batch)] { // more stay triggered for the next wait
			if x == 0 {
				var b C.bool
				C.dds_take_guardcondition(n.guard, &b)
				continue
			}
			n.mu.Lock()
			e, closed := n.endpoints[C.dds_entity_t(x)], n.closed
			n.mu.Unlock()
			if closed {
				return
			}
			if e != nil {
				e.status() // reading it, even when closing, clears the trigger
			}
		}
		n.mu.Lock()
		closed := n.closed
		n.mu.Unlock()
		if closed {
			return
		}
	}
}

// openTopic returns the topic name of type typeName, creating it on first use.
func (n *node) openTopic(name, typeName string) (*topic, error) {
	if t, ok := n.topics[name]; ok {
		if t.typeName != typeName {
			return nil, fmt.Errorf("dds: topic %s has type %s in this node, not %s", name, t.typeName, typeName)
		}
		t.refs++
		return t, nil
	}
	cname, ctype := C.CString(name), C.CString(typeName)
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(ctype))
	t := &topic{typeName: typeName, refs: 1}
	t.handle = C.navdds_create_topic(n.pp, cname, ctype, &t.sertype)
	if t.handle < 0 {
		return nil, &ddsError{op: fmt.Sprintf("creating topic %s of type %s", name, typeName), code: int(t.handle)}
	}
	n.topics[name] = t
	return t, nil
}

func (n *node) closeTopic(name string) {
	t := n.topics[name]
	if t.refs--; t.refs == 0 {
		C.dds_delete(t.handle)
		delete(n.topics, name)
	}
}

// typeHashUserData is the USER_DATA of an endpoint whose type has RIHS01
// hash: "typehash=RIHS01_…;" on Jazzy, nothing on Humble, which has none.
func (n *node) typeHashUserData(hash string) []byte {
	if n.cfg.Distro != Jazzy || hash == "" {
		return nil
	}
	return []byte("typehash=" + hash + ";")
}
