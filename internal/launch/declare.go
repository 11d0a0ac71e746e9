package launch

import "path/filepath"

// walkArgs adds the name of every <arg> among els, and in their groups,
// to declared, whether or not its branch runs: an argument given on the
// command line for a branch that is off (rviz_config:=… with rviz false)
// is no typo. It calls include, if not nil, for each <include> met; the
// <arg> children of an include set values and declare nothing.
func walkArgs(els []*element, declared map[string]bool, include func(*element)) {
	for _, e := range els {
		switch e.name {
		case "arg":
			declared[argName(e)] = true
		case "group":
			walkArgs(e.children, declared, include)
		case "include":
			if include != nil {
				include(e)
			}
		}
	}
}

// skipped notes the <arg> names of the files that e, an element whose
// branch is off, would include: those files are read only for them, each
// once. When one cannot be (its name needs a launch configuration not
// set, say), command-line arguments go unchecked rather than refused
// wrongly.
func (l *loader) skipped(f *fileCtx, e *element, depth int) {
	if e.name == "group" {
		walkArgs(e.children, l.declared, func(inc *element) { l.skipped(f, inc, depth) })
		return
	}
	if e.name != "include" {
		return
	}
	if depth >= maxIncludeDepth {
		l.unchecked = true
		return
	}
	path, err := l.expand(f, e.attrs["file"])
	if err != nil {
		l.unchecked = true
		return
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		l.unchecked = true
		return
	}
	if l.scanned[abs] {
		return // its <arg>s are known; an include loop ends here
	}
	l.scanned[abs] = true
	root, err := parseFile(path)
	if err != nil {
		l.unchecked = true
		return
	}
	inner := &fileCtx{path: path, abs: abs}
	walkArgs(root.children, l.declared, func(inc *element) { l.skipped(inner, inc, depth+1) })
}
