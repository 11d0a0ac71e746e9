package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/dds"
)

// readmeParams returns the README's parameter table (section "###
// Parameters"): each parameter's default as written, by name.
func readmeParams(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	text := string(b)
	start := strings.Index(text, "\n### Parameters\n")
	require.Positive(t, start, "README has no Parameters section")
	text = text[start+1:]
	if end := strings.Index(text[1:], "\n### "); end >= 0 {
		text = text[:end+1]
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z_0-9]+)` \\| ([^|]*) \\|")
	table := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		table[m[1]] = strings.TrimSpace(m[2])
	}
	return table
}

// TestReadmeListsEveryParameter: the README's parameter table lists
// every parameter navnode declares, with its default, and nothing else.
// A review found tick_hz, the planning loop's rate, missing from it.
func TestReadmeListsEveryParameter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mw, err := dds.New(dds.Loopback(226))
	require.NoError(t, err)
	n, err := ros.NewNode(ctx, "navnode", ros.WithMiddleware(mw))
	require.NoError(t, err)
	defer n.Close()
	_, err = declareParams(n)
	require.NoError(t, err)
	table := readmeParams(t)
	declared := map[string]bool{}
	for _, info := range n.Params() {
		declared[info.Name] = true
		doc, ok := table[info.Name]
		if !assert.True(t, ok, "parameter %s is not in the README's parameter table", info.Name) {
			continue
		}
		switch def := info.Default.(type) {
		case float64:
			v, err := strconv.ParseFloat(doc, 64)
			require.NoError(t, err, "parameter %s: README default %q", info.Name, doc)
			require.Equal(t, def, v, "parameter %s: README default", info.Name)
		default:
			require.Equal(t, fmt.Sprint(def), doc, "parameter %s: README default", info.Name)
		}
	}
	for name := range table {
		require.True(t, declared[name], "README lists parameter %s, which navnode does not declare", name)
	}
}
