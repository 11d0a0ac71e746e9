package launch

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Limits on what a launch file may hold, so a hostile file fails fast.
const (
	maxFileSize = 1 << 20 // bytes
	maxDepth    = 32      // element nesting
)

// element is one XML element of a launch file.
type element struct {
	name     string
	attrs    map[string]string
	children []*element
	line     int // of the start tag's "<"
}

// attr returns the raw (unsubstituted) value of an attribute.
func (e *element) attr(name string) (string, bool) {
	v, ok := e.attrs[name]
	return v, ok
}

// spec is what an element may hold in one context.
type spec struct {
	required []string
	optional []string
	children string // context of the children; "" for none
}

// conditional are the attributes every action takes.
var conditional = []string{"if", "unless"}

// schema holds the allowed elements by context: "action" for what <launch>
// and <group> hold, "include" and "node" for their children.
var schema = map[string]map[string]spec{
	"root": {"launch": {optional: []string{"version"}, children: "action"}},
	"action": {
		"arg":                {required: []string{"name"}, optional: append([]string{"default", "description"}, conditional...)},
		"let":                {required: []string{"name", "value"}, optional: conditional},
		"include":            {required: []string{"file"}, optional: conditional, children: "include"},
		"group":              {optional: append([]string{"scoped"}, conditional...), children: "action"},
		"push-ros-namespace": {required: []string{"namespace"}, optional: conditional},
		"push_ros_namespace": {required: []string{"namespace"}, optional: conditional},
		"node": {required: []string{"pkg", "exec"},
			optional: append([]string{"name", "namespace", "args", "ros_args", "output"}, conditional...), children: "node"},
	},
	"include": {"arg": {required: []string{"name", "value"}}},
	"node": {
		"param": {optional: []string{"name", "value", "from"}},
		"remap": {required: []string{"from", "to"}},
		"env":   {required: []string{"name", "value"}},
	},
}

// parseFile reads a launch file into its <launch> element and checks it
// against the schema.
func parseFile(path string) (*element, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(text) > maxFileSize {
		return nil, fmt.Errorf("%w: %s: larger than %d bytes", ErrSyntax, path, maxFileSize)
	}
	root, err := parseXML(text)
	if err != nil {
		return nil, wrapPos(path, err)
	}
	if err := check(root, "root"); err != nil {
		return nil, wrapPos(path, err)
	}
	return root, nil
}

// lineError is an error at a line of the file being parsed; parseFile
// turns it into a PosError.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }

func wrapPos(path string, err error) error {
	if le, ok := err.(*lineError); ok {
		return &PosError{File: path, Line: le.line, Err: le.err}
	}
	return &PosError{File: path, Line: 1, Err: err}
}

func syntaxAt(line int, format string, args ...any) error {
	return &lineError{line: line, err: fmt.Errorf("%w: "+format, append([]any{ErrSyntax}, args...)...)}
}

// wsRef matches a character reference to a tab, newline or carriage
// return, which an attribute value keeps as that character while a
// literal one becomes a space (XML's attribute-value normalization, done
// by the XML parser launch uses, and not by encoding/xml).
var wsRef = regexp.MustCompile(`&#(x0*[9aAdD]|0*(9|10|13));`)

// wsMark stands for the characters wsRef matches until attributes are
// normalized: a private-use character each (which a launch file cannot
// then hold itself).
var wsMark = map[string]string{"9": "&#xE009;", "a": "&#xE00A;", "d": "&#xE00D;", "10": "&#xE00A;", "13": "&#xE00D;"}

// unmark turns the marked references back into their characters.
var unmark = strings.NewReplacer("\uE009", "\t", "\uE00A", "\n", "\uE00D", "\r").Replace

// toSpace turns literal tabs, newlines and carriage returns into spaces.
var toSpace = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace

// normalizeAttr turns literal tabs, newlines and carriage returns into
// spaces, and the marked references back into their characters.
func normalizeAttr(s string) string { return unmark(toSpace(s)) }

// markWSRefs replaces the references wsRef matches by marks.
func markWSRefs(text []byte) []byte {
	return wsRef.ReplaceAllFunc(text, func(ref []byte) []byte {
		n := strings.TrimLeft(strings.ToLower(strings.Trim(string(ref), "&#;x")), "0")
		return []byte(wsMark[n])
	})
}

// parseXML builds the element tree, with the line of each start tag.
func parseXML(text []byte) (*element, error) {
	d := xml.NewDecoder(bytes.NewReader(markWSRefs(text)))
	d.Strict = true
	var root *element
	var stack []*element
	for {
		line, _ := d.InputPos() // the next token starts here: comments and text are tokens too
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, _ = d.InputPos()
			return nil, syntaxAt(line, "%v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e, err := newElement(t, line)
			if err != nil {
				return nil, err
			}
			switch {
			case len(stack) >= maxDepth:
				return nil, syntaxAt(line, "elements nested deeper than %d", maxDepth)
			case len(stack) > 0:
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, e)
			case root != nil:
				return nil, syntaxAt(line, "a second root element <%s>", e.name)
			default:
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if s := strings.TrimSpace(unmark(string(t))); s != "" {
				where := "outside <launch>"
				if len(stack) > 0 {
					where = "in <" + stack[len(stack)-1].name + ">"
				}
				return nil, syntaxAt(line, "unexpected text %q %s (values go in attributes)", clip(s), where)
			}
		}
	}
	if root == nil {
		return nil, syntaxAt(1, "no <launch> element")
	}
	return root, nil
}

func newElement(t xml.StartElement, line int) (*element, error) {
	if t.Name.Space != "" {
		return nil, syntaxAt(line, "unknown element <%s:%s>", t.Name.Space, t.Name.Local)
	}
	e := &element{name: t.Name.Local, attrs: map[string]string{}, line: line}
	for _, a := range t.Attr {
		name := a.Name.Local
		if a.Name.Space != "" {
			name = a.Name.Space + ":" + name
		}
		if _, dup := e.attrs[name]; dup {
			return nil, syntaxAt(line, "<%s>: attribute %s given twice", e.name, name)
		}
		e.attrs[name] = normalizeAttr(a.Value)
	}
	return e, nil
}

// check validates e and its children against the schema in context ctx.
func check(e *element, ctx string) error {
	sp, ok := schema[ctx][e.name]
	if !ok {
		return syntaxAt(e.line, "unknown element <%s> here (want one of %s)", e.name, names(schema[ctx]))
	}
	for name := range e.attrs {
		if !slices.Contains(sp.required, name) && !slices.Contains(sp.optional, name) {
			return syntaxAt(e.line, "<%s>: unknown attribute %q (want %s)", e.name, name,
				strings.Join(append(append([]string{}, sp.required...), sp.optional...), ", "))
		}
	}
	for _, name := range sp.required {
		if _, ok := e.attrs[name]; !ok {
			return syntaxAt(e.line, "<%s>: missing attribute %q", e.name, name)
		}
	}
	if e.name == "param" {
		_, hasName := e.attrs["name"]
		_, hasValue := e.attrs["value"]
		_, hasFrom := e.attrs["from"]
		if hasFrom == (hasName || hasValue) || hasName != hasValue {
			return syntaxAt(e.line, "<param>: want name and value, or from")
		}
	}
	if sp.children == "" && len(e.children) > 0 {
		return syntaxAt(e.children[0].line, "<%s> cannot hold <%s>", e.name, e.children[0].name)
	}
	for _, c := range e.children {
		if err := check(c, sp.children); err != nil {
			return err
		}
	}
	return nil
}

func names(m map[string]spec) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, "<"+k+">")
	}
	return strings.Join(out, ", ")
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
