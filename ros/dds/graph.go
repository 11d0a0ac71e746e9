//go:build cgo

package dds

/*
#include "shim.h"
*/
import "C"

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/navnode/navnode/msgs"
	humble "github.com/navnode/navnode/msgs/humble/rmw_dds_common"
	"github.com/navnode/navnode/msgs/rmw_dds_common"
	"github.com/navnode/navnode/ros/rmw"
)

// discoveryTopic is where every ROS 2 participant says which nodes it holds
// and which endpoints belong to each; it has no "rt/" prefix.
const discoveryTopic = "ros_discovery_info"

// graph publishes the node's entry in ros_discovery_info: reliable,
// transient local, keep last 1, so late joiners see the current state.
type graph struct {
	n      *node
	writer C.dds_entity_t
	topic  *topic
	buf    []byte
}

func newGraph(n *node) (*graph, error) {
	info := (&rmw_dds_common.ParticipantEntitiesInfo{}).MsgType()
	if n.cfg.Distro == Humble {
		info = (&humble.ParticipantEntitiesInfo{}).MsgType()
	}
	t, err := n.openTopic(discoveryTopic, info.DDSName)
	if err != nil {
		return nil, err
	}
	ud, udLen := cBytes(n.typeHashUserData(info.Hash))
	q := qosToC(rmw.QoS{History: rmw.KeepLast, Depth: 1, Reliability: rmw.Reliable, Durability: rmw.TransientLocal})
	w := C.navdds_create_writer(n.pp, t.handle, &q, ud, udLen)
	if w < 0 {
		return nil, &ddsError{op: "creating the ros_discovery_info writer", code: int(w)}
	}
	return &graph{n: n, writer: w, topic: t}, nil
}

// publish writes the node's current endpoints; the caller holds n.mu.
func (g *graph) publish() error {
	var readers, writers []rmw.GID
	for _, e := range g.n.endpoints {
		if e.reader {
			readers = append(readers, e.gid)
		} else {
			writers = append(writers, e.gid)
		}
	}
	order := func(a, b rmw.GID) int { return bytes.Compare(a[:], b[:]) }
	slices.SortFunc(readers, order)
	slices.SortFunc(writers, order)
	var m msgs.Message
	if g.n.cfg.Distro == Humble {
		m = humbleInfo(g.n, readers, writers)
	} else {
		m = jazzyInfo(g.n, readers, writers)
	}
	var err error
	if g.buf, err = m.AppendCDR(g.buf[:0]); err != nil {
		return err
	}
	if rc := C.navdds_write(g.writer, g.topic.sertype, unsafe.Pointer(&g.buf[0]), C.size_t(len(g.buf))); rc < 0 {
		return &ddsError{op: "publishing ros_discovery_info", code: int(rc)}
	}
	return nil
}

func jazzyInfo(n *node, readers, writers []rmw.GID) *rmw_dds_common.ParticipantEntitiesInfo {
	gid := func(g rmw.GID) rmw_dds_common.Gid { return rmw_dds_common.Gid{Data: g} }
	node := rmw_dds_common.NodeEntitiesInfo{NodeNamespace: n.ns, NodeName: n.name}
	for _, r := range readers {
		node.ReaderGIDSeq = append(node.ReaderGIDSeq, gid(r))
	}
	for _, w := range writers {
		node.WriterGIDSeq = append(node.WriterGIDSeq, gid(w))
	}
	return &rmw_dds_common.ParticipantEntitiesInfo{GID: gid(n.gid),
		NodeEntitiesInfoSeq: []rmw_dds_common.NodeEntitiesInfo{node}}
}

// humbleInfo is jazzyInfo with Humble's 24-byte Gid: the GUID, then zeros.
func humbleInfo(n *node, readers, writers []rmw.GID) *humble.ParticipantEntitiesInfo {
	gid := func(g rmw.GID) (h humble.Gid) { copy(h.Data[:], g[:]); return h }
	node := humble.NodeEntitiesInfo{NodeNamespace: n.ns, NodeName: n.name}
	for _, r := range readers {
		node.ReaderGIDSeq = append(node.ReaderGIDSeq, gid(r))
	}
	for _, w := range writers {
		node.WriterGIDSeq = append(node.WriterGIDSeq, gid(w))
	}
	return &humble.ParticipantEntitiesInfo{GID: gid(n.gid),
		NodeEntitiesInfoSeq: []humble.NodeEntitiesInfo{node}}
}
