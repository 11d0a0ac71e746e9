package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoadErrorLeavesNoParamsFiles: Load writes a parameters file for each
// node with <param name value> as it meets the node; when Load then fails
// (the node's package is not found, a later node is bad, or a command-line
// argument is a typo) it returns no Process, so nobody can remove the files:
// every failed navlaunch run leaves navlaunch_params_*.yaml behind in
// /tmp. Right: a Load that fails leaves Options.TempDir as it found it.
func TestLoadErrorLeavesNoParamsFiles(t *testing.T) {
	cases := map[string]struct {
		text string
		args map[string]string
	}{
		"package not found": {`<launch>
  <node pkg="nosuchpkg" exec="x" name="x"><param name="rate" value="10"/></node>
</launch>`, nil},
		"a later node fails": {`<launch>
  <node pkg="demo" exec="a" name="a"><param name="rate" value="10"/></node>
  <node pkg="nosuchpkg" exec="b" name="b"/>
</launch>`, nil},
		"argument typo": {`<launch>
  <arg name="rate" default="10"/>
  <node pkg="demo" exec="a" name="a"><param name="rate" value="$(var rate)"/></node>
</launch>`, map[string]string{"rtae": "20"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"x.launch.xml": c.text})
			opts := testOptions(t, c.args)
			_, err := Load(filepath.Join(dir, "x.launch.xml"), opts)
			require.Error(t, err)
			left, rerr := os.ReadDir(opts.TempDir)
			require.NoError(t, rerr)
			var names []string
			for _, e := range left {
				names = append(names, e.Name())
			}
			require.Empty(t, names, "Load failed (%v) but left its parameters files", err)
		})
	}
}

// TestSkippedIncludeCycleIsNotExponential: declare.go's scan of the files a
// skipped <include> would read follows every <include> of those files and
// stops only at depth 32, with no memory of the files on its way. A cycle
// through a file that includes another more than once then costs
// fan-out^16 parses: here sim.launch.xml starts three robots from
// robot.launch.xml, which (to run standalone) includes sim.launch.xml when
// standalone is true; from sim.launch.xml that include is off, so it is
// scanned — and the scan reads sim → 3 × robot → 3 × sim ... about 3^16
// (43 million) times: navlaunch hangs. The test counts $(find-pkg-share)
// evaluations and gives up after 10,000. Right: each file is scanned once
// (a visited set), a handful of evaluations.
func TestSkippedIncludeCycleIsNotExponential(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"sim.launch.xml": `<launch>
  <include file="$(find-pkg-share demo)/robot.launch.xml"><arg name="robot" value="r1"/><arg name="standalone" value="false"/></include>
  <include file="$(find-pkg-share demo)/robot.launch.xml"><arg name="robot" value="r2"/><arg name="standalone" value="false"/></include>
  <include file="$(find-pkg-share demo)/robot.launch.xml"><arg name="robot" value="r3"/><arg name="standalone" value="false"/></include>
</launch>`,
		"robot.launch.xml": `<launch>
  <arg name="robot" default="r1"/>
  <arg name="standalone" default="true"/>
  <include file="$(find-pkg-share demo)/sim.launch.xml" if="$(var standalone)"/>
  <node pkg="demo" exec="navnode" name="navnode" namespace="$(var robot)"/>
</launch>`,
	})
	opts := testOptions(t, nil)
	calls := 0
	opts.Share = func(pkg string) (string, error) {
		calls++
		if calls > 10000 {
			panic("too many $(find-pkg-share) evaluations")
		}
		return dir, nil
	}
	var procs []Process
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Load of a 2-file launch evaluated include paths more than 10000 times (%v)", r)
			}
		}()
		procs, err = Load(filepath.Join(dir, "sim.launch.xml"), opts)
	}()
	require.NoError(t, err)
	require.Len(t, procs, 3)
}

// TestSkippedIncludeLoopStillChecksArgs: a loop among files reached only
// through skipped includes (top includes rviz when rviz is on; rviz
// includes top when with_robot is on) runs the scan to depth 32, which
// sets unchecked, so every command-line argument is accepted, typos
// included, though every file could be read and its <arg>s are known. The
// doc promises that only when a file cannot be named or read. Right: the
// typo rvz:=true is refused with ErrArgument.
func TestSkippedIncludeLoopStillChecksArgs(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"top.launch.xml": `<launch>
  <arg name="rviz" default="false"/>
  <include file="$(dirname)/rviz.launch.xml" if="$(var rviz)"/>
  <node pkg="demo" exec="a"/>
</launch>`,
		"rviz.launch.xml": `<launch>
  <arg name="with_robot" default="false"/>
  <include file="$(dirname)/top.launch.xml" if="$(var with_robot)"/>
  <node pkg="demo" exec="rviz2"/>
</launch>`,
	})
	_, err := Load(filepath.Join(dir, "top.launch.xml"), testOptions(t, map[string]string{"rvz": "true"}))
	require.ErrorIs(t, err, ErrArgument, "the typo rvz:=true was accepted")
}
