package launch

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxIncludeDepth bounds include chains that are not loops but grow.
const maxIncludeDepth = 32

// Options are what Load needs from outside the launch file.
type Options struct {
	// Args are the launch arguments from the command line (name:=value),
	// set before the file is read. Each must be declared by an <arg>.
	Args map[string]string
	// Share gives $(find-pkg-share PKG); nil finds no package.
	Share func(pkg string) (string, error)
	// Exec gives the path of executable exec of package pkg; nil finds none.
	Exec func(pkg, exec string) (string, error)
	// LookupEnv reads $(env); nil is os.LookupEnv.
	LookupEnv func(name string) (string, bool)
	// TempDir is where Load writes the parameters files it makes of
	// <param name value> ("": os.TempDir()).
	TempDir string
}

// Process is one process a launch file starts: a <node>.
type Process struct {
	// Name labels the process's output: the node name, else the
	// executable's; a repeated one gets "-2", "-3"... so each is unique.
	Name       string
	Package    string
	Executable string
	Path       string   // the executable, from Options.Exec
	Args       []string // argv[1:]
	Env        []string // NAME=value from <env>, on top of the launcher's environment
	Output     string   // the output attribute ("screen", "log", "both" or ""); informative only
	Pos        string   // file:line of the <node>
	// TempFiles are the parameters files Load wrote for the process,
	// named in Args; remove them once it has exited.
	TempFiles []string
}

// ParseArgs reads command-line launch arguments, each name:=value.
func ParseArgs(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		name, value, ok := strings.Cut(a, ":=")
		if !ok || name == "" || strings.ContainsAny(name, " \t$()") {
			return nil, fmt.Errorf("%w: %q: want name:=value", ErrArgument, a)
		}
		out[name] = value
	}
	return out, nil
}

// Load reads the launch file at path, and the files it includes, and
// returns the processes it starts, in document order.
func Load(path string, opts Options) ([]Process, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	l := &loader{opts: opts, vars: maps.Clone(opts.Args), declared: map[string]bool{}, names: map[string]int{},
		scanned: map[string]bool{}}
	if l.vars == nil {
		l.vars = map[string]string{}
	}
	if err := l.file(path, nil); err != nil {
		l.removeTemp()
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Args)) {
		if !l.declared[name] && !l.unchecked {
			l.removeTemp()
			return nil, fmt.Errorf("%w: %s:=%s: %s and the files it includes declare no argument %q (they declare %s)",
				ErrArgument, name, opts.Args[name], path, name, strings.Join(slices.Sorted(maps.Keys(l.declared)), ", "))
		}
	}
	return l.procs, nil
}

// removeTemp removes the parameters files written, when Load fails and
// no caller will see them.
func (l *loader) removeTemp() {
	for _, f := range l.temp {
		os.Remove(f)
	}
}

// loader walks launch files in document order, keeping launch's state.
type loader struct {
	opts     Options
	vars     map[string]string // launch configurations in the current scope
	ns       string            // namespace pushed by <push-ros-namespace>; "" for none
	stack    []string          // absolute paths of the files being read, outermost first
	declared map[string]bool   // every <arg> name of the files read, in branches that run or not
	// unchecked: a skipped <include>'s file could not be read for its
	// <arg> names, so command-line arguments are not checked.
	unchecked bool
	scanned   map[string]bool // absolute paths of the files skipped includes name, read once
	temp      []string        // the parameters files written, removed if Load fails
	procs     []Process
	names     map[string]int // process names used, for uniqueness
}

// fileCtx is the launch file an element comes from.
type fileCtx struct {
	path string // as named
	abs  string
}

