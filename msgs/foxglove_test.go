package msgs_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/msgs/internal/alltypes"
	"github.com/navnode/navnode/msgs/internal/msgtest"
)

// foxgloveDir holds the independent implementation: the npm packages
// @foxglove/rosmsg and @foxglove/rosmsg2-serialization, pinned by its
// package-lock.json and installed by "make deps".
var foxgloveDir = filepath.Join("..", "test", "interop", "foxglove")

type foxCase struct {
	Set   string          `json:"set"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	Go    string          `json:"go"`
}

type foxResult struct {
	Fox     string          `json:"fox"`
	Decoded json.RawMessage `json:"decoded"`
	Error   string          `json:"error"`
}

// TestFoxgloveBytes checks every generated type against
// @foxglove/rosmsg2-serialization, which parses the same .msg files itself:
// its encoding of each value must equal ours byte for byte, and its decoding
// of our bytes must give back the value. Each type is checked with its zero
// value and with every msgtest.Variant (nested messages, strings, fixed
// arrays, empty and long sequences).
func TestFoxgloveBytes(t *testing.T) {
	node, err := exec.LookPath("node")
	require.NoError(t, err, "Node.js is needed for the byte comparison; run make deps")
	_, err = os.Stat(filepath.Join(foxgloveDir, "node_modules", "@foxglove", "rosmsg2-serialization"))
	require.NoError(t, err, "npm packages missing; run make deps")

	var cases []foxCase
	var values []msgs.Message
	for _, e := range alltypes.Entries {
		for i := -1; i < len(msgtest.Variants); i++ {
			m := e.New()
			if i >= 0 {
				msgtest.Fill(m, msgtest.Variants[i])
			}
			b, err := m.AppendCDR(nil)
			require.NoError(t, err)
			cases = append(cases, foxCase{Set: e.Set, Type: m.MsgType().Name, Value: msgtest.ToJSON(m), Go: hex.EncodeToString(b)})
			values = append(values, m)
		}
	}
	results := runFoxglove(t, node, cases)
	require.Len(t, results, len(cases))

	types := map[string]bool{}
	for i, r := range results {
		c, want := cases[i], values[i]
		require.Empty(t, r.Error, "foxglove failed on %s", c.Type)
		require.Equal(t, c.Go, r.Fox, "%s (%s): foxglove bytes differ from ours for value %s", c.Type, c.Set, c.Value)
		got := newLike(want)
		require.NoError(t, msgtest.FromJSON(r.Decoded, got), "%s: foxglove decoding: %s", c.Type, r.Decoded)
		require.Equal(t, want, got, "%s: foxglove decoded our bytes to a different value", c.Type)
		types[c.Set+" "+c.Type] = true
	}
	require.Len(t, types, len(alltypes.Entries), "every generated type is compared")
	t.Logf("%d values of %d types match @foxglove/rosmsg2-serialization byte for byte", len(cases), len(types))
}

func runFoxglove(t *testing.T, node string, cases []foxCase) []foxResult {
	t.Helper()
	interfaces := shareddata.Path(t, "ros2-interfaces")
	testDefs, err := filepath.Abs(filepath.Join("internal", "testmsgs", "defs"))
	require.NoError(t, err)
	jazzy, humble := filepath.Join(interfaces, "jazzy"), filepath.Join(interfaces, "humble")
	cmd := exec.Command(node, "cdr.mjs", "jazzy="+jazzy, "humble="+humble, "test="+testDefs+","+jazzy)
	cmd.Dir = foxgloveDir
	in, err := json.Marshal(cases)
	require.NoError(t, err)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node cdr.mjs: %s", stderr.String())
	var results []foxResult
	require.NoError(t, json.Unmarshal(out, &results))
	return results
}
