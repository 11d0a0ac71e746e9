package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// TestRunMeshSVG draws the depot picture with the default settings and
// checks that it is well-formed XML of a sensible size, with both panels,
// the costmap and the regions, and that the box changed the mesh and the
// route.
func TestRunMeshSVG(t *testing.T) {
	depot := shareddata.Path(t, "data", "nav2-maps", "depot.yaml")
	out := filepath.Join(t.TempDir(), "sub", "mesh.svg")
	var stdout bytes.Buffer
	require.NoError(t, runMeshSVG([]string{"-map", depot, "-o", out}, &stdout))
	require.Contains(t, stdout.String(), "tiles rebuilt")
	require.NotContains(t, stdout.String(), "route none")

	text, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Less(t, len(text), 400<<10, "the picture should stay small")
	counts := map[string]int{}
	var chars strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(text))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			counts[tok.Name.Local]++
		case xml.CharData:
			chars.Write(tok)
		}
	}
	require.Equal(t, 1, counts["svg"])
	require.Greater(t, counts["rect"], 300, "costmap runs and regions")
	require.Equal(t, 3, counts["polyline"], "the route before, and after with the old one paler")
	words := chars.String()
	require.Contains(t, words, meshSVGBefore)
	require.Contains(t, words, meshSVGAfter)
	require.Contains(t, words, "depot.yaml")
}

func TestRunMeshSVGFlags(t *testing.T) {
	depot := shareddata.Path(t, "data", "nav2-maps", "depot.yaml")
	out := filepath.Join(t.TempDir(), "mesh.svg")
	for _, args := range [][]string{
		{"-tile", "1"},
		{"-tile", "300"},
		{"-size", "0"},
		{"-inflate", "-1"},
		{"-crop", "1,2,3"},
		{"-crop", "5,5,1,1"},
		{"-crop", "900,900,901,901"},
		{"-obstacle", "x,1"},
		{"-route", "1,1,NaN,1"},
		{"-route", "15.5,3,16.85,6.75"}, // the start is in a rack
		{"-route", "16.85,1.5,-50,-50"}, // the goal is off the map
		{"extra"},
		{"-nosuchflag"},
	} {
		require.Error(t, runMeshSVG(append(args, "-map", depot, "-o", out), io.Discard), "%q", args)
	}
	require.Error(t, runMeshSVG([]string{"-map", "/nonexistent.yaml", "-o", out}, io.Discard))
	require.NoFileExists(t, out)
}