// file reads and runs the launch file at path, in the current scope.
// given holds the arguments an <include> of it gives (nil for the file
// named on the command line, whose required arguments arg checks).
func (l *loader) file(path string, given map[string]bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if slices.Contains(l.stack, abs) {
		return fmt.Errorf("%w: %s includes itself (%s)", ErrIncludeLoop, path, strings.Join(slices.Concat(l.stack, []string{abs}), " -> "))
	}
	if len(l.stack) >= maxIncludeDepth {
		return fmt.Errorf("%w: includes nested deeper than %d", ErrIncludeLoop, maxIncludeDepth)
	}
	root, err := parseFile(path)
	if err != nil {
		return err
	}
	if err := checkElements(path, root.children, false); err != nil {
		return err
	}
	if name := missingArg(root.children, given); name != "" {
		return fmt.Errorf("%w: %s needs argument %q: give it with <arg name=%q value=...> in the <include>", ErrArgument, path, name, name)
	}
	l.stack = append(l.stack, abs)
	defer func() { l.stack = l.stack[:len(l.stack)-1] }()
	walkArgs(root.children, l.declared, nil)
	return l.actions(&fileCtx{path: path, abs: abs}, root.children)
}

// actions runs elements in order and places their errors: an error from
// an include is wrapped at the <include>, so the message names every file
// on the way.
func (l *loader) actions(f *fileCtx, els []*element) error {
	for _, e := range els {
		if err := l.action(f, e); err != nil {
			var pe *PosError
			if errors.As(err, &pe) && e.name != "include" {
				return err
			}
			return &PosError{File: f.path, Line: e.line, Err: err}
		}
	}
	return nil
}

// action runs one element of <launch> or <group>; the schema has been checked.
func (l *loader) action(f *fileCtx, e *element) error {
	if on, err := l.enabled(f, e); err != nil || !on {
		if err == nil {
			l.skipped(f, e, 0)
		}
		return err
	}
	switch e.name {
	case "arg":
		return l.arg(f, e)
	case "let":
		return l.let(f, e)
	case "include":
		return l.include(f, e)
	case "group":
		return l.group(f, e)
	case "push-ros-namespace", "push_ros_namespace":
		v, err := l.expand(f, e.attrs["namespace"])
		if err != nil {
			return err
		}
		l.ns = cmp.Or(joinNamespace(l.ns, v), "/") // launch makes even an empty push absolute
	case "node":
		return l.node(f, e)
	}
	return nil
}

// plainAttrs are the attributes, by element, that Load reads without
// substitutions (an <arg>'s name only drops its backslashes, as launch's
// escape_characters does); an <include>'s <arg> is not among them.
var plainAttrs = map[string][]string{"launch": {"version"}, "arg": {"name", "description"}, "group": {"scoped"}}

// checkElements checks els and their children as launch does when it
// parses a file, before it runs any of it, so in branches that run or
// not: substitutions must be well formed and known, with as many
// arguments as they take; a node's args and ros_args must split into
// words; and if and unless cannot both be on one element.
func checkElements(path string, els []*element, inInclude bool) error {
	for _, e := range els {
		plain := plainAttrs[e.name]
		if inInclude {
			plain = nil // an include's <arg> takes substitutions in its name too
		}
		if err := checkElement(e, plain); err != nil {
			return &PosError{File: path, Line: e.line, Err: err}
		}
		if err := checkElements(path, e.children, e.name == "include"); err != nil {
			return err
		}
	}
	return nil
}

// checkElement checks one element; plain are its attributes read without
// substitutions.
func checkElement(e *element, plain []string) error {
	_, hasIf := e.attr("if")
	if _, hasUnless := e.attr("unless"); hasIf && hasUnless {
		return fmt.Errorf("%w: <%s>: if and unless cannot be used together", ErrSyntax, e.name)
	}
	for _, attr := range slices.Sorted(maps.Keys(e.attrs)) {
		if slices.Contains(plain, attr) {
			continue
		}
		raw := e.attrs[attr]
		var err error
		switch {
		case e.name == "node" && (attr == "args" || attr == "ros_args"):
			_, err = splitWords(raw)
		case e.name == "param" && attr == "value":
			_, err = readParamValue(raw)
		default:
			_, err = parseSubst(raw)
		}
		if err != nil {
			return fmt.Errorf("<%s %s=%q>: %w", e.name, attr, raw, err)
		}
	}
	return nil
}

