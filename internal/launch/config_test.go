package launch_test

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/ros"
)

// navnodeParams are navnode's parameters and defaults, as the issue lists
// them; config/navnode.yaml must hold exactly these.
var navnodeParams = map[string]any{
	"map_frame": "map", "odom_frame": "odom", "base_frame": "base_link", "mode": "aerial", "planner": "auto",
	"resolution": 0.1, "origin_x": -10.0, "origin_y": -10.0, "origin_z": 0.0,
	"size_x": 20.0, "size_y": 20.0, "size_z": 4.0,
	"robot_radius": 0.3, "robot_height": 0.5, "min_obstacle_height": 0.05, "inflation_radius": 0.6, "cost_scaling": 3.0, "cost_weight": 1.0,
	"min_altitude": 0.3, "max_altitude": 3.0, "epsilon0": 2.5, "epsilon_step": 0.5, "budget_ms": 0.0, "repair_budget_ms": 5.0, "switch_delay_s": 1.0,
	"tick_hz": 10.0, "decay_s": 0.0, "sensor_min_range": 0.1, "sensor_max_range": 20.0,
	"goal_tolerance": 0.5, "reached_tolerance": 0.25, "tunnel_width": 0.0, "unknown_is_free": true, "unknown_cost": 252.0,
	"diagnostics_hz": 1.0, "voxels_hz": 1.0, "costmap_hz": 1.0, "tf_timeout": 0.5,
	"use_sim_time": false,
}

// readParams parses a parameters file of config/ with navnode's parser
// and checks that it applies to a node named navnode in any namespace.
func readParams(t *testing.T, name string) (map[string]any, string) {
	t.Helper()
	path := filepath.Join(repoRoot(t), "config", name)
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	overrides, err := ros.ParseParamsFile(string(text), path)
	require.NoError(t, err)
	got := map[string]any{}
	for _, o := range overrides {
		require.Equal(t, "/**/navnode", o.NodeKey, o.Name)
		require.NotContains(t, got, o.Name, "%s given twice", o.Name)
		got[o.Name] = o.Value
	}
	return got, string(text)
}

func TestParamsFile(t *testing.T) {
	got, text := readParams(t, "navnode.yaml")
	require.Equal(t, navnodeParams, got)

	// Every parameter line follows a comment line saying what it is.
	lines := strings.Split(text, "\n")
	param := regexp.MustCompile(`^    (\w+): `)
	seen := 0
	for i, line := range lines {
		if m := param.FindStringSubmatch(line); m != nil {
			seen++
			require.Regexp(t, `^    # \S.{10,}`, lines[i-1], "%s has no description comment", m[1])
		}
	}
	require.Equal(t, len(navnodeParams), seen)
}

func TestRobotParamsFiles(t *testing.T) {
	for _, name := range []string{"gazebo_drone.yaml", "gazebo_ground.yaml"} {
		got, _ := readParams(t, name)
		require.NotEmpty(t, got)
		for _, key := range slices.Sorted(maps.Keys(got)) {
			def, ok := navnodeParams[key]
			require.True(t, ok, "%s: %s is not a navnode parameter", name, key)
			require.IsType(t, def, got[key], "%s: %s", name, key)
		}
	}
}
