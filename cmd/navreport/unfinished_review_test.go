package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/sim"
)

// TestUnfinishedGoal: a log without an outcome line (navsim killed) whose
// only goal came at 5 s. navreport used to print "… m since the final goal
// came at 0.00 s" and count the 5 m driven before the goal as driven
// since it (found by a review, 2026-11-22).
func TestUnfinishedGoal(t *testing.T) {
	log := `{"type":"world","name":"w","bounds":{"min":[0,0,0],"max":[20,6,3]},"shapes":[]}
{"type":"pose","t":0.1,"p":[1,3,1],"yaw":0,"speed":0}
{"type":"pose","t":5,"p":[6,3,1],"yaw":0,"speed":1}
{"type":"goal","t":5,"p":[15,3,1]}
{"type":"pose","t":8,"p":[9,3,1],"yaw":0,"speed":1}
`
	l, err := sim.ReadLog(strings.NewReader(log))
	require.NoError(t, err)
	s := summarize(l)
	require.Equal(t, "unfinished", s.Result)
	require.InDelta(t, 8, s.Distance, 1e-9)
	require.Equal(t, 5.0, s.GoalTime, "the final goal came at 5 s")
	require.InDelta(t, 3, s.ToGoal, 1e-9, "3 m were driven since the goal came")
}
