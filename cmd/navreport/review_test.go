package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/sim"
)

// These tests came from a review (2026-11-22): each failed before its fix.

// TestOnePlanSVG: a mission during which navnode published exactly one
// plan is drawn (choosePlans took the plans between the first and the
// last, and panicked on one).
func TestOnePlanSVG(t *testing.T) {
	log := `{"type":"world","name":"w","bounds":{"min":[0,0,0],"max":[10,6,3]},"shapes":[]}
{"type":"pose","t":0.1,"p":[1,3,1],"yaw":0,"speed":0}
{"type":"goal","t":0.5,"p":[9,3,1]}
{"type":"plan","t":0.6,"poses":[[1,3,1],[9,3,1]]}
{"type":"pose","t":8.1,"p":[9,3,1],"yaw":0,"speed":0}
`
	out := filepath.Join(t.TempDir(), "one.svg")
	require.NoError(t, run([]string{"-log", writeLog(t, log), "-svg", out}, io.Discard))
}

// TestHugePoseTimeSVG: a malformed log whose pose time lies far beyond
// the outcome's is drawn, not walked mark by mark for ever.
func TestHugePoseTimeSVG(t *testing.T) {
	log := `{"type":"world","name":"w","bounds":{"min":[0,0,0],"max":[10,6,3]},"shapes":[]}
{"type":"pose","t":0.1,"p":[1,3,1],"yaw":0,"speed":0}
{"type":"pose","t":1e17,"p":[9,3,1],"yaw":0,"speed":0}
{"type":"outcome","result":"reached","time":8,"distance":8,"expect":"reached","ok":true}
`
	out := filepath.Join(t.TempDir(), "huge.svg")
	done := make(chan error, 1)
	go func() { done <- run([]string{"-log", writeLog(t, log), "-svg", out}, io.Discard) }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("navreport -svg still running after 10 s")
	}
}

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
