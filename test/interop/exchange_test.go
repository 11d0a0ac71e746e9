package interop

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/ros"
)

// The scenarios every peer program runs; peer is the binary's name under
// build/interop and evil the one that sends malformed CDR. Each test uses a
// domain of its own: base + scenario number.

// goalAndPlan: the peer publishes a PoseStamped on /goal_pose, navnode
// checks every field; navnode publishes a Path on /plan, the peer checks
// every field.
func goalAndPlan(t *testing.T, peerBin string, domain uint32) {
	ctx := testCtx(t, 30*time.Second)
	n := newNavnode(t, ctx, domain)
	goals := make(chan geometry_msgs.PoseStamped, 1)
	_, err := ros.Subscribe[geometry_msgs.PoseStamped](n.Node, "/goal_pose", ros.QoSDefault,
		func(m *geometry_msgs.PoseStamped) { goals <- *m })
	require.NoError(t, err)
	plan, err := ros.NewPublisher[nav_msgs.Path](n.Node, "/plan", ros.QoSDefault)
	require.NoError(t, err)

	planPeer := startPeer(t, ctx, domain, bin(t, peerBin), "plan")
	goalPeer := startPeer(t, ctx, domain, bin(t, peerBin), "goal")
	got := waitFor(t, ctx, goals, "the goal", goalPeer)
	require.Equal(t, expectedGoal(), got, "goal from %s", peerBin)
	goalPeer.wait(t, ctx)

	require.NoError(t, plan.WaitMatched(ctx, 1), "peer output: %s", planPeer.out.String())
	require.NoError(t, plan.Publish(expectedPlan()))
	require.Contains(t, planPeer.wait(t, ctx), "OK plan of 5 poses matches")
}

