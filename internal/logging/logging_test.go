package logging

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

func TestConsoleIsReadable(t *testing.T) {
	var buf bytes.Buffer
	log, err := New(Options{Output: &buf})
	require.NoError(t, err)
	log.Debug("hidden")
	log.Info("map received", zap.Int("width", 4000))
	require.NoError(t, log.Sync())
	out := buf.String()
	require.NotContains(t, out, "hidden", "info is the default level")
	require.Contains(t, out, "INFO")
	require.Contains(t, out, "map received")
	require.Contains(t, out, `"width": 4000`)
}

func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	log, err := New(Options{Level: "DEBUG", Format: "json", Output: &buf})
	require.NoError(t, err)
	log.Debug("repair", zap.Int("expansions", 12))
	require.NoError(t, log.Sync())
	var line map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &line))
	require.Equal(t, "debug", line["level"])
	require.Equal(t, "repair", line["msg"])
	require.Equal(t, float64(12), line["expansions"])
}

func TestBadOptions(t *testing.T) {
	_, err := New(Options{Level: "loud"})
	require.ErrorContains(t, err, `unknown level "loud"`)
	_, err = New(Options{Format: "xml"})
	require.ErrorContains(t, err, `unknown format "xml"`)
}
