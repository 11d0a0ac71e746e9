package launch

import (
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/navnode/navnode/internal/wholeyaml"
)

// A <param value> is typed as launch_xml and launch_ros type it (checked
// against Humble and Jazzy, 2026-11-24). When the file is parsed, the
// value is read as YAML (launch_xml's get_attr with no type; text YAML
// cannot read stays as written), then each string in it is read for
// substitutions (parse_if_substitutions). When the node is started, a
// string with substitutions is evaluated and its value read as YAML again
// (perform_typed_substitution). So value="'$(var x)'" is the integer 1 for
// x:=1, value="'1'" and value="\1" are the string 1, and
// value="'a$(var x)'" is the string a1. A value launch refuses is an
// error: a null, a mapping, a date, a nested list or a list whose items
// are not all of one type.

// paramItem is a scalar of a <param value> as read when the file is
// parsed: a YAML node, or the substitutions of a string.
type paramItem struct {
	node  *yaml.Node // the value, when subst is nil
	subst []piece    // substitutions, whose value is typed as YAML
}

// paramValue is a <param value> as read when the file is parsed.
type paramValue struct {
	items []paramItem // one, or the items of a list
	list  bool
	style yaml.Style // of the list
}

// readParamValue reads a <param value> written as raw, as launch does when
// it parses the file; its errors do not name the attribute.
func readParamValue(raw string) (paramValue, error) {
	n, err := decodeParamText(raw)
	if err != nil {
		return paramValue{}, err
	}
	if n.Kind != yaml.SequenceNode {
		item, err := readParamItem(n)
		return paramValue{items: []paramItem{item}}, err
	}
	pv := paramValue{list: true, style: n.Style}
	var consts []*yaml.Node
	for _, c := range n.Content {
		item, err := readParamItem(c)
		if err != nil {
			return paramValue{}, err
		}
		if item.subst == nil {
			consts = append(consts, item.node)
		}
		pv.items = append(pv.items, item)
	}
	if !oneType(consts) {
		return paramValue{}, fmt.Errorf("%w: the list's items are not all of one type", ErrSyntax)
	}
	return pv, nil
}

// decodeParamText reads raw as YAML, as launch_xml reads an attribute
// with no type: text that YAML cannot read, and "", stay as written.
func decodeParamText(raw string) (*yaml.Node, error) {
	if raw == "" {
		return strNode(raw), nil
	}
	n, err := unmarshalWhole(raw)
	if err != nil {
		return strNode(raw), nil
	}
	if !isParamScalar(n) && n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%w: YAML reads a %s, not a parameter value (want a boolean, number, string or list of one of them)",
			ErrSyntax, kindName(n))
	}
	return n, nil
}

// readParamItem reads a scalar n of a <param value>: a string for
// substitutions, its backslashes dropped when it has none.
func readParamItem(n *yaml.Node) (paramItem, error) {
	if !isParamScalar(n) {
		return paramItem{}, fmt.Errorf("%w: a list item is a %s (want a boolean, number or string)", ErrSyntax, kindName(n))
	}
	if n.ShortTag() != "!!str" {
		return paramItem{node: n}, nil
	}
	ps, err := parseSubst(n.Value)
	switch {
	case err != nil:
		return paramItem{}, err
	case len(ps) > 1 || ps[0].name != "":
		return paramItem{subst: ps}, nil
	case ps[0].text == n.Value:
		return paramItem{node: n}, nil // as written, its style kept
	}
	return paramItem{node: strNode(ps[0].text)}, nil
}

// paramNode evaluates the substitutions of pv and types their values.
func (l *loader) paramNode(f *fileCtx, raw string, pv paramValue) (*yaml.Node, error) {
	out := make([]*yaml.Node, len(pv.items))
	for i, it := range pv.items {
		if it.subst == nil {
			out[i] = it.node
			continue
		}
		s, err := evalPieces(it.subst, l.eval(f))
		if err != nil {
			return nil, err
		}
		if out[i], err = typeSubstituted(s); err != nil {
			return nil, fmt.Errorf("<param value=%q>: %w", raw, err)
		}
	}
	if !pv.list {
		return out[0], nil
	}
	if !oneType(out) {
		return nil, fmt.Errorf("%w: <param value=%q>: the list's items are not all of one type once substituted",
			ErrSubstitution, raw)
	}
	return &yaml.Node{Kind: yaml.SequenceNode, Style: pv.style, Content: out}, nil
}

