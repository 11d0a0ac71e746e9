package ros

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const paramsYAML = `
/**:
  ros__parameters:
    resolution: 0.1
    use_sim_time: true
navnode:
  ros__parameters:
    robot:
      radius: 1           # an integer for a double parameter
      height: 0.5
    mode: aerial
    epsilon: [3.0, 2.0, 1.0]
    frames: ["map", 'odom']
    hex: 0x10
    octal: 010
    quoted: "42"
    weird: .inf
/other_ns/navnode:
  ros__parameters:
    mode: ground
/*/navnode:
  ros__parameters:
    budget: 5
`

func testNode(t *testing.T, fq string, argv ...string) *Node {
	dir := t.TempDir()
	file := filepath.Join(dir, "params.yaml")
	require.NoError(t, os.WriteFile(file, []byte(paramsYAML), 0o644))
	args, _, err := ParseArgs(append([]string{"--ros-args", "--params-file", file}, argv...))
	require.NoError(t, err)
	ns, name := filepath.Dir(fq), filepath.Base(fq)
	return &Node{name: name, ns: ns, args: args, params: newParams(args.Params, fq)}
}

func TestParamsFromFileAndCommandLine(t *testing.T) {
	n := testNode(t, "/navnode", "-p", "mode:=ground", "-p", "navnode:budget:=7", "-p", "navnode:frames:=[]", "-p", "epsilon:=[]",
		"-p", "navnode:footprint:=[]", "-p", "/**/navnode:hex:=17")
	res, err := Declare(n, "resolution", 0.05, "voxel edge (m)", Range(0.02, 2))
	require.NoError(t, err)
	require.Equal(t, 0.1, res)
	radius, err := Declare(n, "robot.radius", 0.3, "robot radius (m)")
	require.NoError(t, err)
	require.Equal(t, 1.0, radius)
	mode, err := Declare(n, "mode", "ground", "aerial or ground")
	require.NoError(t, err)
	// As rcl merges them: -p mode:=ground goes under /**, which the file
	// named before navnode, whose own mode is applied after it.
	require.Equal(t, "aerial", mode, "the node's own key, named after /**, wins")
	eps, err := Declare(n, "epsilon", []float64{1}, "AD* schedule")
	require.NoError(t, err)
	require.Equal(t, []float64{3, 2, 1}, eps, "-p epsilon:=[] is under /**, before navnode")
	frames, err := Declare(n, "frames", []string{"x"}, "frames")
	require.NoError(t, err)
	require.Equal(t, []string{}, frames, "-p navnode:frames:=[] comes after the file's navnode entry")
	footprint, err := Declare(n, "footprint", []float64{0.1}, "an empty sequence for a double array")
	require.NoError(t, err)
	require.Empty(t, footprint)
	hex, _ := Declare(n, "hex", int64(0), "")
	oct, _ := Declare(n, "octal", int64(0), "")
	require.Equal(t, []int64{17, 8}, []int64{hex, oct}, "C integer syntax, as rcl; a -p with a wildcard path names a later key than the file's navnode")
	q, err := Declare(n, "quoted", "", "")
	require.NoError(t, err)
	require.Equal(t, "42", q)
	w, _ := Declare(n, "weird", 0.0, "")
	require.True(t, math.IsInf(w, 1))
	b, _ := Declare(n, "budget", int64(0), "")
	require.Equal(t, int64(7), b, "-p with a node prefix")

	err = n.CheckParams()
	require.ErrorIs(t, err, ErrParam)
	require.ErrorContains(t, err, `"robot.height"`)
	require.ErrorContains(t, err, `"use_sim_time"`)
	require.NotContains(t, err.Error(), `"mode"`)
}

