package ros

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExpandTopicName(t *testing.T) {
	for _, c := range []struct{ in, node, ns, want string }{
		{"foo", "n", "/a", "/a/foo"},
		{"foo/bar", "n", "/", "/foo/bar"},
		{"~/foo", "n", "/a", "/a/n/foo"},
		{"~", "n", "/", "/n"},
		{"/foo", "n", "/a", "/foo"},
		{"{node}/x", "n", "/a", "/a/n/x"},
		{"{ns}/x", "n", "/a/b", "/a/b/x"},
		{"{ns}/x", "n", "/", "/x"},
	} {
		got, err := ExpandTopicName(c.in, c.node, c.ns)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got, c.in)
	}
}

func TestInvalidNames(t *testing.T) {
	for _, name := range []string{"", "9lives", "foo/", "a//b", "/a/9b", "foo bar", "a~b", "~foo", "{x}", "a{b", "a}"} {
		_, err := ExpandTopicName(name, "n", "/")
		require.ErrorIs(t, err, ErrInvalidName, name)
	}
	for _, ns := range []string{"a", "/a/", "//", "/a//b", "/1a", "/a-b"} {
		require.ErrorIs(t, ValidateNamespace(ns), ErrInvalidName, ns)
	}
	require.NoError(t, ValidateNamespace("/"))
	require.NoError(t, ValidateNamespace("/robot_1/arm"))
	for _, n := range []string{"", "1x", "a/b", "a-b"} {
		require.ErrorIs(t, ValidateNodeName(n), ErrInvalidName, n)
	}
	long := "/" + string(make([]byte, 0))
	for len(long) < 300 {
		long += "a"
	}
	require.ErrorContains(t, ValidateTopicName(long), "longer than 247")
	_, err := ExpandTopicName("{robot}/x", "n", "/")
	require.ErrorContains(t, err, "unknown substitution")
}

func TestRemaps(t *testing.T) {
	args, rest, err := ParseArgs([]string{"--foo", "--ros-args", "-r", "scan:=/front/scan",
		"-r", "navnode:~/markers:=viz", "-r", "other:map:=/x", "-r", "__ns:=/robot1", "-r", "__node:=nav", "--", "tail"})
	require.NoError(t, err)
	require.Equal(t, []string{"--foo", "tail"}, rest)
	name, ns := remapNode(args.Remaps, "navnode", "/")
	require.Equal(t, "nav", name)
	require.Equal(t, "/robot1", ns)

	got, err := remapped(args.Remaps, "/robot1/scan", "nav", "/robot1")
	require.NoError(t, err)
	require.Equal(t, "/front/scan", got)
	got, err = remapped(args.Remaps, "/robot1/map", "nav", "/robot1")
	require.NoError(t, err)
	require.Equal(t, "/robot1/map", got, "rule for another node")
	// node-specific rules match the node's name as given, before __node
	got, err = remapped(args.Remaps, "/navnode/markers", "navnode", "/")
	require.NoError(t, err)
	require.Equal(t, "/viz", got)

	// rcl's order: [node:][rostopic://|rosservice://]match:=replacement.
	args, _, err = ParseArgs([]string{"--ros-args", "-r", "talker:rostopic://chatter:=foo", "-r", "rosservice://srv:=x"})
	require.NoError(t, err)
	require.Equal(t, []Remap{{Node: "talker", From: "chatter", To: "foo"}, {From: "srv", To: "x", Service: true}}, args.Remaps)
}

func TestBadArgs(t *testing.T) {
	for _, argv := range [][]string{
		{"--ros-args", "-r"},
		{"--ros-args", "-r", "noassign"},
		{"--ros-args", "-r", "a/*:=b"},
		{"--ros-args", "-r", "__ns:=relative"},
		{"--ros-args", "-r", "__node:=bad/name"},
		{"--ros-args", "--log-level", "WARNING"},
		{"--ros-args", "--log-level", ":=DEBUG"},
		{"--ros-args", "--frobnicate", "x"},
		{"--ros-args", "-p", "x"},
		{"--ros-args", "-r", "rostopic://talker:chatter:=foo"}, // node prefix after the scheme
		{"--ros-args", "-r", "~x:=y"},                          // ~ only as ~/
		{"--ros-args", "-r", "foo:=~"},
		{"--ros-args", "-r", "foo:=/"},
		{"--ros-args", "-r", "foo:=a//b"},
		{"--ros-args", "-r", "foo:=1a"},
		{"--ros-args", "-p", ":speed:=1"}, // an empty node prefix: a key no node has
		{"--ros-args", "-p", "/:speed:=1"},
		{"--ros-args", "-p", "a//b:speed:=1"},
		{"--ros-args", "-p", "1a:=1"},
		{"--ros-args", "-p", "a b:=1"},
		{"--ros-args", "-p", "robot..radius:=1"},
		{"--ros-args", "--params-file", "/nonexistent.yaml"},
	} {
		_, _, err := ParseArgs(argv)
		require.ErrorIs(t, err, ErrArgs, "%v", argv)
	}
	a, _, err := ParseArgs([]string{"--ros-args", "--log-level", "debug", "--log-level", "x.y:=ERROR",
		"--disable-stdout-logs", "--log-config-file", "f", "-e", "/enc"})
	require.NoError(t, err)
	require.Equal(t, "debug", a.LogLevel)
	require.Equal(t, map[string]string{"x.y": "error"}, a.LoggerLevels)
	require.Equal(t, "/enc", a.Enclave)
}
