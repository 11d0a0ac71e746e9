package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
)

// TestRepairQuantiles checks the nearest-rank percentiles: with 100 repairs
// the p99 is the 99th fastest, so one outlier does not become the p99.
func TestRepairQuantiles(t *testing.T) {
	cases := []struct {
		n        int
		p50, p99 time.Duration
	}{
		{1, 1, 1},
		{2, 1, 2},
		{3, 2, 3},
		{100, 50, 99},
		{101, 51, 100},
		{200, 100, 198},
		{512, 256, 507},
	}
	for _, c := range cases {
		var r repairTimes
		for i := c.n; i >= 1; i-- { // added out of order
			r.add(time.Duration(i) * time.Millisecond)
		}
		p50, p99 := r.quantiles()
		assert.Equal(t, c.p50*time.Millisecond, p50, "p50 of %d", c.n)
		assert.Equal(t, c.p99*time.Millisecond, p99, "p99 of %d", c.n)
	}
}

// TestRepairQuantilesWindow checks that the window keeps only the last
// repairWindow times.
func TestRepairQuantilesWindow(t *testing.T) {
	var r repairTimes
	for range repairWindow {
		r.add(time.Hour)
	}
	for range repairWindow {
		r.add(time.Millisecond)
	}
	p50, p99 := r.quantiles()
	assert.Equal(t, time.Millisecond, p50)
	assert.Equal(t, time.Millisecond, p99)
	var empty repairTimes
	p50, p99 = empty.quantiles()
	assert.Zero(t, p50)
	assert.Zero(t, p99)
}

// TestInputsWarnOnlyWhileFailing checks that the inputs' status warns
// while messages are being dropped or refused, and goes back to OK once
// they are not: a robot whose scans are dropped until its localisation
// starts (no map → odom yet) is fine afterwards, but its diagnostics
// said "N dropped messages so far" at WARN for as long as navnode ran.
// The totals stay in the values and the message.
func TestInputsWarnOnlyWhileFailing(t *testing.T) {
	c := newCounters()
	s := &diagState{repairs: &repairTimes{}, tfAge: -1}
	now := time.Now()
	inputs := func() diagnostic_msgs.DiagnosticStatus {
		now = now.Add(time.Second)
		return report(c, s, now, std_msgs.Header{}).Status[1]
	}
	require.Equal(t, diagnostic_msgs.DiagnosticStatus_OK, inputs().Level)

	for range 5 { // before localisation: no transform to the map yet
		c.got(topicScan)
		c.drop(topicScan, "unknown frame")
	}
	c.got(topicGoal)
	c.malformed(topicGoal, "invalid")
	st := inputs()
	require.Equal(t, diagnostic_msgs.DiagnosticStatus_WARN, st.Level, st.Message)
	require.Contains(t, st.Message, "1 malformed and 5 dropped")

	for range 10 { // localised: every scan is used
		c.got(topicScan)
	}
	st = inputs()
	require.Equal(t, diagnostic_msgs.DiagnosticStatus_OK, st.Level, st.Message)
	require.Contains(t, st.Message, "1 malformed and 5 dropped messages so far")
	values := map[string]string{}
	for _, kv := range st.Values {
		values[kv.Key] = kv.Value
	}
	require.Equal(t, "5", values["scan dropped"])
	require.Equal(t, "1", values["goal_pose malformed"])

	c.drop(topicScan, "unknown frame") // again
	st = inputs()
	require.Equal(t, diagnostic_msgs.DiagnosticStatus_WARN, st.Level, st.Message)
	require.Contains(t, st.Message, "1 malformed and 6 dropped messages so far, 0 and 1 since the last report")
	require.Equal(t, diagnostic_msgs.DiagnosticStatus_OK, inputs().Level)
}
