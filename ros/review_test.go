package ros

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rcl keeps node keys as written ("navnode" from -p navnode:..., "/navnode"
// from a file) as distinct entries of one rcl_params_t, in order of first
// appearance; rclcpp prefixes "/" only when matching and applies the
// entries in that order. So a -p navnode:mode:=cli given after a file that
// names /navnode and then /** is the last entry and wins.
func TestNodeKeysAsWritten(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`
/navnode:
  ros__parameters:
    mode: file_node
/**:
  ros__parameters:
    mode: file_wildcard
`), 0o644))
	args, _, err := ParseArgs([]string{"--ros-args", "--params-file", file, "-p", "navnode:mode:=cli"})
	require.NoError(t, err)
	n := &Node{name: "navnode", ns: "/", args: args, params: newParams(args.Params, "/navnode")}
	mode, err := Declare(n, "mode", "default", "")
	require.NoError(t, err)
	require.Equal(t, "cli", mode)
}

// rcl_yaml_param_parser types a plain scalar with strtod when strtoll
// fails: C hex floats are doubles; ".Nan" is not one of its YAML NaN
// spellings and strtod rejects it, so it is a string.
func TestParamFloatsAsStrtod(t *testing.T) {
	for text, want := range map[string]any{
		"0x1.8p1": 3.0, "0x1.8": 1.5, "-0x.8p1": -1.0, "1.": 1.0, ".5e1": 5.0,
		".Nan": ".Nan", "+.nan": "+.nan", ".inF": ".inF", "1_0.5": "1_0.5", "1e400": "1e400",
		"+.INF": math.Inf(1), "-.Inf": math.Inf(-1), "Infinity": math.Inf(1), "-inf": math.Inf(-1),
	} {
		o, err := parseParamRule("x:=" + text)
		require.NoError(t, err)
		assert.Equal(t, want, o.Value, text)
	}
	for _, text := range []string{".nan", ".NaN", ".NAN", "nan", "-NaN"} {
		o, err := parseParamRule("x:=" + text)
		require.NoError(t, err)
		f, ok := o.Value.(float64)
		assert.True(t, ok && math.IsNaN(f), "%s gives %#v", text, o.Value)
	}
}

// TestParamRuleWithSlashInName: rcl's -p grammar takes runs of tokens and
// slashes between the dots, so the QoS override parameters are valid -p
// names, as they are in a parameters file (found by a review, 2026-11-22).
func TestParamRuleWithSlashInName(t *testing.T) {
	for _, name := range []string{"qos_overrides./scan.subscription.reliability", "a./b/c/.d", "/x", "x/"} {
		args, _, err := ParseArgs([]string{"--ros-args", "-p", name + ":=best_effort"})
		require.NoError(t, err, name)
		require.Equal(t, name, args.Params[0].Name)
	}
	for _, name := range []string{"a..b", ".a", "a.", "a.b-c/d", "a/*"} {
		_, _, err := ParseArgs([]string{"--ros-args", "-p", name + ":=1"})
		require.ErrorIs(t, err, ErrArgs, name)
	}
}
