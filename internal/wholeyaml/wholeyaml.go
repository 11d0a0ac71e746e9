// Package wholeyaml reads a YAML value the way libyaml and PyYAML do,
// which ROS 2 tools use: all of the text, or an error.
package wholeyaml

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Unmarshal reads text as one YAML document into doc. go-yaml stops
// reading a document after a quoted or flow value and drops what follows
// ("'a'x" reads as the string a, "[1, 2]x" as [1, 2]), where libyaml and
// PyYAML fail; so text is read a second time as the item of a list,
// where go-yaml does look at what follows.
func Unmarshal(text string, doc *yaml.Node) error {
	if err := yaml.Unmarshal([]byte(text), doc); err != nil {
		return err
	}
	var item yaml.Node
	if err := yaml.Unmarshal([]byte("- "+strings.ReplaceAll(text, "\n", "\n  ")), &item); err != nil {
		return fmt.Errorf("text after the value: %w", err)
	}
	return nil
}
