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

// TestArgAndLetNames: launch reads an <arg>'s name with escape_characters
// (backslashes dropped, no substitutions) and a <let>'s with
// parse_substitution. Real launch (Humble and Jazzy) printed
// ARGV: [[AB]] [[LETSUB]] [[CD]] [[LETSUB2]] for this file, and
// ARGV: [[CMD]] for ab:=CMD with <arg name="a\b">.
func TestArgAndLetNames(t *testing.T) {
	text := `<launch>
  <arg name="a\b" default="AB"/>
  <arg name="n" default="k"/>
  <let name="$(var n)" value="LETSUB"/>
  <let name="c\d" value="CD"/>
  <let name="$(var n)2" value="LETSUB2"/>
  <node pkg="demo" exec="a" args="[$(var ab 'noab')] [$(var k 'nok')] [$(var cd 'nocd')] [$(var k2 'nok2')]"/>
</launch>`
	procs, err := loadText(t, text, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"[AB]", "[LETSUB]", "[CD]", "[LETSUB2]"}, procs[0].Args)
	procs, err = loadText(t, text, map[string]string{"ab": "CMD"})
	require.NoError(t, err)
	require.Equal(t, "[CMD]", procs[0].Args[0])
	_, err = loadText(t, `<launch><let name="$(var" value="x"/></launch>`, nil)
	require.ErrorIs(t, err, ErrSubstitution)
}

// TestIncludeArgNames: launch reads the name of an include's <arg> with
// parse_substitution. IncludeLaunchDescription evaluates every name
// first, to check the file's required arguments, then sets each
// (SetLaunchConfiguration), evaluating its name again. Real launch
// (Humble and Jazzy) printed ARGV: [[K]] [[AB]] for top; for top2
// "launch configuration 'n' does not exist"; for top3, whose names read k
// then ab, 'Required launch argument "k" was not provided.'.
func TestIncludeArgNames(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"child.launch.xml": `<launch>
  <arg name="k"/>
  <arg name="ab" default="noab"/>
  <node pkg="demo" exec="a" args="[$(var k)] [$(var ab)]"/>
</launch>`,
		"top.launch.xml": `<launch>
  <arg name="n" default="k"/>
  <include file="$(dirname)/child.launch.xml">
    <arg name="$(var n)" value="K"/>
    <arg name="a\b" value="AB"/>
  </include>
</launch>`,
		"top2.launch.xml": `<launch>
  <include file="$(dirname)/child.launch.xml">
    <arg name="n" value="k"/>
    <arg name="$(var n)" value="K"/>
  </include>
</launch>`,
		"top3.launch.xml": `<launch>
  <let name="n" value="k"/>
  <include file="$(dirname)/child.launch.xml">
    <arg name="n" value="ab"/>
    <arg name="$(var n)" value="K"/>
  </include>
</launch>`,
	})
	procs, err := Load(filepath.Join(dir, "top.launch.xml"), testOptions(t, nil))
	require.NoError(t, err)
	require.Equal(t, []string{"[K]", "[AB]"}, procs[0].Args)
	_, err = Load(filepath.Join(dir, "top2.launch.xml"), testOptions(t, nil))
	require.ErrorContains(t, err, `undefined launch configuration "n"`)
	_, err = Load(filepath.Join(dir, "top3.launch.xml"), testOptions(t, nil))
	require.ErrorIs(t, err, ErrArgument)
	require.ErrorContains(t, err, `"k" is required`)
}
