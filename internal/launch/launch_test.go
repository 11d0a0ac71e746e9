package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// testOptions resolves package demo to /opt/demo and its executables to
// /opt/demo/bin; every other package is not found. Parameters files go
// to a directory of t's.
func testOptions(t *testing.T, args map[string]string) Options {
	return Options{
		Args:    args,
		TempDir: t.TempDir(),
		Share: func(pkg string) (string, error) {
			if pkg == "demo" {
				return "/opt/demo", nil
			}
			return Packages{LookupEnv: noEnv}.PackageShare(pkg)
		},
		Exec: func(pkg, exe string) (string, error) {
			if pkg == "demo" {
				return "/opt/demo/bin/" + exe, nil
			}
			return Packages{LookupEnv: noEnv}.Executable(pkg, exe)
		},
		LookupEnv: func(name string) (string, bool) {
			if name == "NAVLAUNCH_TEST_SET" {
				return "from-env", true
			}
			return "", false
		},
	}
}

func noEnv(string) (string, bool) { return "", false }

// paramsFile returns the one parameters file Load wrote for p.
func paramsFile(t *testing.T, p Process) string {
	t.Helper()
	require.Len(t, p.TempFiles, 1)
	return p.TempFiles[0]
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// writeFiles writes name → text into a temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

// loadText loads one launch file with the test options.
func loadText(t *testing.T, text string, args map[string]string) ([]Process, error) {
	t.Helper()
	dir := writeFiles(t, map[string]string{"x.launch.xml": text})
	return Load(filepath.Join(dir, "x.launch.xml"), testOptions(t, args))
}

func TestNodeCommandLine(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="rate" default="5"/>
  <arg name="words" default="two words"/>
  <node pkg="demo" exec="talker" name="talk" namespace="robots" args="-v $(var words) --x=$(var rate)"
        ros_args="--log-level debug" output="screen">
    <param name="rate" value="$(var rate)"/>
    <param from="/etc/a.yaml"/>
    <param name="label" value=""/>
    <param name="ids" value="[1, 2]"/>
    <param name="note" value="'a: b'"/>
    <param name="rate" value="$(var rate).5"/>
    <remap from="chatter" to="/chat"/>
    <env name="FOO" value="bar $(var rate)"/>
  </node>
</launch>`, map[string]string{"rate": "7"})
	require.NoError(t, err)
	require.Len(t, procs, 1)
	p := procs[0]
	require.Equal(t, "talk", p.Name)
	require.Equal(t, "/opt/demo/bin/talker", p.Path)
	require.Len(t, p.TempFiles, 2)
	require.Equal(t, []string{"-v", "two words", "--x=7", "--ros-args", "--log-level", "debug",
		"-r", "__node:=talk", "-r", "__ns:=/robots", "-r", "chatter:=/chat",
		"--params-file", p.TempFiles[0], "--params-file", "/etc/a.yaml", "--params-file", p.TempFiles[1]}, p.Args)
	require.Equal(t, "/robots/talk:\n    ros__parameters:\n        rate: 7\n", readFile(t, p.TempFiles[0]),
		"before the file, as written, under the node's full name")
	require.Equal(t, `/robots/talk:
    ros__parameters:
        label: ""
        ids: [1, 2]
        note: 'a: b'
        rate: 7.5
`, readFile(t, p.TempFiles[1]), "after the file, the run of parameters that follows it")
	require.Equal(t, []string{"FOO=bar 7"}, p.Env)
	require.Equal(t, "screen", p.Output)
	require.True(t, strings.HasSuffix(p.Pos, "x.launch.xml:4"), p.Pos)
}

func TestBareNodeHasNoRosArgs(t *testing.T) {
	procs, err := loadText(t, `<launch><node pkg="demo" exec="a"/><node pkg="demo" exec="a"/></launch>`, nil)
	require.NoError(t, err)
	require.Len(t, procs, 2)
	require.Empty(t, procs[0].Args)
	require.Equal(t, []string{"a", "a-2"}, []string{procs[0].Name, procs[1].Name}, "names are made unique")
}

func TestGroupsScopeAndNamespaces(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <let name="x" value="outer"/>
  <group>
    <push-ros-namespace namespace="fleet"/>
    <let name="x" value="inner"/>
    <node pkg="demo" exec="a" name="a" args="$(var x)"/>
    <group>
      <push_ros_namespace namespace="uav1"/>
      <node pkg="demo" exec="b" name="b" namespace="sensors"/>
      <node pkg="demo" exec="c" name="c" namespace="/abs"/>
    </group>
  </group>
  <node pkg="demo" exec="d" name="d" args="$(var x)"/>
  <group scoped="false"><let name="x" value="leaked"/></group>
  <node pkg="demo" exec="e" name="e" args="$(var x)"/>
</launch>`, nil)
	require.NoError(t, err)
	got := map[string][]string{}
	for _, p := range procs {
		got[p.Name] = p.Args
	}
	require.Equal(t, []string{"inner", "--ros-args", "-r", "__node:=a", "-r", "__ns:=/fleet"}, got["a"])
	require.Equal(t, []string{"--ros-args", "-r", "__node:=b", "-r", "__ns:=/fleet/uav1/sensors"}, got["b"])
	require.Equal(t, []string{"--ros-args", "-r", "__node:=c", "-r", "__ns:=/abs"}, got["c"])
	require.Equal(t, []string{"outer", "--ros-args", "-r", "__node:=d"}, got["d"], "the group's let and namespace do not leak")
	require.Equal(t, []string{"leaked", "--ros-args", "-r", "__node:=e"}, got["e"], `scoped="false" leaks`)
}

