package launch

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// node turns a <node> into a Process: resolves the executable and builds
// the command line launch_ros would.
func (l *loader) node(f *fileCtx, e *element) error {
	get := func(attr string) (string, error) {
		raw, ok := e.attr(attr)
		if !ok {
			return "", nil
		}
		v, err := l.expand(f, raw)
		if err != nil {
			return "", fmt.Errorf("<node %s=%q>: %w", attr, raw, err)
		}
		return v, nil
	}
	var at [7]string
	for i, attr := range []string{"pkg", "exec", "name", "namespace", "output", "args", "ros_args"} {
		v, err := get(attr)
		if err != nil {
			return err
		}
		at[i] = v
	}
	pkg, exe, name, ns, output := at[0], at[1], at[2], at[3], at[4]
	switch output {
	case "", "screen", "log", "both", "own_log":
	default:
		return fmt.Errorf("%w: <node output=%q>: want screen, log, both or own_log", ErrSyntax, output)
	}
	if name != "" {
		if err := checkNodeName(name); err != nil {
			return err
		}
	}
	ns = joinNamespace(l.ns, ns)
	if err := checkNamespace(ns); err != nil {
		return err
	}
	p := Process{Package: pkg, Executable: exe, Output: output, Pos: fmt.Sprintf("%s:%d", f.path, e.line)}
	if l.opts.Exec == nil {
		return fmt.Errorf("package %s %w (no executable resolver)", pkg, ErrNotFound)
	}
	var err error
	if p.Path, err = l.opts.Exec(pkg, exe); err != nil {
		return fmt.Errorf("<node pkg=%q exec=%q>: %w", pkg, exe, err)
	}
	if p.Args, err = l.words(f, e, "args"); err != nil {
		return err
	}
	rosArgs, err := l.words(f, e, "ros_args")
	if err != nil {
		return err
	}
	if name != "" {
		rosArgs = append(rosArgs, "-r", "__node:="+name)
	}
	if ns != "" && ns != "/" {
		rosArgs = append(rosArgs, "-r", "__ns:="+ns)
	}
	_, hasNS := e.attr("namespace")
	ps := nodeParams{key: "/**"} // launch_ros's key unless name and namespace are both given
	if name != "" && (hasNS || l.ns != "") {
		ps.key = strings.TrimSuffix(cmp.Or(ns, "/"), "/") + "/" + name
	}
	for _, c := range e.children {
		if err := l.nodeChild(f, c, &p, &rosArgs, &ps); err != nil {
			return &PosError{File: f.path, Line: c.line, Err: err}
		}
	}
	if err := l.flushParams(&p, &ps); err != nil {
		return &PosError{File: f.path, Line: e.line, Err: err}
	}
	if rosArgs = append(rosArgs, ps.args...); len(rosArgs) > 0 {
		p.Args = append(append(p.Args, "--ros-args"), rosArgs...)
	}
	p.Name = l.uniqueName(name, exe)
	l.procs = append(l.procs, p)
	return nil
}

// words splits an args-like attribute into words and expands each.
func (l *loader) words(f *fileCtx, e *element, attr string) ([]string, error) {
	raw, ok := e.attr(attr)
	if !ok {
		return nil, nil
	}
	words, err := splitWords(raw)
	if err != nil {
		return nil, fmt.Errorf("<node %s=%q>: %w", attr, raw, err)
	}
	out, eval := make([]string, len(words)), l.eval(f)
	for i, w := range words {
		if out[i], err = evalPieces(w, eval); err != nil {
			return nil, fmt.Errorf("<node %s=%q>: %w", attr, raw, err)
		}
	}
	return out, nil
}

// nodeChild adds a <param>, <remap> or <env> to the process: remaps to
// rosArgs, parameters to ps, whose files follow the remaps.
func (l *loader) nodeChild(f *fileCtx, c *element, p *Process, rosArgs *[]string, ps *nodeParams) error {
	vals := map[string]string{}
	for attr, raw := range c.attrs {
		if c.name == "param" && attr == "value" {
			continue // typed by param
		}
		v, err := l.expand(f, raw)
		if err != nil {
			return fmt.Errorf("<%s %s=%q>: %w", c.name, attr, raw, err)
		}
		vals[attr] = v
	}
	switch c.name {
	case "param":
		if from, ok := vals["from"]; ok {
			if from == "" {
				return fmt.Errorf("%w: <param from> is empty", ErrSyntax)
			}
			if err := l.flushParams(p, ps); err != nil {
				return err
			}
			ps.args = append(ps.args, "--params-file", from)
			return nil
		}
		if vals["name"] == "" {
			return fmt.Errorf("%w: <param name> is empty", ErrSyntax)
		}
		return l.param(f, c, vals["name"], ps)
	case "remap":
		if vals["from"] == "" || vals["to"] == "" {
			return fmt.Errorf("%w: <remap from=%q to=%q>: both must be non-empty", ErrSyntax, vals["from"], vals["to"])
		}
		*rosArgs = append(*rosArgs, "-r", vals["from"]+":="+vals["to"])
	case "env":
		if vals["name"] == "" || strings.ContainsAny(vals["name"], "=\x00") {
			return fmt.Errorf("%w: <env name=%q>: not a variable name", ErrSyntax, vals["name"])
		}
		p.Env = append(p.Env, vals["name"]+"="+vals["value"])
	}
	return nil
}

// param adds a <param name value> to ps, its value typed as launch types
// it.
func (l *loader) param(f *fileCtx, c *element, name string, ps *nodeParams) error {
	raw := c.attrs["value"]
	pv, err := readParamValue(raw)
	if err != nil {
		return err
	}
	v, err := l.paramNode(f, raw, pv)
	if err != nil {
		return err
	}
	if ps.named == nil {
		ps.named = &yaml.Node{Kind: yaml.MappingNode}
	}
	setParam(ps.named, name, v)
	return nil
}

// uniqueName labels a process: name, else the executable, with a number
// appended from the second use on.
func (l *loader) uniqueName(name, exe string) string {
	if name == "" {
		name = exe
	}
	l.names[name]++
	if n := l.names[name]; n > 1 {
		return name + "-" + strconv.Itoa(n)
	}
	return name
}

// checkNodeName applies the ROS 2 node name rules: letters, digits and _,
// not starting with a digit.
func checkNodeName(name string) error {
	if !isToken(name) {
		return fmt.Errorf("%w: node name %q: want letters, digits and _, not starting with a digit", ErrSyntax, name)
	}
	return nil
}

// checkNamespace checks an absolute namespace token by token ("" and "/"
// are the root).
func checkNamespace(ns string) error {
	if ns == "" || ns == "/" {
		return nil
	}
	for _, tok := range strings.Split(ns[1:], "/") {
		if !isToken(tok) {
			return fmt.Errorf("%w: namespace %q: token %q: want letters, digits and _, not starting with a digit",
				ErrSyntax, ns, tok)
		}
	}
	return nil
}

func isToken(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
