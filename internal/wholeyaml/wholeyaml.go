// Package wholeyaml reads a YAML value the way libyaml and PyYAML do,
// which ROS 2 tools use: all of the text, or an error.
package wholeyaml

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Unmarshal reads text as one YAML document into doc (empty text: an
// empty doc). go-yaml stops reading a document after a quoted or flow
// value and drops what follows ("'a'x" reads as the string a, "[1, 2]x"
// as [1, 2]), and yaml.Unmarshal reads only the first of several
// documents, where libyaml and PyYAML fail; so a second document is an
// error, and text is read a second time as the item of a list, where
// go-yaml does look at what follows a value (not text that starts with
// a directive, %YAML, which no list item can hold).
func Unmarshal(text string, doc *yaml.Node) error {
	dec := yaml.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	var more, item yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return errors.New("more than one YAML document")
	}
	if strings.HasPrefix(text, "%") {
		return nil // directives cannot be a list's item; such text is not checked further
	}
	if err := yaml.Unmarshal([]byte("- "+asItem.Replace(text)), &item); err != nil {
		return fmt.Errorf("text after the value: %w", err)
	}
	return nil
}

// asItem indents every line after the first by two spaces; YAML's line
// breaks are CR LF, LF and a lone CR.
var asItem = strings.NewReplacer("\r\n", "\n  ", "\r", "\n  ", "\n", "\n  ")
