package launch

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIncludeArgsAreSetInOrder: ros2 launch turns an include's <arg>s into
// SetLaunchConfiguration actions run one after the other before the
// included file (launch/actions/include_launch_description.py, execute),
// so a later <arg value> sees the value an earlier one set (found in
// review, 2026-11-22).
func TestIncludeArgsAreSetInOrder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"top.launch.xml": `<launch>
  <include file="$(dirname)/sub.launch.xml">
    <arg name="robot" value="uav1"/>
    <arg name="topic" value="/$(var robot)/odom"/>
  </include>
</launch>`,
		"sub.launch.xml": `<launch>
  <arg name="robot"/>
  <arg name="topic"/>
  <node pkg="demo" exec="a" args="$(var topic)"/>
</launch>`,
	})
	procs, err := Load(filepath.Join(dir, "top.launch.xml"), testOptions(t, nil))
	require.NoError(t, err)
	require.Equal(t, []string{"/uav1/odom"}, procs[0].Args)
}

// TestNodeArgsQuotes: launch_ros reads a node's args with shlex.split:
// quotes group words and are removed (found in review, 2026-11-22).
func TestNodeArgsQuotes(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <node pkg="demo" exec="a" args="--title 'two words' --x"/>
</launch>`, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"--title", "two words", "--x"}, procs[0].Args)
}
