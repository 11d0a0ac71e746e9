package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// generate runs the generator on one .msg file of a package edge_msgs.
func generate(t *testing.T, name, text string) error {
	t.Helper()
	defs, out := t.TempDir(), t.TempDir()
	dir := filepath.Join(defs, "edge_msgs", "msg")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".msg"), []byte(text), 0o644))
	return run([]string{"-o", out, "-set", "e=" + defs, "e/edge_msgs"}, io.Discard)
}

// TestRefusesWhatWouldNotCompile: a review found .msg files the
// generator accepted and turned into Go that did not compile. It now
// names the cause.
func TestRefusesWhatWouldNotCompile(t *testing.T) {
	require.NoError(t, generate(t, "Fine", "float32 MAX=3.4e38\nint32 point_1\nint32 point_2\n"))
	for _, c := range []struct{ name, text, want string }{
		{"Constant", "float32 BIG=1e39\n", "1e39"},
		{"Default", "float32 f 1e39\n", "1e39"},
		{"Names", "int32 point_1\nint32 point1\n", "point_1 and point1 would both be Point1"},
	} {
		err := generate(t, c.name, c.text)
		require.ErrorContains(t, err, c.want, c.name)
	}
}
