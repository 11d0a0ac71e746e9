package launch

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArgDeclaredInDisabledGroup: the file declares rviz_config (inside a
// group that is off by default), so rviz_config:=... is not a typo; ros2
// launch accepts it (it never checks command-line arguments), and the
// documented strictness is only for arguments "no file declares". Load
// refuses it with "declare no argument "rviz_config" (they declare rviz)",
// which is false. Right: the launch loads, with node a started.
func TestArgDeclaredInDisabledGroup(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="rviz" default="false"/>
  <group if="$(var rviz)">
    <arg name="rviz_config" default="default.rviz"/>
    <node pkg="demo" exec="rviz2" args="-d $(var rviz_config)"/>
  </group>
  <node pkg="demo" exec="a"/>
</launch>`, map[string]string{"rviz_config": "mine.rviz"})
	require.NoError(t, err)
	require.Len(t, procs, 1)
}

// TestArgDeclaredInSkippedInclude: a file an include would read, in a
// branch that is off, is read for its <arg> names (and the files it
// includes in turn); a typo is still refused; when such a file cannot be
// named (its path needs a configuration not set), arguments go unchecked.
func TestArgDeclaredInSkippedInclude(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"top.launch.xml": `<launch>
  <arg name="rviz" default="false"/>
  <include file="$(dirname)/rviz.launch.xml" if="$(var rviz)"/>
  <node pkg="demo" exec="a"/>
</launch>`,
		"rviz.launch.xml": `<launch>
  <group><include file="$(dirname)/inner.launch.xml"/></group>
  <arg name="rviz_config" default="default.rviz"/>
</launch>`,
		"inner.launch.xml": `<launch><arg name="inner_arg" default="x"/></launch>`,
		"unnamed.launch.xml": `<launch>
  <group unless="true"><include file="$(var nowhere)/x.launch.xml"/></group>
  <node pkg="demo" exec="a"/>
</launch>`,
	})
	top := filepath.Join(dir, "top.launch.xml")
	for _, arg := range []string{"rviz_config", "inner_arg"} {
		procs, err := Load(top, testOptions(t, map[string]string{arg: "mine"}))
		require.NoError(t, err, arg)
		require.Len(t, procs, 1)
	}
	_, err := Load(top, testOptions(t, map[string]string{"rviz_confg": "mine"}))
	require.ErrorIs(t, err, ErrArgument)
	require.ErrorContains(t, err, `declare no argument "rviz_confg" (they declare inner_arg, rviz, rviz_config)`)

	procs, err := Load(filepath.Join(dir, "unnamed.launch.xml"), testOptions(t, map[string]string{"anything": "1"}))
	require.NoError(t, err)
	require.Len(t, procs, 1)
}
