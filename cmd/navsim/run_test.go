package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/ros"
)

// navnodeParams returns navnode's parameters and their values, from
// config/navnode.yaml (internal/launch checks it against the node).
func navnodeParams(t *testing.T) map[string]any {
	text, err := os.ReadFile("../../config/navnode.yaml")
	require.NoError(t, err)
	o, err := ros.ParseParamsFile(string(text), "navnode.yaml")
	require.NoError(t, err)
	out := map[string]any{}
	for _, p := range o {
		out[p.Name] = p.Value
	}
	return out
}

// TestSimParamsFiles checks that config/sim_<name>.yaml is exactly what
// navsim -write-params writes for scenarios/<name>.yaml (and
// config/sim_depot.yaml for the default scenario), and that navnode
// reads every value with its parameter's type.
func TestSimParamsFiles(t *testing.T) {
	scenarios, err := filepath.Glob("../../scenarios/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, scenarios)
	cases := map[string][]string{"sim_depot.yaml": {"-world", "depot"}}
	for _, s := range scenarios {
		cases["sim_"+filepath.Base(s)] = []string{"-scenario", s}
	}
	configs, err := filepath.Glob("../../config/sim_*.yaml")
	require.NoError(t, err)
	require.Len(t, configs, len(cases), "one config/sim_*.yaml per scenario, and sim_depot.yaml")
	known := navnodeParams(t)
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, run(context.Background(), append(args, "-write-params", "-"), &out))
			want, err := os.ReadFile(filepath.Join("../../config", name))
			require.NoError(t, err, "write it with: navsim %s -write-params config/%s", strings.Join(args, " "), name)
			require.Equal(t, string(want), out.String(), "regenerate with: navsim %s -write-params config/%s", strings.Join(args, " "), name)
			o, err := ros.ParseParamsFile(out.String(), name)
			require.NoError(t, err)
			for _, p := range o {
				require.Equal(t, "/**/navnode", p.NodeKey)
				def, ok := known[p.Name]
				require.True(t, ok, "%s is not a navnode parameter", p.Name)
				require.IsType(t, def, p.Value, p.Name)
			}
		})
	}
}

func TestFlags(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	require.NoError(t, run(ctx, []string{"-h"}, &out))
	require.Contains(t, out.String(), "-scenario")

	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("robot: {type: boat}"), 0o644))
	noRandom := "testdata/short.yaml"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-nope"}, "flag provided but not defined"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"-wait", "-1s", "-write-params", "-"}, "-wait"},
		{[]string{"-scenario", bad}, "boat"},
		{[]string{"-scenario", filepath.Join(dir, "missing.yaml")}, "no such file"},
		{[]string{"-world", "atlantis", "-write-params", "-"}, "atlantis"},
		{[]string{"-scenario", noRandom, "-seed", "3", "-write-params", "-"}, "no random block"},
		{[]string{"-seed", "3", "-write-params", "-"}, "no random block"},
		{[]string{"-scenario", "../../scenarios/depot_box.yaml", "-world", "testdata/room.yaml", "-write-params", "-"}, "robot start"},
		{[]string{"--ros-args", "-p"}, "ros"},
	} {
		err := run(ctx, c.args, &out)
		require.ErrorContains(t, err, c.want, "%q", c.args)
	}
	// NAVSIM_SEED seeds random scenarios and leaves others alone.
	t.Setenv("NAVSIM_SEED", "12")
	o, err := parseFlags(nil, &out)
	require.NoError(t, err)
	require.Equal(t, int64(12), o.seed)
	sc, _, err := load(options{scenario: "../../scenarios/soak.yaml", seed: 12, seedSet: true, seedEnv: true})
	require.NoError(t, err)
	require.Equal(t, int64(12), sc.Random.Seed)
	_, _, err = load(options{scenario: noRandom, seed: 12, seedSet: true, seedEnv: true})
	require.NoError(t, err)
	t.Setenv("NAVSIM_SEED", "twelve")
	_, err = parseFlags(nil, &out)
	require.ErrorContains(t, err, "NAVSIM_SEED")
	t.Setenv("NAVSIM_SEED", "")

	// An empty argument (an empty launch substitution) is no argument.
	out.Reset()
	require.NoError(t, run(ctx, []string{"", "-scenario", "../../scenarios/soak.yaml", "-seed", "9", "-write-params", "-"}, &out))
	require.Contains(t, out.String(), `mode: "ground"`)
}
