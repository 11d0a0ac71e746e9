//go:build cgo

package dds

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/navnode/navnode/ros/rmw"
)

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
	if rc < 0 || e.closed.Load() || st.incompatible_new == 0 {
		return
	}
	ev := rmw.Event{Kind: rmw.IncompatibleQoS, Policy: policyName(int(st.last_policy))}
	peers := e.incompatiblePeers()
	for _, p := range peers {
		if !e.warned[p.GID] {
			e.warned[p.GID] = true
			ev.Peers = append(ev.Peers, p)
		}
	}
	if len(peers) > 0 && len(ev.Peers) == 0 {
		return // every one of them was reported before
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
	var out [64]C.navdds_peer
	topic, typ := C.CString(e.ddsTopic), C.CString(e.typeName)
	defer C.free(unsafe.Pointer(topic))
	defer C.free(unsafe.Pointer(typ))
	publications := C.int32_t(0)
	if e.reader {
		publications = 1
	}
	k := int(C.navdds_peers(e.n.pp, publications, topic, typ, &out[0], C.int32_t(len(out))))
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