// lateJoiner: navnode publishes /map transient local; a peer that starts
// two seconds later still gets it.
func lateJoiner(t *testing.T, peerBin string, domain uint32) {
	ctx := testCtx(t, 30*time.Second)
	n := newNavnode(t, ctx, domain)
	pub, err := ros.NewPublisher[nav_msgs.OccupancyGrid](n.Node, "/map", ros.QoSMap)
	require.NoError(t, err)
	require.NoError(t, pub.Publish(expectedMap()))
	published := time.Now()
	select { // the scenario itself: the peer joins two seconds after the map was published
	case <-time.After(2 * time.Second):
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	require.Zero(t, pub.Matched(), "nobody subscribed before the peer started")
	out := startPeer(t, ctx, domain, bin(t, peerBin), "latemap").wait(t, ctx)
	require.Contains(t, out, "OK late-joining map of 20000 cells matches")
	t.Logf("map published %v before the peer got it", time.Since(published).Round(time.Millisecond))
}

// largeBothWays: an 8 MiB PointCloud2 from the peer to navnode and one from
// navnode to the peer, every byte checked.
func largeBothWays(t *testing.T, peerBin string, domain uint32) {
	ctx := testCtx(t, 60*time.Second)
	n := newNavnode(t, ctx, domain)
	clouds := make(chan string, 1)
	_, err := ros.Subscribe[sensor_msgs.PointCloud2](n.Node, "/cloud_in", ros.QoSDefault, func(m *sensor_msgs.PointCloud2) {
		clouds <- cloudMismatch(m)
	})
	require.NoError(t, err)
	out, err := ros.NewPublisher[sensor_msgs.PointCloud2](n.Node, "/cloud_out", ros.QoSDefault)
	require.NoError(t, err)

	recv := startPeer(t, ctx, domain, bin(t, peerBin), "cloudrecv")
	send := startPeer(t, ctx, domain, bin(t, peerBin), "cloudsend")
	start := time.Now()
	require.Empty(t, waitFor(t, ctx, clouds, "the 8 MiB cloud", send), "cloud from %s", peerBin)
	t.Logf("8 MiB %s -> navnode in %v (discovery included)", peerBin, time.Since(start).Round(time.Millisecond))
	send.wait(t, ctx)

	require.NoError(t, out.WaitMatched(ctx, 1), "peer output: %s", recv.out.String())
	start = time.Now()
	require.NoError(t, out.Publish(expectedCloud()))
	require.Contains(t, recv.wait(t, ctx), "OK cloud of 8388608 bytes matches")
	t.Logf("8 MiB navnode -> %s in %v", peerBin, time.Since(start).Round(time.Millisecond))
}

var gidsRE = regexp.MustCompile(`OK node (\S+) (\S+) participant=([0-9a-f]{32}) readers=(\S*) writers=(\S*)`)

// discoveryInfo: the peer reads ros_discovery_info and finds navnode's
// name, namespace and the GIDs of its endpoints.
func discoveryInfo(t *testing.T, peerBin string, domain uint32) {
	ctx := testCtx(t, 30*time.Second)
	n := newNavnode(t, ctx, domain)
	sub, err := ros.Subscribe[geometry_msgs.PoseStamped](n.Node, "/goal_pose", ros.QoSDefault, func(*geometry_msgs.PoseStamped) {})
	require.NoError(t, err)
	pub, err := ros.NewPublisher[nav_msgs.Path](n.Node, "/plan", ros.QoSDefault)
	require.NoError(t, err)

	out := startPeer(t, ctx, domain, bin(t, peerBin), "discovery", "/", "navnode").wait(t, ctx)
	m := gidsRE.FindStringSubmatch(out)
	require.NotNil(t, m, "peer output: %s", out)
	hexGID := func(g [16]byte) string { return hex.EncodeToString(g[:]) }
	require.Equal(t, "/", m[1])
	require.Equal(t, "navnode", m[2])
	require.Contains(t, strings.Split(m[4], ","), hexGID(sub.GID()), "reader GIDs")
	// navnode's writers: /plan and /rosout
	require.Contains(t, strings.Split(m[5], ","), hexGID(pub.GID()), "writer GIDs")
	require.Len(t, strings.Split(m[5], ","), 2, "writers: /plan and /rosout")
	require.Equal(t, hexGID(pub.GID())[:24], m[3][:24], "endpoints share the participant's GUID prefix")
}

// malformed: an evil peer publishes malformed CDR on /goal_pose; navnode
// logs it (rate-limited), counts it, keeps running and takes the next good
// goal from the normal peer.
func malformed(t *testing.T, peerBin, evilBin string, domain uint32) {
	ctx := testCtx(t, 30*time.Second)
	n := newNavnode(t, ctx, domain)
	goals := make(chan geometry_msgs.PoseStamped, 4)
	sub, err := ros.Subscribe[geometry_msgs.PoseStamped](n.Node, "/goal_pose", ros.QoSDefault,
		func(m *geometry_msgs.PoseStamped) { goals <- *m })
	require.NoError(t, err)
	evil := startPeer(t, ctx, domain, bin(t, evilBin))
	require.Contains(t, evil.wait(t, ctx), "OK 3 malformed PoseStamped sent")
	for sub.Stats().Malformed < 3 {
		select {
		case g := <-goals:
			t.Fatalf("a malformed goal was decoded: %+v", g)
		case <-ctx.Done():
			t.Fatalf("only %d malformed messages counted", sub.Stats().Malformed)
		case <-time.After(10 * time.Millisecond):
		}
	}
	good := startPeer(t, ctx, domain, bin(t, peerBin), "goal")
	require.Equal(t, expectedGoal(), waitFor(t, ctx, goals, "the good goal after the malformed ones", good))
	good.wait(t, ctx)
	require.Equal(t, ros.SubscriptionStats{Received: 1, Malformed: 3}, sub.Stats())
	warned := n.logs.FilterMessage("malformed message skipped").All()
	require.Len(t, warned, 1, "logged once, rate-limited")
	require.Contains(t, fmt.Sprint(warned[0].ContextMap()["error"]), "geometry_msgs/msg/PoseStamped")
}

func TestCyclone(t *testing.T) {
	t.Run("goal_and_plan", func(t *testing.T) { goalAndPlan(t, "cyclone-peer", 101) })
	t.Run("late_joiner", func(t *testing.T) { lateJoiner(t, "cyclone-peer", 102) })
	t.Run("8MiB_both_ways", func(t *testing.T) { largeBothWays(t, "cyclone-peer", 103) })
	t.Run("discovery_info", func(t *testing.T) { discoveryInfo(t, "cyclone-peer", 104) })
	t.Run("malformed", func(t *testing.T) { malformed(t, "cyclone-peer", "cyclone-evil", 105) })
}


func TestFastDDS(t *testing.T) {
	t.Run("goal_and_plan", func(t *testing.T) { goalAndPlan(t, "fastdds-peer", 111) })
	t.Run("late_joiner", func(t *testing.T) { lateJoiner(t, "fastdds-peer", 112) })
	t.Run("8MiB_both_ways", func(t *testing.T) { largeBothWays(t, "fastdds-peer", 113) })
	t.Run("discovery_info", func(t *testing.T) { discoveryInfo(t, "fastdds-peer", 114) })
}
