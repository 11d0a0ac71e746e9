package rmw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	for _, q := range []QoS{Default, SensorData, Map, Rosout, {History: KeepAll}, {History: KeepLast}} { // depth 0: 1, as rclcpp and rmw_cyclonedds
		require.NoError(t, q.Validate(), "%v", q)
	}
	for name, q := range map[string]QoS{
		"negative depth":   {History: KeepLast, Depth: -1},
		"negative lease":   {History: KeepAll, LivelinessLease: -time.Second},
		"unknown history":  {History: 2, Depth: 1},
		"unknown reliab.":  {Depth: 1, Reliability: -1},
		"unknown durab.":   {Depth: 1, Durability: 7},
		"unknown liveness": {Depth: 1, Liveliness: 2},
	} {
		require.Error(t, q.Validate(), name)
	}
}

func TestQoSString(t *testing.T) {
	require.Equal(t, "keep_last(1), reliable, transient_local, deadline infinite, lifespan infinite, "+
		"liveliness automatic lease infinite", Map.String())
	q := QoS{History: KeepAll, Deadline: 100 * time.Millisecond, Liveliness: ManualByTopic, LivelinessLease: time.Second}
	require.Equal(t, "keep_all, best_effort, volatile, deadline 100ms, lifespan infinite, "+
		"liveliness manual_by_topic lease 1s", q.String())
	require.Contains(t, QoS{Reliability: 5}.String(), "unknown(5)", "no panic on a bad value")
}

// TestIncompatible checks the request/offer rules DDS applies, with the
// reasons rmw_dds_common gives.
func TestIncompatible(t *testing.T) {
	cases := []struct {
		pub, sub QoS
		want     string
	}{
		{Default, Default, ""},
		{Default, SensorData, ""}, // a reliable writer serves a best-effort reader
		{SensorData, Default, "Best effort publisher and reliable subscription"},
		{Map, Default, ""},
		{Default, Map, "Volatile publisher and transient local subscription"},
		{Default, QoS{Deadline: time.Second}, "Subscription has a deadline, but publisher does not"},
		{QoS{Deadline: 2 * time.Second}, QoS{Deadline: time.Second}, "Subscription deadline is less than publisher deadline"},
		{QoS{Deadline: time.Second}, QoS{Deadline: 2 * time.Second}, ""},
		{Default, QoS{Liveliness: ManualByTopic}, "Publisher's liveliness is automatic and subscription's is manual by topic"},
		{QoS{Reliability: Reliable, Liveliness: ManualByTopic}, Default, ""},
		{Default, QoS{LivelinessLease: time.Second}, "Subscription has a liveliness lease duration, but publisher does not"},
		{QoS{LivelinessLease: 2 * time.Second}, QoS{LivelinessLease: time.Second}, "Subscription liveliness lease duration is less than publisher"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Incompatible(c.pub, c.sub), "pub %v / sub %v", c.pub, c.sub)
	}
}

func TestGIDString(t *testing.T) {
	g := GID{0x01, 0x0f, 0xab}
	require.Equal(t, "01.0f.ab.00.00.00.00.00.00.00.00.00.00.00.00.00", g.String())
}
