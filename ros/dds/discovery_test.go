//go:build cgo

package dds

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros/rmw"
)

// peerEnv makes the test binary play a ROS 2 process configured as
// rmw_cyclonedds configures the LOCALHOST range, on the domain it names.
const peerEnv = "NAVNODE_DDS_LOCALHOST_PEER"

func TestMain(m *testing.M) {
	if d := os.Getenv(peerEnv); d != "" {
		if err := localhostPeer(d); err != nil {
			fmt.Fprintln(os.Stderr, "peer:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// localhostPeer subscribes to /probe for ten seconds.
func localhostPeer(domain string) error {
	var d uint32
	if _, err := fmt.Sscan(domain, &d); err != nil {
		return err
	}
	mw, err := New(Config{DomainID: d, Range: RangeLocalhost})
	if err != nil {
		return err
	}
	n, err := mw.NewNode("ros2_listener", "/")
	if err != nil {
		return err
	}
	defer n.Close()
	if _, err := n.NewReader("/probe", (&std_msgs.String{}).MsgType(), rmw.Default, func([]byte) {}, nil); err != nil {
		return err
	}
	time.Sleep(10 * time.Second)
	return nil
}

// clearDiscoveryEnv unsets the discovery variables for the test, on Jazzy.
func clearDiscoveryEnv(t *testing.T) {
	for _, k := range []string{"ROS_LOCALHOST_ONLY", "ROS_AUTOMATIC_DISCOVERY_RANGE", "ROS_STATIC_PEERS", "CYCLONEDDS_URI"} {
		t.Setenv(k, "")
	}
	t.Setenv("ROS_DISTRO", "jazzy")
}

// TestLocalhostOnlyOnJazzy: from Jazzy on, rcl reads ROS_LOCALHOST_ONLY=1
// as the LOCALHOST range and ignores the range and static peers; only
// Humble's rmw binds to 127.0.0.1 (found by a review, 2026-11-22).
func TestLocalhostOnlyOnJazzy(t *testing.T) {
	clearDiscoveryEnv(t)
	t.Setenv("ROS_LOCALHOST_ONLY", "1")
	t.Setenv("ROS_STATIC_PEERS", "192.168.1.7")
	c, err := ConfigFromEnv()
	require.NoError(t, err)
	require.Equal(t, Config{Range: RangeLocalhost}.CycloneConfig(), c.CycloneConfig())

	t.Setenv("ROS_DISTRO", "humble")
	c, err = ConfigFromEnv()
	require.NoError(t, err)
	require.Contains(t, c.CycloneConfig(), `<NetworkInterface address="127.0.0.1"/>`)
}

// TestSubnetFragment: rmw_cyclonedds gives the SUBNET range participant
// indices (auto, up to 32) with or without static peers, and lists peers
// only when there are some: the indices are what lets a LOCALHOST-range
// process on the same host reach the node by unicast.
func TestSubnetFragment(t *testing.T) {
	const indices = "<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>"
	require.Equal(t, `<CycloneDDS><Domain Id="any"><Discovery>`+indices+`</Discovery></Domain></CycloneDDS>`,
		Config{}.CycloneConfig())
	require.Equal(t, `<CycloneDDS><Domain Id="any"><Discovery>`+indices+`<Peers><Peer address="10.0.0.2"/></Peers></Discovery></Domain></CycloneDDS>`,
		Config{Range: RangeSubnet, StaticPeers: []string{"10.0.0.2"}}.CycloneConfig())
	require.Empty(t, Config{Range: RangeSystemDefault, StaticPeers: []string{"10.0.0.2"}}.CycloneConfig())
}

// TestLocalhostPeerDiscoversNode: a ROS 2 process on the same host with
// the LOCALHOST range discovers a node at the default range and one with
// ROS_LOCALHOST_ONLY=1, as the ROS 2 discovery table says it must.
func TestLocalhostPeerDiscoversNode(t *testing.T) {
	for i, env := range []string{"", "1"} {
		t.Run("ROS_LOCALHOST_ONLY="+env, func(t *testing.T) {
			domain := 61 + i
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			peer := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			peer.Env = append(os.Environ(), fmt.Sprintf("%s=%d", peerEnv, domain))
			peer.Stderr = os.Stderr
			require.NoError(t, peer.Start())
			defer func() { cancel(); _ = peer.Wait() }()

			clearDiscoveryEnv(t)
			t.Setenv("ROS_LOCALHOST_ONLY", env)
			cfg, err := ConfigFromEnv() // as the ros package's default middleware does
			require.NoError(t, err)
			cfg.DomainID = uint32(domain)
			mw, err := New(cfg)
			require.NoError(t, err)
			n, err := mw.NewNode("navnode", "/")
			require.NoError(t, err)
			defer n.Close()
			w, err := n.NewWriter("/probe", (&std_msgs.String{}).MsgType(), rmw.Default, nil)
			require.NoError(t, err)
			require.Eventually(t, func() bool { return w.Matched() > 0 }, 8*time.Second, 50*time.Millisecond,
				"the peer never matched; the node's CycloneDDS configuration: %q", cfg.CycloneConfig())
		})
	}
}
