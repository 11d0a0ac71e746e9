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

// TestRunMeshDPA runs small Table I experiments on the depot map and the
// aerial world and checks the shape of their output: the per-run table,
// the scenario summary, the mesh and the update times. The command fails
// when a DPA* cost differs from A*'s or the mesh does not come back after
// a deletion, so a run without error is the check of every re-plan (but
// for -mixed paper's, which it counts).
func TestRunMeshDPA(t *testing.T) {
	shareddata.Path(t, "data", "nav2-maps", "depot.yaml")
	shareddata.Path(t, "data", "movingai-voxel", "Simple.3dmap")
	n := "20"
	if raceDetector {
		n = "4"
	}
	for _, args := range [][]string{
		{"-world", "depot", "-n", n, "-obstacles", "2", "-reps", "1"},
		{"-world", "depot", "-n", n, "-obstacles", "2", "-reps", "1", "-mixed", "split", "-visible", "-clock", "wall", "-seed", "3"},
		{"-world", "aerial", "-n", n, "-obstacles", "2", "-reps", "1", "-mixed", "split"},
		{"-world", "aerial", "-n", n, "-obstacles", "1", "-reps", "2", "-baseline", "same", "-tile", "8", "-inflation", "0.3"},
		{"-world", "depot", "-n", n, "-obstacles", "2", "-reps", "1", "-mixed", "paper", "-visible"},
	} {
		var out bytes.Buffer
		require.NoError(t, runMeshDPA(args, &out), "%q", args)
		text := out.String()
		split := strings.Contains(strings.Join(args, " "), "-mixed split")
		obstacles, err := strconv.Atoi(args[5])
		require.NoError(t, err)
		table, summary, ok := strings.Cut(text, "\n# summary")
		require.True(t, ok, text)
		checkMeshRows(t, table, split)
		checkMeshSummary(t, summary, obstacles)
		if strings.Contains(strings.Join(args, " "), "-mixed paper") {
			require.Contains(t, table, ", "+scenPaper+": ", "no update re-planned as the paper does")
			require.Regexp(t, `# as the paper: .*; \d+ of those [1-9]\d* re-plans did not find A\*'s cost`, summary)
		}
	}
}

// checkMeshRows checks the per-run table: 14 columns, known scenarios,
// as many re-plans after the deletions as after the insertions (a pair
// the obstacle cuts off has neither), and DPA* re-planning mixed updates
// in halves with -mixed split.
func checkMeshRows(t *testing.T, table string, split bool) {
	t.Helper()
	known := map[string]bool{}
	for _, l := range meshLabels() {
		known[l] = true
	}
	changes := map[string]int{}
	scenarios := map[string]int{}
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
		require.Contains(t, []string{"insertion", "deletion"}, f[2], line)
		require.True(t, known[f[3]], line)
		changes[f[2]]++
		scenarios[f[3]]++
		if strings.HasSuffix(f[3], scenMixed) || strings.Contains(f[3], scenSplit) || strings.HasSuffix(f[3], scenFresh) {
			require.True(t, strings.HasPrefix(f[3], f[2]+", "), line)
		}
		cost, err := strconv.ParseFloat(f[7], 64)
		require.NoError(t, err, line)
		require.Positive(t, cost, line)
	}
	require.True(t, header, table)
	require.Positive(t, changes["insertion"], table)
	require.Equal(t, changes["insertion"], changes["deletion"], "every pair is re-planned after the insertion and the deletion")
	splits, mixed := 0, 0
	for l, c := range scenarios {
		if strings.Contains(l, scenSplit) {
			splits += c
		}
		if strings.HasSuffix(l, scenMixed) {
			mixed += c
		}
	}
	if split {
		require.Positive(t, splits, "no mixed update re-planned in halves: %v", scenarios)
		require.Zero(t, mixed, scenarios)
	} else {
		require.Zero(t, splits, scenarios)
	}
}

// checkMeshSummary checks the summary: one line per scenario, the totals,
// the mesh and one line of update times per kind of event.
func checkMeshSummary(t *testing.T, summary string, obstacles int) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(summary), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "scenario ") {
		require.True(t, i == 0 || strings.HasPrefix(lines[i], "# "), lines[i])
		i++
	}
	require.Less(t, i, len(lines), summary)
	labels := append(meshLabels(), "insertion, all", "deletion, all")
	require.Greater(t, len(lines), i+len(labels)+5, summary)
	for j, l := range labels {
		f := strings.Fields(strings.TrimPrefix(lines[i+1+j], l))
		require.True(t, strings.HasPrefix(lines[i+1+j], l+" "), lines[i+1+j])
		require.NotEmpty(t, f, lines[i+1+j])
		if f[0] != "0" {
			require.Len(t, f, 11, lines[i+1+j])
		}
	}
	all := map[string]string{} // "<change>" → count of its re-plans, from its "all" line
	for j, c := range []string{"insertion", "deletion"} {
		l := lines[i+1+len(labels)-2+j]
		all[c] = strings.Fields(strings.TrimPrefix(l, c+", all"))[0]
	}
	rest := lines[i+1+len(labels):]
	require.Equal(t, "", rest[0])
	require.True(t, strings.HasPrefix(rest[1], "# Table I: "), rest[1])
	require.True(t, strings.HasPrefix(rest[2], "scenario "), rest[2])
	for j, c := range []string{"insertion", "deletion"} {
		sum := 0
		for k, aff := range []string{"unaffected", "affected"} {
			l := rest[3+2*j+k]
			require.True(t, strings.HasPrefix(l, "table I: "+c+", old path "+aff+" "), l)
			n, err := strconv.Atoi(strings.Fields(strings.TrimPrefix(l, "table I: "+c+", old path "+aff))[0])
			require.NoError(t, err, l)
			sum += n
		}
		require.Equal(t, all[c], strconv.Itoa(sum), "Table I's re-plans of the %s are all of them", c)
	}
	rest = rest[7:]
	require.Equal(t, "", rest[0])
	require.True(t, strings.HasPrefix(rest[1], "# mesh: "), rest[1])
	require.NotContains(t, rest[1], "# mesh: 0 regions")
	require.True(t, strings.HasPrefix(rest[3], "event "), rest[3])
	for j, c := range []string{"insertion", "deletion"} {
		f := strings.Fields(rest[4+j])
		require.Len(t, f, 14, rest[4+j])
		require.Equal(t, c, f[0])
		require.Equal(t, strconv.Itoa(obstacles), f[1])
		require.True(t, strings.HasSuffix(f[13], "%"), rest[4+j])
	}
}

func TestRunMeshDPAFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-world", "moon"},
		{"-n", "0"},
		{"-obstacles", "0"},
		{"-reps", "0"},
		{"-size", "0"},
		{"-robot", "-1"},
		{"-robot", "0.3", "-inflation", "0.1"},
		{"-res", "5"},
		{"-tile", "1"},
		{"-mixed", "guess"},
		{"-baseline", "dijkstra"},
		{"-clock", "sundial"},
		{"extra"},
		{"-map", "/nonexistent.yaml"},
		{"-world", "aerial", "-map", "/nonexistent.3dmap"},
		{"-nosuchflag"},
	} {
		require.Error(t, runMeshDPA(args, &bytes.Buffer{}), "%q", args)
	}
	var out bytes.Buffer
	require.ErrorIs(t, runMeshDPA([]string{"-h"}, &out), flag.ErrHelp)
	require.Contains(t, out.String(), "usage: navbench meshdpa")
}