// TestIncludeIsUnscoped pins ros2 launch's include semantics: the
// includer's configurations reach the included file and win over its
// defaults; include args and what the file sets stay set afterwards.
func TestIncludeIsUnscoped(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"top.launch.xml": `<launch>
  <arg name="shared" default="from-top"/>
  <include file="$(dirname)/sub.launch.xml">
    <arg name="given" value="$(var shared)-given"/>
  </include>
  <node pkg="demo" exec="top" args="$(var given) $(var set_by_sub)"/>
</launch>`,
		"sub.launch.xml": `<launch>
  <arg name="shared" default="from-sub"/>
  <arg name="given"/>
  <let name="set_by_sub" value="yes"/>
  <node pkg="demo" exec="sub" args="$(var shared) $(var given) $(filename)"/>
</launch>`,
	})
	procs, err := Load(filepath.Join(dir, "top.launch.xml"), testOptions(t, map[string]string{"shared": "cli"}))
	require.NoError(t, err)
	require.Len(t, procs, 2)
	require.Equal(t, []string{"cli", "cli-given", filepath.Join(dir, "sub.launch.xml")}, procs[0].Args)
	require.Equal(t, []string{"cli-given", "yes"}, procs[1].Args)
}

func TestConditions(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="on" default="True"/>
  <node pkg="demo" exec="a" if="$(var on)"/>
  <node pkg="demo" exec="b" unless="$(var on)"/>
  <node pkg="demo" exec="c" if="1"/>
  <group if="false"><node pkg="demo" exec="d"/></group>
  <let name="on" value="false" unless="true"/>
  <node pkg="demo" exec="e" if="$(var on)"/>
</launch>`, nil)
	require.NoError(t, err)
	var names []string
	for _, p := range procs {
		names = append(names, p.Name)
	}
	require.Equal(t, []string{"a", "c", "e"}, names)
	// launch refuses if and unless on one element (Action.parse).
	_, err = loadText(t, `<launch><node pkg="demo" exec="a" if="true" unless="false"/></launch>`, nil)
	require.ErrorContains(t, err, "if and unless")
}

func TestSubstitutions(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="pkg" default="demo"/>
  <node pkg="$(var pkg)" exec="a"
        args="$(env NAVLAUNCH_TEST_SET) $(env NAVLAUNCH_TEST_UNSET 'a b') [$(env NAVLAUNCH_TEST_UNSET '')] $(find-pkg-share $(var pkg))/x $(env NAVLAUNCH_TEST_UNSET $(var pkg)) $(var nope fallback)"/>
</launch>`, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"from-env", "a b", "[]", "/opt/demo/x", "demo", "fallback"}, procs[0].Args)
}

