package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/replanner"
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
	base := testParams
	require.NoError(t, func() error { p := base(); return p.check() }())
	for name, mod := range map[string]func(*params){
		"mode":                     func(p *params) { p.Mode = "boat" },
		"planner":                  func(p *params) { p.Planner = "rrt" },
		"inflation":                func(p *params) { p.InflationRadius = 0.1 },
		"altitude":                 func(p *params) { p.MaxAltitude = 0.2 },
		"ranges":                   func(p *params) { p.SensorMinRange = 30 },
		"frame":                    func(p *params) { p.MapFrame = "" },
		"too large":                func(p *params) { p.Resolution = 0.02; p.Size.X, p.Size.Y = 1000, 1000 },
		"sensor range in voxels":   func(p *params) { p.Resolution = 0.05; p.SensorMaxRange = 300 },
		"goal tolerance in voxels": func(p *params) { p.Resolution = 0.02; p.GoalTolerance = 10 },
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

// TestParamsReachThePlanner: parameters the planner reads differently
// from the node arrive as the node documents them.
func TestParamsReachThePlanner(t *testing.T) {
	p := testParams()
	p.CostWeight = 0 // costs only decide what is passable
	p.SwitchDelay = 1500 * time.Millisecond
	w, err := newWorld(p)
	require.NoError(t, err)
	require.Zero(t, w.loop.Config().CostWeight)
	require.Equal(t, 1500*time.Millisecond, w.loop.Config().SwitchDelay)

	// check refuses the volumes the planner would refuse, and only those.
	p = testParams()
	p.Resolution = 0.05
	p.Size.X, p.Size.Y = 100, 100 // 2000 × 2000 × 54 voxels
	require.ErrorContains(t, p.check(), "too large")
	p.Size.X, p.Size.Y = 55, 55 // 1100 × 1100 × 54 = 65,340,000 voxels, just under 2^26
	require.NoError(t, p.check())
	require.LessOrEqual(t, p.volume().Volume(), int64(replanner.MaxCells))
}

// TestParamsInVoxels: sensor_max_range and goal_tolerance, each within
// its range in metres, are refused at start past what the costmap and the
// planner take in voxels, and taken up to it. A review found both let
// through: every cloud was then refused as malformed (sensor_max_range
// 300 at resolution 0.05), or a goal moved no more than 250 voxels
// however large goal_tolerance was.
func TestParamsInVoxels(t *testing.T) {
	p := testParams()
	p.Resolution, p.SensorMaxRange = 0.05, voxel.MaxRangeVoxels*0.05
	require.NoError(t, p.check())
	w, err := newWorld(p)
	require.NoError(t, err)
	_, err = w.apply(&voxel.Cloud{Origin: r3.Vector{Z: 1}, Points: []r3.Vector{{X: 2, Z: 1}},
		MinRange: p.SensorMinRange, MaxRange: p.SensorMaxRange})
	require.NoError(t, err, "a cloud at the longest range check lets through")
	p.SensorMaxRange = 205
	require.ErrorContains(t, p.check(), "sensor_max_range")

	p = testParams()
	p.Resolution, p.Size = 0.02, r3.Vector{X: 6, Y: 6, Z: 2}
	p.GoalTolerance = replanner.MaxToleranceVoxels * p.Resolution
	require.NoError(t, p.check())
	_, err = newWorld(p)
	require.NoError(t, err, "the planner takes the largest tolerance check lets through")
	p.GoalTolerance = 5.01
	require.ErrorContains(t, p.check(), "goal_tolerance")
}

// TestBudgetTicksExpand: with a budget shorter than a search's set-up,
// every tick of the node still expands nodes, as the planning loop
// promises, until the path is found: with AD* (planner auto), with A*
// and the tunnel, which go on with a search the budget cut off, and with
// DPA*, whose cut-off search A* finishes.
func TestBudgetTicksExpand(t *testing.T) {
	for _, planner := range []string{"auto", "astar", "tunnel", "dpastar"} {
		t.Run(planner, func(t *testing.T) {
			p := testParams()
			p.Budget, p.Planner = 20*time.Microsecond, planner
			w, err := newWorld(p)
			require.NoError(t, err)
			_, err = w.apply(voxel.PutShape{ID: "wall", Solid: &voxel.BoxShape{ // across x = 0, open at y > 9
				Pose: voxel.Pose{Position: r3.Vector{Y: -0.5, Z: 2}, Orientation: voxel.Identity},
				Size: r3.Vector{X: 0.2, Y: 19, Z: 6}}})
			require.NoError(t, err)
			require.NoError(t, w.setPose(r3.Vector{X: -9, Y: -9, Z: 1}))
			require.NoError(t, w.setGoal(r3.Vector{X: 9, Y: -9, Z: 1}))
			for ticks := 1; ; ticks++ {
				out, _ := w.tick(context.Background())
				if out.Status == replanner.Following {
					t.Logf("following after %d ticks", ticks)
					return
				}
				require.Positive(t, out.Stats.Expansions, "tick %d (%v) expanded nothing", ticks, out.Status)
				require.Less(t, ticks, 10000)
			}
		})
	}
}
