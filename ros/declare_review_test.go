package ros

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSupersededOverrideTypeIgnored: rclcpp merges the overrides first
// (parameter_map_from replaces a name's value under a later matching key;
// rcl replaces it within a key) and only the final value is checked against
// the declared type. Here a shared /** file quotes robot_radius ("0.3", a
// string) and the robot's own file, loaded after it, sets 0.4: ROS 2 starts
// with 0.4. Declare instead fails on the earlier, superseded value.
// Right: robot_radius = 0.4, no error.
func TestSupersededOverrideTypeIgnored(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared.yaml")
	robot := filepath.Join(dir, "robot.yaml")
	require.NoError(t, os.WriteFile(shared, []byte("/**:\n  ros__parameters:\n    robot_radius: \"0.3\"\n"), 0o644))
	require.NoError(t, os.WriteFile(robot, []byte("/**/navnode:\n  ros__parameters:\n    robot_radius: 0.4\n"), 0o644))
	args, _, err := ParseArgs([]string{"--ros-args", "--params-file", shared, "--params-file", robot})
	require.NoError(t, err)
	n := &Node{name: "navnode", ns: "/", args: args, params: newParams(args.Params, "/navnode")}
	r, err := Declare(n, "robot_radius", 0.3, "", Range(0, 10))
	require.NoError(t, err)
	require.Equal(t, 0.4, r)
}