// LaunchConfiguration evaluates its default only when the configuration
// is not set; EnvironmentVariable evaluates its default always. Real
// launch (Humble and Jazzy) printed ARGV: [[1]] for the first node, and
// for $(var y $(var nope)) and $(env HOME $(var nope)) failed with
// "launch configuration 'nope' does not exist".
func TestVarDefaultIsLazy(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="x" default="1"/>
  <node pkg="demo" exec="a" args="[$(var x $(var nope))]"/>
</launch>`, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"[1]"}, procs[0].Args)
	for _, args := range []string{"$(var y $(var nope))", "$(env NAVLAUNCH_TEST_SET $(var nope))"} {
		_, err = loadText(t, `<launch><node pkg="demo" exec="a" args="`+args+`"/></launch>`, nil)
		require.ErrorIs(t, err, ErrSubstitution, args)
		require.ErrorContains(t, err, `undefined launch configuration "nope"`, args)
	}
}

func TestParseArgs(t *testing.T) {
	got, err := ParseArgs([]string{"a:=1", "b:=x:=y", "empty:="})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a": "1", "b": "x:=y", "empty": ""}, got)
	for _, bad := range []string{"a=1", ":=1", "a b:=1"} {
		_, err := ParseArgs([]string{bad})
		require.ErrorIs(t, err, ErrArgument, bad)
	}
}

// TestSplitWords: words as shlex.split finds them in the text between
// substitutions (launch's ExecuteProcess._parse_cmdline).
func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		" -a $(env X 'd e')\n\tx$(var y)z  -b ": {"-a", "$(env X 'd e')", "x$(var y)z", "-b"},
		"   ":                                   {""},
		" $(var y)":                             {"", "$(var y)"},
		"":                                      {""},
		`--title 'two words' --x`:               {"--title", "two words", "--x"},
		`"a \\"b\\" c" d\\ e 'it''s' ""`:        {`a "b" c`, "d e", "its", ""},
	} {
		got, err := rawWords(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := splitWords(`--title 'two words`)
	require.ErrorContains(t, err, "no closing quotation")
}

// rawWords is splitWords with each word written back as text, its
// substitutions as $(name arg ...).
func rawWords(s string) ([]string, error) {
	words, err := splitWords(s)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = rawPieces(w)
	}
	return out, nil
}

func rawPieces(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		if p.name == "" {
			b.WriteString(p.text)
			continue
		}
		b.WriteString("$(" + p.name)
		for _, a := range p.args {
			if v := rawPieces(a); strings.ContainsAny(v, " )") {
				b.WriteString(" '" + v + "'")
			} else {
				b.WriteString(" " + v)
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

func TestJoinNamespace(t *testing.T) {
	for _, c := range [][3]string{
		{"", "", ""}, {"", "a", "/a"}, {"", "/a/", "/a"}, {"/p", "", "/p"}, {"/p", "a/b", "/p/a/b"},
		{"/p", "/q", "/q"}, {"/", "a", "/a"}, {"/p", "/", "/"},
	} {
		require.Equal(t, c[2], joinNamespace(c[0], c[1]), "%q + %q", c[0], c[1])
	}
}

// TestNodeParamsKey: launch_ros keys a node's name/value parameters by its
// full name only when both its name and its namespace are given, by the
// namespace attribute (even "") or a push (even of ""); else /**. The
// real ros2 launch (Humble) gave these keys for this file (review of
// 2026-11-23); navlaunch used to key every named node by its full name.
func TestNodeParamsKey(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <group><push-ros-namespace namespace=""/><node pkg="demo" exec="a" name="n"><param name="x" value="1"/></node></group>
  <node pkg="demo" exec="a" name="m" namespace=""><param name="x" value="1"/></node>
  <node pkg="demo" exec="a" name="k"><param name="x" value="1"/></node>
  <node pkg="demo" exec="a"><param name="x" value="1"/></node>
</launch>`, nil)
	require.NoError(t, err)
	require.Len(t, procs, 4)
	for i, key := range []string{"/n", "/m", "/**", "/**"} {
		require.Equal(t, key+":\n    ros__parameters:\n        x: 1\n", readFile(t, paramsFile(t, procs[i])), procs[i].Name)
	}
}

// TestIncludeMissingRequiredArg: launch's include refuses a file whose
// unconditional <arg> without a default the <include> does not give, even
// when the includer has a launch configuration of that name (review of
// 2026-11-23, run against the real launch of Humble and Jazzy).
func TestIncludeMissingRequiredArg(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"sub.launch.xml": `<launch><arg name="robot"/><arg name="opt" if="false"/><node pkg="demo" exec="$(var robot)"/></launch>`,
		"top.launch.xml": `<launch><let name="robot" value="a"/><include file="$(dirname)/sub.launch.xml"/></launch>`,
		"ok.launch.xml":  `<launch><include file="$(dirname)/sub.launch.xml"><arg name="robot" value="a"/></include></launch>`,
	})
	_, err := Load(filepath.Join(dir, "top.launch.xml"), testOptions(t, nil))
	require.ErrorIs(t, err, ErrArgument)
	require.ErrorContains(t, err, `needs argument "robot"`)
	procs, err := Load(filepath.Join(dir, "ok.launch.xml"), testOptions(t, nil))
	require.NoError(t, err)
	require.Len(t, procs, 1)
}
