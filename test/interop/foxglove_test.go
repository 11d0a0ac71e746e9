package interop

import (
	"net"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/ros/dds"
)

// foxglovePeer runs ros2peer.cjs, a node on @foxglove/ros2's own RTPS
// stack. That stack announces itself once, by multicast on 239.255.0.1, so
// navnode listens to multicast on loopback (default discovery, which only
// the isolated network namespace makes safe).
func foxglovePeer(t *testing.T) program {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Node.js is needed for the @foxglove/ros2 peer: %v", err)
	}
	requireIsolatedNetwork(t)
	return program{
		name: "foxglove-ros2",
		path: node,
		args: []string{filepath.Join(repoRoot, "test", "interop", "foxglove", "ros2peer.cjs")},
		env:  []string{"NAVNODE_INTERFACES=" + shareddata.Path(t, "ros2-interfaces", "jazzy")},
		navnode: func(domain uint32) dds.Config {
			return dds.Config{DomainID: domain, CycloneURI: dds.LoopbackInterface}
		},
	}
}

// requireIsolatedNetwork fails unless this process runs in a network
// namespace with loopback only and a multicast route on it, as make test
// sets up (scripts/netns): @foxglove/ros2 multicasts its discovery, which
// must not leave the machine.
func requireIsolatedNetwork(t *testing.T) {
	ifaces, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ifaces {
		if i.Flags&net.FlagLoopback == 0 && i.Flags&net.FlagUp != 0 {
			t.Fatalf("interface %s is up: the @foxglove/ros2 tests multicast, so they run only in an isolated "+
				"network namespace; run them with scripts/netns go test ./test/interop/ (make test does)", i.Name)
		}
	}
}

func TestFoxglove(t *testing.T) {
	prog := foxglovePeer(t)
	t.Run("goal_and_plan", func(t *testing.T) { goalAndPlan(t, prog, 121) })
	t.Run("late_joiner", func(t *testing.T) { lateJoiner(t, prog, 122) })
	t.Run("8MiB_both_ways", func(t *testing.T) { largeBothWays(t, prog, 123) })
}
