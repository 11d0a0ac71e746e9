package main

import (
	"bytes"
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// TestRunVoxel runs every planner on a few Simple scenarios and checks the
// per-scenario lines against the file's optimal costs (Lazy Theta*'s
// any-angle paths may only be shorter) and the summary line.
func TestRunVoxel(t *testing.T) {
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	_, scen, err := loadMovingAI(m, m+".3dscen")
	require.NoError(t, err)
	n := 12
	if raceDetector {
		n = 2
	}
	for _, name := range plannerNames {
		var out bytes.Buffer
		require.NoError(t, run([]string{"voxel", "-map", m, "-planner", name, "-n", strconv.Itoa(n), "-every", "700"}, &out), name)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		require.Len(t, lines, 1+1+n+1, out.String())
		require.Equal(t, "index\tcost\texpansions\tmicroseconds", lines[1])
		for _, line := range lines[2 : 2+n] {
			f := strings.Split(line, "\t")
			require.Len(t, f, 4, line)
			i, err := strconv.Atoi(f[0])
			require.NoError(t, err)
			require.Zero(t, i%700)
			cost, err := strconv.ParseFloat(f[1], 64)
			require.NoError(t, err)
			if name == "theta" {
				require.LessOrEqual(t, cost, scen[i].Optimal+1e-6, line)
			} else {
				require.InDelta(t, scen[i].Optimal, cost, 1e-4, "%s: %s", name, line)
			}
		}
		require.Contains(t, lines[2+n], "# summary: "+strconv.Itoa(n)+" scenarios, median", name)
	}
}

// TestRunReplan walks a robot through two Simple scenarios with
// obstacles; runReplan itself fails if any repaired path costs other than
// A* from scratch, so a clean run is the check, plus the table's shape.
func TestRunReplan(t *testing.T) {
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	var out bytes.Buffer
	scenarios := "3"
	if raceDetector {
		scenarios = "1"
	}
	require.NoError(t, run([]string{"replan", "-map", m, "-scenarios", scenarios, "-events", "8", "-every", "3", "-seed", "3"}, &out))
	text := out.String()
	table, summary, ok := strings.Cut(text, "# summary: ")
	require.True(t, ok, text)
	rows := strings.Split(strings.TrimSpace(table), "\n")[2:]
	require.NotEmpty(t, rows)
	for _, r := range rows {
		f := strings.Fields(r)
		require.GreaterOrEqual(t, len(f), 12, r)
		require.Contains(t, []string{"insert", "delete"}, f[2], r)
		for _, v := range f[3:11] {
			_, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err, r)
		}
	}
	for _, p := range repairerNames {
		require.Contains(t, summary, "# "+p+" ")
	}
}

// TestRunUsage: unknown commands and bad flags are errors; -h is not.
func TestRunUsage(t *testing.T) {
	var out bytes.Buffer
	require.Error(t, run(nil, &out))
	require.ErrorContains(t, run([]string{"fly"}, &out), "unknown command")
	require.Error(t, run([]string{"voxel"}, &out))
	require.Error(t, run([]string{"voxel", "-map", "x", "-every", "0"}, &out))
	require.Error(t, run([]string{"voxel", "-map", "/nonexistent.3dmap"}, &out))
	require.Error(t, run([]string{"replan", "-map", "x", "-reach", "1"}, &out))
	require.ErrorIs(t, run([]string{"replan", "-h"}, &out), flag.ErrHelp)
	m := shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	require.ErrorContains(t, run([]string{"voxel", "-map", m, "-planner", "bogus"}, &out), "unknown planner")
}
