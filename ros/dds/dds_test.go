//go:build cgo

package dds

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs"
	humble "github.com/navnode/navnode/msgs/humble/rmw_dds_common"
	"github.com/navnode/navnode/msgs/rmw_dds_common"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros/rmw"
)

// testConfig keeps DDS traffic on loopback, without multicast, on a domain
// of the test's own.
func testConfig(domain uint32) Config {
	return Loopback(domain)
}

func TestPublishSubscribe(t *testing.T) {
	mw, err := New(testConfig(71))
	require.NoError(t, err)
	a, err := mw.NewNode("talker", "/")
	require.NoError(t, err)
	defer a.Close()
	b, err := mw.NewNode("listener", "/")
	require.NoError(t, err)
	defer b.Close()

	got := make(chan string, 10)
	typ := (&std_msgs.String{}).MsgType()
	r, err := b.NewReader("/chatter", typ, rmw.Default, func(p []byte) {
		var m std_msgs.String
		if err := m.UnmarshalCDR(p); err == nil {
			got <- m.Data
		}
	}, nil)
	require.NoError(t, err)
	w, err := a.NewWriter("/chatter", typ, rmw.Default, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for w.Matched() == 0 || r.Matched() == 0 {
		require.NoError(t, ctx.Err(), "no match")
		time.Sleep(10 * time.Millisecond)
	}
	payload, _ := (&std_msgs.String{Data: "hello"}).AppendCDR(nil)
	require.NoError(t, w.Write(payload))
	select {
	case s := <-got:
		require.Equal(t, "hello", s)
	case <-ctx.Done():
		t.Fatal("nothing received")
	}
}

// TestDiscoveryInfoDistros reads the ros_discovery_info a node publishes,
// as Jazzy (16-byte Gid) and as Humble (24-byte Gid, zero-padded), and
// finds the node's name, namespace and endpoint GIDs in it, and the
// endpoints gone once they close.
func TestDiscoveryInfoDistros(t *testing.T) {
	for _, c := range []struct {
		distro Distro
		decode func([]byte) (ns, name string, participant []byte, readers, writers [][]byte, err error)
		typ    msgs.TypeInfo
	}{
		{Jazzy, decodeJazzy, (&rmw_dds_common.ParticipantEntitiesInfo{}).MsgType()},
		{Humble, decodeHumble, (&humble.ParticipantEntitiesInfo{}).MsgType()},
	} {
		t.Run(c.distro.String(), func(t *testing.T) {
			cfg := Loopback(72 + uint32(c.distro))
			cfg.Distro = c.distro
			mw, err := New(cfg)
			require.NoError(t, err)
			n, err := mw.NewNode("navnode", "/robot1")
			require.NoError(t, err)
			defer n.Close()
			typ := (&std_msgs.String{}).MsgType()
			r, err := n.NewReader("/in", typ, rmw.Default, func([]byte) {}, nil)
			require.NoError(t, err)
			w, err := n.NewWriter("/out", typ, rmw.Default, nil)
			require.NoError(t, err)

			watcher, err := mw.NewNode("watcher", "/")
			require.NoError(t, err)
			defer watcher.Close()
			found := make(chan [][][]byte, 10)
			q := rmw.QoS{History: rmw.KeepAll, Reliability: rmw.Reliable, Durability: rmw.TransientLocal}
			_, err = watcher.(*node).newDDSEndpoint(discoveryTopic, c.typ, q, func(p []byte) {
				ns, name, pp, readers, writers, err := c.decode(p)
				if err == nil && ns == "/robot1" && name == "navnode" {
					found <- [][][]byte{{pp}, readers, writers}
				}
			}, nil)
			require.NoError(t, err)
			deadline := time.After(10 * time.Second)
			for {
				select {
				case got := <-found:
					gidLen := 16
					if c.distro == Humble {
						gidLen = 24
					}
					g := func(x rmw.GID) []byte { return append(x[:], make([]byte, gidLen-16)...) }
					if len(got[1]) != 1 || len(got[2]) != 1 { // a state before both endpoints existed
						continue
					}
					require.Equal(t, [][]byte{g(r.GID())}, got[1], "reader GIDs")
					require.Contains(t, got[2], g(w.GID()), "writer GIDs")
					require.Equal(t, g(n.(*node).gid), got[0][0], "participant GID")
				case <-deadline:
					t.Fatal("node never listed in ros_discovery_info")
				}
				break
			}
			// Endpoints that close leave the lists.
			for _, step := range []struct {
				close            func() error
				readers, writers int
			}{{w.Close, 1, 0}, {r.Close, 0, 0}} {
				require.NoError(t, step.close())
				for {
					select {
					case got := <-found:
						if len(got[1]) != step.readers || len(got[2]) != step.writers {
							continue
						}
					case <-deadline:
						t.Fatalf("ros_discovery_info never listed %d readers and %d writers", step.readers, step.writers)
					}
					break
				}
			}
		})
	}
}

func decodeJazzy(p []byte) (string, string, []byte, [][]byte, [][]byte, error) {
	var m rmw_dds_common.ParticipantEntitiesInfo
	if err := m.UnmarshalCDR(p); err != nil || len(m.NodeEntitiesInfoSeq) != 1 {
		return "", "", nil, nil, nil, fmt.Errorf("bad sample: %v", err)
	}
	data := func(g rmw_dds_common.Gid) []byte { return g.Data[:] }
	ni := m.NodeEntitiesInfoSeq[0]
	return ni.NodeNamespace, ni.NodeName, m.GID.Data[:], gids(ni.ReaderGIDSeq, data), gids(ni.WriterGIDSeq, data), nil
}

func decodeHumble(p []byte) (string, string, []byte, [][]byte, [][]byte, error) {
	var m humble.ParticipantEntitiesInfo
	if err := m.UnmarshalCDR(p); err != nil || len(m.NodeEntitiesInfoSeq) != 1 {
		return "", "", nil, nil, nil, fmt.Errorf("bad sample: %v", err)
	}
	data := func(g humble.Gid) []byte { return g.Data[:] }
	ni := m.NodeEntitiesInfoSeq[0]
	return ni.NodeNamespace, ni.NodeName, m.GID.Data[:], gids(ni.ReaderGIDSeq, data), gids(ni.WriterGIDSeq, data), nil
}

func gids[G any](seq []G, data func(G) []byte) [][]byte {
	out := make([][]byte, len(seq))
	for i, g := range seq {
		out[i] = append([]byte{}, data(g)...)
	}
	return out
}