func TestParamErrors(t *testing.T) {
	n := testNode(t, "/navnode")
	_, err := Declare(n, "mode", 3.0, "")
	require.ErrorIs(t, err, ErrParam)
	require.ErrorContains(t, err, `parameter "mode"`)
	require.ErrorContains(t, err, "gives a string, want double")
	require.ErrorContains(t, err, "params.yaml line")
	_, err = Declare(n, "resolution", 0.2, "", Range(0.5, 2))
	require.ErrorContains(t, err, "outside [0.5, 2]")
	_, err = Declare(n, "epsilon", []float64{}, "", Range(1.5, 10))
	require.ErrorContains(t, err, "outside")
	_, err = Declare(n, "hex", 1.5, "")
	require.NoError(t, err, "an integer is accepted for a double")
	_, err = Declare(n, "hex", 1.5, "")
	require.ErrorContains(t, err, "declared twice")
	_, err = Declare(n, "quoted", int64(1), "")
	require.ErrorContains(t, err, "gives a string, want integer")
}

func TestNodeKeys(t *testing.T) {
	require.True(t, matchesNode("/**", "/a/b/c"))
	require.True(t, matchesNode("navnode", "/navnode"))
	require.True(t, matchesNode("/*/navnode", "/r1/navnode"))
	require.False(t, matchesNode("/*/navnode", "/navnode"))
	require.True(t, matchesNode("/**/navnode", "/navnode"))
	require.True(t, matchesNode("/**/navnode", "/a/b/navnode"))
	require.False(t, matchesNode("/other_ns/navnode", "/navnode"))
	n := testNode(t, "/other_ns/navnode")
	mode, _ := Declare(n, "mode", "x", "")
	require.Equal(t, "ground", mode)
	b, _ := Declare(n, "budget", int64(0), "")
	require.Equal(t, int64(5), b)
}

func TestParamValueTyping(t *testing.T) {
	for _, c := range []struct {
		text string
		want any
	}{
		{"true", true}, {"Off", false}, {"y", true}, {"12", int64(12)}, {"-0x1f", int64(-31)},
		{"1.5e3", 1500.0}, {"08", 8.0}, {"hello", "hello"}, {"'true'", "true"},
		{"[1, 2]", []int64{1, 2}}, {"[a, b]", []string{"a", "b"}}, {"[]", []string{}},
	} {
		o, err := parseParamRule("x:=" + c.text)
		require.NoError(t, err, c.text)
		require.Equal(t, c.want, o.Value, c.text)
	}
	_, err := parseParamRule("x:=[1, 2.0]")
	require.ErrorContains(t, err, "same type")
	// libyaml, which rcl reads -p values with, fails on text after a
	// quoted or flow value ("did not find expected <document start>");
	// go-yaml alone read "'a'x" as a and "[1, 2]x" as [1, 2].
	for _, text := range []string{"'a'x", "[1, 2]x", "'a'\n'b'"} {
		_, err = parseParamRule("x:=" + text)
		require.ErrorIs(t, err, ErrArgs, text)
	}
}

func TestBadParamsFile(t *testing.T) {
	_, err := ParseParamsFile("ros__parameters: {a: 1}", "f.yaml")
	require.ErrorContains(t, err, "outside a node key")
	_, err = ParseParamsFile("node:\n  ros__parameters: [1]", "f.yaml")
	require.ErrorContains(t, err, "must be a map")
	_, err = ParseParamsFile("node: {ros__parameters: {a: [[1]]}}", "f.yaml")
	require.ErrorContains(t, err, "nested sequences")
	_, err = ParseParamsFile(":\n - [", "f.yaml")
	require.ErrorIs(t, err, ErrArgs)
	_, err = ParseParamsFile("navnode:\n  ros__parameters:\n    map_topic:\n", "f.yaml")
	require.ErrorContains(t, err, "no value at line 3", "as rcl: an empty value is none, not \"\"")
	o, err := ParseParamsFile("navnode:\n  ros__parameters:\n    map_topic: ''\n", "f.yaml")
	require.NoError(t, err)
	require.Equal(t, "", o[0].Value, "a quoted empty string is one")
}