// enabled evaluates the if and unless attributes.
func (l *loader) enabled(f *fileCtx, e *element) (bool, error) {
	for _, attr := range []string{"if", "unless"} {
		raw, ok := e.attr(attr)
		if !ok {
			continue
		}
		v, err := l.expand(f, raw)
		if err != nil {
			return false, err
		}
		b, err := parseBool(v)
		if err != nil {
			return false, fmt.Errorf("<%s %s=%q>: %w", e.name, attr, raw, err)
		}
		if b != (attr == "if") {
			return false, nil
		}
	}
	return true, nil
}

// let sets a launch configuration; its name and value both take
// substitutions, as SetLaunchConfiguration's do.
func (l *loader) let(f *fileCtx, e *element) error {
	name, err := l.expand(f, e.attrs["name"])
	if err != nil {
		return err
	}
	v, err := l.expand(f, e.attrs["value"])
	if err != nil {
		return err
	}
	l.vars[name] = v
	return nil
}

// argName is the name an <arg> declares: its name attribute with the
// backslashes dropped (launch's escape_characters), without substitutions.
func argName(e *element) string { return unescape(e.attrs["name"]) }

// arg declares a launch argument: a value already set (on the command
// line, by an include or earlier) wins over the default.
func (l *loader) arg(f *fileCtx, e *element) error {
	name := argName(e)
	l.declared[name] = true
	if _, set := l.vars[name]; set {
		return nil
	}
	def, ok := e.attr("default")
	if !ok {
		desc := ""
		if d, ok := e.attr("description"); ok {
			desc = " (" + d + ")"
		}
		return fmt.Errorf("%w: %q%s is required: pass %s:=VALUE", ErrArgument, name, desc, name)
	}
	v, err := l.expand(f, def)
	if err != nil {
		return err
	}
	l.vars[name] = v
	return nil
}

// include reads another launch file in the current scope, after setting
// the values of its <arg> children, as launch's IncludeLaunchDescription
// does: it evaluates all their names first, to check that the file gets
// every argument it requires, then sets them in order with
// SetLaunchConfiguration, each value and then name evaluated as it is set,
// so a later one sees an earlier one.
func (l *loader) include(f *fileCtx, e *element) error {
	path, err := l.expand(f, e.attrs["file"])
	if err != nil {
		return err
	}
	given := map[string]bool{}
	for _, a := range e.children {
		name, err := l.expand(f, a.attrs["name"])
		if err != nil {
			return fmt.Errorf("<arg name=%q>: %w", a.attrs["name"], err)
		}
		given[name] = true
	}
	for _, a := range e.children {
		v, err := l.expand(f, a.attrs["value"])
		if err != nil {
			return fmt.Errorf("<arg name=%q>: %w", a.attrs["name"], err)
		}
		name, err := l.expand(f, a.attrs["name"])
		if err != nil {
			return fmt.Errorf("<arg name=%q>: %w", a.attrs["name"], err)
		}
		l.vars[name] = v
	}
	return l.file(path, given)
}

// missingArg names the first <arg> among els that has no default and no
// condition and is not in given, or returns "" (always for a nil given,
// the file named on the command line). launch's include refuses
// such a file (IncludeLaunchDescription: "Included launch description
// missing required argument"), even when the includer has a launch
// configuration of that name.
func missingArg(els []*element, given map[string]bool) string {
	if given == nil {
		return ""
	}
	for _, e := range els {
		_, hasDefault := e.attr("default")
		_, hasIf := e.attr("if")
		_, hasUnless := e.attr("unless")
		if e.name == "arg" && !hasDefault && !hasIf && !hasUnless && !given[argName(e)] {
			return argName(e)
		}
	}
	return ""
}

// group runs its children, in a scope of their own unless scoped="false".
func (l *loader) group(f *fileCtx, e *element) error {
	scoped := true
	if raw, ok := e.attr("scoped"); ok {
		var err error
		if strings.Contains(raw, "$(") {
			// launch reads scoped as written: text that is not a boolean,
			// such as $(var s), is kept as a string and scopes the group
			// whatever s is (Humble and Jazzy, 2026-11-24).
			return fmt.Errorf("%w: <group scoped=%q>: takes true or false, not a substitution (ros2 launch would not substitute it, and would scope the group whatever its value)",
				ErrSyntax, raw)
		}
		if scoped, err = parseBool(raw); err != nil {
			return fmt.Errorf("<group scoped=%q>: %w", raw, err)
		}
	}
	if !scoped {
		return l.actions(f, e.children)
	}
	vars, ns := maps.Clone(l.vars), l.ns
	defer func() { l.vars, l.ns = vars, ns }()
	return l.actions(f, e.children)
}

