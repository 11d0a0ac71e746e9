package msgdef

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// wire returns the wire layout of a message: its field types in order, with
// nested messages expanded. Field names do not reach the wire.
func wire(t *testing.T, set *Set, spec *Spec) string {
	var parts []string
	for _, f := range spec.Fields {
		s := f.Type.String()
		if !f.Type.IsPrimitive() {
			dep, err := set.Lookup(f.Type.Name)
			require.NoError(t, err)
			s += "{" + wire(t, set, dep) + "}"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// TestHumbleJazzyWire checks the claim msgs/ rests on: every message navnode
// generates from Jazzy has the same wire layout in Humble, except the ones
// listed here.
func TestHumbleJazzyWire(t *testing.T) {
	jazzy := NewSet(shareddata.Path(t, "ros2-interfaces", "jazzy"))
	humble := NewSet(shareddata.Path(t, "ros2-interfaces", "humble"))
	differ := []string{
		"rmw_dds_common/Gid", // char[24] in Humble, char[16] in Jazzy
		"rmw_dds_common/NodeEntitiesInfo",
		"rmw_dds_common/ParticipantEntitiesInfo",
		"sensor_msgs/Range", // Jazzy added float32 variance
	}
	var found []string
	for _, pkg := range []string{"builtin_interfaces", "std_msgs", "geometry_msgs", "nav_msgs", "sensor_msgs",
		"visualization_msgs", "diagnostic_msgs", "tf2_msgs", "rcl_interfaces", "rmw_dds_common", "rosgraph_msgs"} {
		specs, err := jazzy.Package(pkg)
		require.NoError(t, err)
		for _, j := range specs {
			h, err := humble.Lookup(j.Ref())
			if err != nil {
				continue // new in Jazzy, e.g. geometry_msgs/PolygonInstance
			}
			if wire(t, jazzy, j) != wire(t, humble, h) {
				found = append(found, j.Ref())
			}
		}
	}
	slices.Sort(found)
	slices.Sort(differ)
	require.Equal(t, differ, found)
}