// typeSubstituted types the value of substitutions as launch does
// (coerce_to_type with no type): as YAML, "" being the empty string; it
// must read as a boolean, number, string or list of one of them.
func typeSubstituted(s string) (*yaml.Node, error) {
	if s == "" {
		return strNode(s), nil
	}
	n, err := unmarshalWhole(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is not YAML: %v", ErrSubstitution, s, err)
	}
	if isParamScalar(n) || n.Kind == yaml.SequenceNode && oneType(n.Content) {
		return n, nil
	}
	what := "a " + kindName(n)
	if n.Kind == yaml.SequenceNode {
		what = "a list whose items are not booleans, numbers or strings all of one type"
	}
	return nil, fmt.Errorf("%w: %q reads as %s, not a parameter value (want a boolean, number, string or list of one of them)",
		ErrSubstitution, s, what)
}

// unmarshalWhole reads s as one YAML document, all of it
// (wholeyaml), and returns its value without comments.
func unmarshalWhole(s string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := wholeyaml.Unmarshal(s, &doc); err != nil {
		return nil, err
	}
	n := yamlContent(&doc)
	dropComments(n)
	return n, nil
}

// dropComments clears the comments of n and its items: value="'a' # c"
// is the string a, and the parameters file need not say more.
func dropComments(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		dropComments(c)
	}
}

// yamlContent returns the value of a YAML document, a null for an empty one.
func yamlContent(doc *yaml.Node) *yaml.Node {
	if len(doc.Content) != 1 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	return doc.Content[0]
}

// isParamScalar reports whether n is a scalar a parameter can hold.
func isParamScalar(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	switch n.ShortTag() {
	case "!!str", "!!int", "!!float", "!!bool":
		return true
	}
	return false
}

// oneType reports whether ns are scalars a parameter can hold, all of one
// type.
func oneType(ns []*yaml.Node) bool {
	for _, n := range ns {
		if !isParamScalar(n) || n.ShortTag() != ns[0].ShortTag() {
			return false
		}
	}
	return true
}

// kindName names what a YAML node holds, for errors.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return n.ShortTag()[2:]
	}
	return "YAML node"
}

// strNode is a YAML string.
func strNode(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// nodeParams gathers a node's parameters in document order, as launch_ros
// passes them: each <param from> file as it comes, and each run of
// <param name value> written to a parameters file of its own, keyed by the
// node's full name when its name and namespace are both given, else /**.
type nodeParams struct {
	key   string
	args  []string   // --params-file PATH ..., in order
	named *yaml.Node // the run of name/value parameters not yet written, or nil
}

// flushParams writes the pending run of name/value parameters to a file.
func (l *loader) flushParams(p *Process, ps *nodeParams) error {
	if ps.named == nil {
		return nil
	}
	path, err := l.paramsFile(ps.key, ps.named)
	if err != nil {
		return err
	}
	ps.args = append(ps.args, "--params-file", path)
	p.TempFiles = append(p.TempFiles, path)
	ps.named = nil
	return nil
}

// setParam sets name to v in m, a YAML mapping, replacing an earlier
// value of the name.
func setParam(m *yaml.Node, name string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, strNode(name), v)
}

// paramsFile writes a run of a node's <param name value> to a parameters
// file under key, as launch_ros does, and returns its path; the files
// are passed in document order among the <param from> files (nodeParams).
func (l *loader) paramsFile(key string, named *yaml.Node) (string, error) {
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "ros__parameters"},
			named,
		}},
	}}
	text, err := yaml.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("parameters of %s: %w", key, err)
	}
	f, err := os.CreateTemp(l.opts.TempDir, "navlaunch_params_*.yaml")
	if err != nil {
		return "", err
	}
	_, err = f.Write(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	l.temp = append(l.temp, f.Name())
	return f.Name(), nil
}