// expand evaluates the substitutions of an attribute value of file f.
func (l *loader) expand(f *fileCtx, s string) (string, error) {
	return expand(s, l.eval(f))
}

// eval evaluates the substitutions of file f.
func (l *loader) eval(f *fileCtx) evalFunc {
	return func(name string, args subArgs) (string, error) { return l.substitute(f, name, args) }
}

// substitute evaluates one substitution, checked by parseSubst. Its
// arguments are evaluated as launch evaluates them: $(var)'s default only
// when the configuration is not set (LaunchConfiguration), $(env)'s
// always, even when the variable is set (EnvironmentVariable).
func (l *loader) substitute(f *fileCtx, name string, args subArgs) (string, error) {
	switch name {
	case "dirname":
		return filepath.Dir(f.abs), nil
	case "filename":
		return f.abs, nil
	case "var":
		return l.configuration(args)
	case "env":
		return l.env(args)
	}
	return l.share(args) // find-pkg-share
}

// configuration gives $(var NAME [DEFAULT]).
func (l *loader) configuration(args subArgs) (string, error) {
	name, err := args.get(0)
	if err != nil {
		return "", err
	}
	if v, ok := l.vars[name]; ok {
		return v, nil
	}
	if args.len() == 2 {
		return args.get(1)
	}
	return "", fmt.Errorf("%w: $(var %s): undefined launch configuration %q (declare it with <arg> or <let>, or give a default: $(var %s DEFAULT))",
		ErrSubstitution, name, name, name)
}

// env gives $(env NAME [DEFAULT]), evaluating DEFAULT first as launch does.
func (l *loader) env(args subArgs) (string, error) {
	def, hasDefault := "", args.len() == 2
	if hasDefault {
		var err error
		if def, err = args.get(1); err != nil {
			return "", err
		}
	}
	name, err := args.get(0)
	if err != nil {
		return "", err
	}
	if v, ok := l.opts.LookupEnv(name); ok {
		return v, nil
	}
	if hasDefault {
		return def, nil
	}
	return "", fmt.Errorf("%w: $(env %s): environment variable %s is not set (give a default: $(env %s DEFAULT))",
		ErrSubstitution, name, name, name)
}

// share gives $(find-pkg-share PKG).
func (l *loader) share(args subArgs) (string, error) {
	pkg, err := args.get(0)
	if err != nil {
		return "", err
	}
	if l.opts.Share == nil {
		return "", fmt.Errorf("$(find-pkg-share %s): package %s %w", pkg, pkg, ErrNotFound)
	}
	dir, err := l.opts.Share(pkg)
	if err != nil {
		return "", fmt.Errorf("$(find-pkg-share %s): %w", pkg, err)
	}
	return dir, nil
}

// substitutionArgs gives the least and most arguments of each
// substitution Load knows, as launch and launch_ros parse them.
var substitutionArgs = map[string][2]int{"var": {1, 2}, "env": {1, 2}, "find-pkg-share": {1, 1},
	"dirname": {0, 0}, "filename": {0, 0}}

// joinNamespace puts namespace ns in base as launch_ros does: an absolute
// ns replaces base, a relative one goes under it, an empty one is base.
// The result is absolute without a trailing slash, "/" or "" for none.
func joinNamespace(base, ns string) string {
	switch {
	case strings.HasPrefix(ns, "/"):
	case ns == "":
		ns = base
	case base == "" || base == "/":
		ns = "/" + ns
	default:
		ns = base + "/" + ns
	}
	if t := strings.TrimRight(ns, "/"); t != "" {
		return t
	}
	if ns != "" {
		return "/"
	}
	return ""
}
