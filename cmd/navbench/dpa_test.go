package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/planners"
)

// TestRunDPA runs a small Table I experiment on the depot map and checks
// the shape of its output: the per-run table, then one summary line per
// scenario.
func TestRunDPA(t *testing.T) {
	depot := shareddata.Path(t, "data", "nav2-maps", "depot.yaml")
	for _, args := range [][]string{
		{"-n", "6", "-obstacles", "3", "-reps", "1", "-cell", "0.1"},
		{"-n", "4", "-obstacles", "2", "-reps", "1", "-cell", "0.1", "-visible", "-baseline", "astar", "-seed", "7", "-clock", "wall", "-memo=false"},
	} {
		var out bytes.Buffer
		require.NoError(t, runDPA(append(args, "-map", depot), &out))
		text := out.String()
		table, summary, ok := strings.Cut(text, "\n# summary")
		require.True(t, ok, text)

		names := map[string]bool{}
		for s := planners.InsertionUnaffected; s <= planners.DeletionAffected; s++ {
			names[s.String()] = true
		}
		changes := map[string]int{}
		header := false
		for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
			switch {
			case strings.HasPrefix(line, "#"):
				continue
			case strings.HasPrefix(line, "run\t"):
				header = true
				require.Len(t, strings.Split(line, "\t"), 14)
				continue
			}
			f := strings.Split(line, "\t")
			require.Len(t, f, 14, line)
			require.True(t, names[f[3]], line)
			changes[f[2]]++
			if f[2] == "insertion" {
				require.Contains(t, []string{"insertion, old path unaffected", "insertion, old path affected"}, f[3])
			} else {
				require.Contains(t, []string{"deletion, old path unaffected", "deletion, old path affected"}, f[3])
			}
		}
		require.True(t, header, text)
		require.Positive(t, changes["insertion"])
		require.Equal(t, changes["insertion"], changes["deletion"], "every pair is re-planned after the insertion and the deletion")

		lines := strings.Split(strings.TrimSpace(summary), "\n")
		require.Len(t, lines, 7, summary) // two comments, the header, four scenarios
		require.True(t, strings.HasPrefix(lines[2], "scenario"))
		for i, s := range []planners.DPAScenario{planners.InsertionUnaffected, planners.InsertionAffected,
			planners.DeletionUnaffected, planners.DeletionAffected} {
			require.True(t, strings.HasPrefix(lines[3+i], s.String()), lines[3+i])
		}
	}
}

func TestRunDPAFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "0"},
		{"-baseline", "dijkstra"},
		{"-clock", "sundial"},
		{"-size", "-1"},
		{"extra"},
		{"-map", "/nonexistent.yaml"},
		{"-nosuchflag"},
	} {
		require.Error(t, runDPA(args, &bytes.Buffer{}), "%q", args)
	}
	var out bytes.Buffer
	require.ErrorIs(t, runDPA([]string{"-h"}, &out), flag.ErrHelp)
	require.Contains(t, out.String(), "usage: navbench dpa")
}

// TestFastest checks that the least of repeated timings passes over a
// reading of 0, when the thread's clock did not advance.
func TestFastest(t *testing.T) {
	best := time.Duration(0)
	for _, reading := range []time.Duration{0, 7, 0, 5, 9} {
		best = fastest(best, reading)
	}
	require.Equal(t, 5*time.Nanosecond, best)
	require.Equal(t, time.Duration(0), fastest(0, 0), "no reading at all stays 0")
}
