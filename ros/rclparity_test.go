package ros

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Found in review against rcl (ros2/rcl 9.2.0 and humble): each test
// failed before its fix.

// TestParamsFileRootKey: the root key "/" above a node name makes
// "/my_node" (rcl_yaml_param_parser's add_name_to_ns; its test root_ns
// expects it), so the parameters reach the node; they were filed under
// "//my_node" and lost.
func TestParamsFileRootKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.yaml")
	require.NoError(t, os.WriteFile(file, []byte("/:\n  my_node:\n    ros__parameters:\n      param_name: value\n"), 0o644))
	args, _, err := ParseArgs([]string{"--ros-args", "--params-file", file})
	require.NoError(t, err)
	n := &Node{name: "my_node", ns: "/", args: args, params: newParams(args.Params, "/my_node")}
	v, err := Declare(n, "param_name", "default", "")
	require.NoError(t, err)
	require.Equal(t, "value", v)
}

// TestParamsFileBadNodeKeys: a node key that is no name (rcl's
// _validate_name; its tests empty_name_in_ns, wildcards_node_slash and
// wildcards_partial_*) is an error, not parameters silently lost.
func TestParamsFileBadNodeKeys(t *testing.T) {
	for _, key := range []string{"nav-node", "lidar_ns//lidar_w", "/foo**", "/**/node*", "/**foo", "/1robot/navnode", "/f*oo"} {
		_, err := ParseParamsFile(key+":\n  ros__parameters:\n    a: 1\n", "p.yaml")
		require.ErrorIs(t, err, ErrArgs, key)
		require.ErrorContains(t, err, "p.yaml line 2", key) // ros__parameters' line
	}
	_, err := ParseParamsFile("/:\n  ros__parameters:\n    a: 1\n", "p.yaml")
	require.ErrorIs(t, err, ErrArgs, "the root names no node")
	for _, key := range []string{"/**", "/*/navnode", "/**/navnode", "robot_1/navnode", `"*"`, "/robot/*"} {
		_, err := ParseParamsFile(key+":\n  ros__parameters:\n    a: 1\n", "p.yaml")
		require.NoError(t, err, key)
	}
}

// TestParamRuleDoubleUnderscore: rcl's lexer reads max__speed as the
// tokens max_ and _speed, and -p takes consecutive tokens.
func TestParamRuleDoubleUnderscore(t *testing.T) {
	args, _, err := ParseArgs([]string{"--ros-args", "-p", "max__speed:=1"})
	require.NoError(t, err)
	require.Equal(t, "max__speed", args.Params[0].Name)
	_, _, err = ParseArgs([]string{"--ros-args", "-p", "max-speed:=1"})
	require.ErrorIs(t, err, ErrArgs)
}

// TestEnclaveValidated: rcl_init refuses an enclave that is not an
// absolute name (rcl_validate_enclave_name); navnode wrote any string
// into its USER_DATA, where "/a;b=c" added a key of its own.
func TestEnclaveValidated(t *testing.T) {
	for _, e := range []string{"robot1", "/robot1/", "/a;b=c", ""} {
		_, _, err := ParseArgs([]string{"--ros-args", "-e", e})
		require.ErrorIs(t, err, ErrArgs, e)
	}
	args, _, err := ParseArgs([]string{"--ros-args", "--enclave", "/robots/r1"})
	require.NoError(t, err)
	require.Equal(t, "/robots/r1", args.Enclave)
}

// TestDomainIDLikeRcl: rcl_get_default_domain_id reads strtoul(s, &end,
// 0) and refuses only a value with no number in front; "5 ", " 5" and
// "5\r" (a CRLF env file) are domain 5.
func TestDomainIDLikeRcl(t *testing.T) {
	for s, want := range map[string]uint32{"5 ": 5, " 5": 5, "5\r": 5, "7x": 7, "0x10": 16, "010": 8, "+3": 3, "232": 232, "0": 0, "-0": 0, "": 0, "7": 7, " 7": 7, "1_0": 1} {
		t.Setenv("ROS_DOMAIN_ID", s)
		id, err := DomainIDFromEnv()
		require.NoError(t, err, "%q", s)
		require.Equal(t, want, id, "%q", s)
	}
	for _, s := range []string{"x5", " ", "233", "-1", "99999999999999999999999", "0xg", "0x", "0b1", "seven"} {
		t.Setenv("ROS_DOMAIN_ID", s)
		_, err := DomainIDFromEnv()
		require.ErrorIs(t, err, ErrDomainID, "%q", s)
	}
}

// TestParamsFileDocuments: rcl_yaml_param_parser's parse_file_events
// passes over document starts and ends and reads to the end of the
// stream, so every document of a file counts, a later value overriding an
// earlier one; navnode read the first document only. An empty document
// is an error in both (rcl: "No key").
func TestParamsFileDocuments(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.yaml")
	text := "navnode:\n  ros__parameters:\n    a: 1\n    b: first\n---\n/**:\n  ros__parameters:\n    b: second\n    c: 2.5\n...\n"
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	args, _, err := ParseArgs([]string{"--ros-args", "--params-file", file})
	require.NoError(t, err)
	n := &Node{name: "navnode", ns: "/", args: args, params: newParams(args.Params, "/navnode")}
	a, err := Declare(n, "a", int64(0), "")
	require.NoError(t, err)
	b, err := Declare(n, "b", "", "")
	require.NoError(t, err)
	c, err := Declare(n, "c", 0.0, "")
	require.NoError(t, err)
	require.Equal(t, []any{int64(1), "second", 2.5}, []any{a, b, c})

	_, err = ParseParamsFile("navnode:\n  ros__parameters:\n    a: 1\n---\n", "p.yaml")
	require.ErrorIs(t, err, ErrArgs)
}

// TestParamFloatUnderflow: rcl reads a float with strtod and takes the
// text as a string when strtod sets ERANGE, which glibc does for
// underflow as well as overflow (each case run through glibc 2.36's
// strtod on this machine). navnode read 1e-400 as 0.
func TestParamFloatUnderflow(t *testing.T) {
	for text, want := range map[string]any{
		"1e-400": "1e-400", "-1e-400": "-1e-400", "1e-310": "1e-310", "1e-320": "1e-320",
		"5e-324": "5e-324", "2.5e-324": "2.5e-324", "0x1p-1080": "0x1p-1080", "0x1.8p-1074": "0x1.8p-1074",
		"2.2250738585072011e-308": "2.2250738585072011e-308",
		"2.2250738585072012e-308": "2.2250738585072012e-308", // rounds up to the least normal, still ERANGE
		"2.2250738585072013e-308": 0x1p-1022,
		"2.2250738585072014e-308": 0x1p-1022,
		"0x1p-1074":               0x1p-1074,
		"0e-400":                  0.0, "0.0e999": 0.0, "0x0p-99999": 0.0, "1e-300": 1e-300,
	} {
		o, err := parseParamRule("x:=" + text)
		require.NoError(t, err)
		require.Equal(t, want, o.Value, text)
	}
}
