package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
)

// TestConfigFileListsEveryParameter: config/navnode.yaml sets every
// parameter navnode declares, to its default, and nothing else.
func TestConfigFileListsEveryParameter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mw, err := dds.New(dds.Loopback(171))
	require.NoError(t, err)
	file, err := filepath.Abs(filepath.Join("..", "..", "config", "navnode.yaml"))
	require.NoError(t, err)
	n, err := ros.NewNode(ctx, "navnode", ros.WithMiddleware(mw), ros.WithArgs([]string{"--ros-args", "--params-file", file}))
	require.NoError(t, err)
	defer n.Close()
	p, err := declareParams(n)
	require.NoError(t, err)
	require.NoError(t, n.CheckParams(), "the file sets a parameter navnode does not declare")
	for _, info := range n.Params() {
		require.Contains(t, info.Source, "navnode.yaml", "parameter %s is not in the file", info.Name)
		require.Equal(t, info.Default, info.Value, "parameter %s: the file's value is not the default", info.Name)
	}
	require.Equal(t, "aerial", p.Mode)
}

// TestParamChecks: values that pass their ranges but not together.
func TestParamChecks(t *testing.T) {
	base := func() params {
		return params{MapFrame: "map", BaseFrame: "base_link", Mode: "aerial", Planner: "auto", Resolution: 0.1,
			Size: r3.Vector{X: 20, Y: 20, Z: 4}, MinAltitude: 0.3, MaxAltitude: 3, SensorMinRange: 0.1, SensorMaxRange: 20,
			RobotRadius: 0.3, InflationRadius: 0.6}
	}
	require.NoError(t, func() error { p := base(); return p.check() }())
	for name, mod := range map[string]func(*params){
		"mode":      func(p *params) { p.Mode = "boat" },
		"planner":   func(p *params) { p.Planner = "rrt" },
		"inflation": func(p *params) { p.InflationRadius = 0.1 },
		"altitude":  func(p *params) { p.MaxAltitude = 0.2 },
		"ranges":    func(p *params) { p.SensorMinRange = 30 },
		"frame":     func(p *params) { p.MapFrame = "" },
		"too large": func(p *params) { p.Resolution = 0.02; p.Size.X, p.Size.Y = 1000, 1000 },
	} {
		p := base()
		mod(&p)
		require.Error(t, p.check(), name)
	}
}

func TestHelpAndStrayArguments(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(context.Background(), []string{"-h"}, &out))
	require.Contains(t, out.String(), "usage: navnode")
	require.ErrorContains(t, run(context.Background(), []string{"--frobnicate"}, &out), "unexpected arguments")
}
