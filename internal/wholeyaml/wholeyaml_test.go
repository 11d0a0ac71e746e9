package wholeyaml

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestUnmarshal: text after a quoted or flow value is an error, as in
// PyYAML (yaml.safe_load("'a'x") fails: "expected '<document start>',
// but found '<scalar>'"); comments, spaces and values over several
// lines are not.
func TestUnmarshal(t *testing.T) {
	for _, text := range []string{"'a'x", `"a"x`, "'a' x", "[1, 2]x", "{a: 1}x", "'a'\n'b'"} {
		var doc yaml.Node
		require.Error(t, Unmarshal(text, &doc), text)
	}
	for text, want := range map[string]string{"'a' # c": "a", " 'a' ": "a", "a\nb": "a b", "'a\n  b'": "a b", "|\n  x\n": "x\n", "1": "1"} {
		var doc yaml.Node
		require.NoError(t, Unmarshal(text, &doc), text)
		require.Equal(t, want, doc.Content[0].Value, text)
	}
	var doc yaml.Node
	require.NoError(t, Unmarshal("[1, 2] # c", &doc))
	require.Len(t, doc.Content[0].Content, 2)
	// PyYAML: "expected a single document in the stream" (a review found
	// "1\n---\n2" read as 1); one document with its markers is one.
	for _, text := range []string{"1\n---\n2", "1\n---\n"} {
		require.Error(t, Unmarshal(text, &yaml.Node{}), text)
	}
	for _, text := range []string{"---\n1", "1\n...\n", "%YAML 1.1\n---\n1"} {
		var doc yaml.Node
		require.NoError(t, Unmarshal(text, &doc), text)
		require.Equal(t, "1", doc.Content[0].Value, text)
	}
	// A lone CR and CR LF break lines too (PyYAML reads both as "a b").
	for _, text := range []string{"a\rb", "'a\rb'", "a\r\nb"} {
		var doc yaml.Node
		require.NoError(t, Unmarshal(text, &doc), "%q", text)
		require.Equal(t, "a b", doc.Content[0].Value, "%q", text)
	}
	var empty yaml.Node
	require.NoError(t, Unmarshal("", &empty))
	require.Empty(t, empty.Content)
}
