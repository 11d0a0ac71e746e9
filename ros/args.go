package ros

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Args is what the --ros-args sections of a command line hold, as rcl
// parses them.
type Args struct {
	Remaps []Remap
	// Params are the parameter overrides from -p and --params-file, in
	// command-line order (see newParams for which wins).
	Params       []Override
	LogLevel     string            // --log-level LEVEL
	LoggerLevels map[string]string // --log-level name:=LEVEL
	Enclave      string            // -e/--enclave
}

// Remap is one -r rule: [Node:]From:=To. From may be "__ns" or "__node".
type Remap struct {
	Node     string // only for the node of this name; "" for every node
	From, To string
	Service  bool // rosservice:// rule: does not apply to topics
}

// flags that take a value but only matter to rcl's own logging.
var ignoredValueFlags = map[string]bool{"--log-config-file": true, "--log-file-name": true}

// ignoredFlags are rcl logging switches navnode accepts and ignores: its
// logs always go to stderr and /rosout.
var ignoredFlags = map[string]bool{
	"--enable-stdout-logs": true, "--disable-stdout-logs": true,
	"--enable-rosout-logs": true, "--disable-rosout-logs": true,
	"--enable-external-lib-logs": true, "--disable-external-lib-logs": true,
}

// ParseArgs splits argv into the --ros-args sections, which it parses, and
// the rest, which it returns in order. A section runs from --ros-args to
// "--" or the end.
func ParseArgs(argv []string) (Args, []string, error) {
	var a Args
	var rest []string
	in := false
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		switch {
		case arg == "--ros-args":
			in = true
			continue
		case !in:
			rest = append(rest, arg)
			continue
		case arg == "--":
			in = false
			continue
		case ignoredFlags[arg]:
			continue
		}
		if i+1 >= len(argv) {
			return a, nil, fmt.Errorf("%w: %s needs a value", ErrArgs, arg)
		}
		i++
		if err := a.parseFlag(arg, argv[i]); err != nil {
			return a, nil, err
		}
	}
	return a, rest, nil
}

func (a *Args) parseFlag(flag, value string) error {
	switch flag {
	case "-r", "--remap":
		r, err := parseRemap(value)
		if err != nil {
			return err
		}
		a.Remaps = append(a.Remaps, r)
	case "-p", "--param":
		o, err := parseParamRule(value)
		if err != nil {
			return err
		}
		a.Params = append(a.Params, o)
	case "--params-file":
		text, err := os.ReadFile(value)
		if err != nil {
			return fmt.Errorf("%w: --params-file: %v", ErrArgs, err)
		}
		overrides, err := ParseParamsFile(string(text), value)
		if err != nil {
			return err
		}
		a.Params = append(a.Params, overrides...)
	case "-e", "--enclave":
		// rcl_init checks the enclave as a namespace (rcl_validate_enclave_name).
		if err := ValidateNamespace(value); err != nil {
			return fmt.Errorf("%w: --enclave: %v", ErrArgs, err)
		}
		a.Enclave = value
	case "--log-level":
		return a.parseLogLevel(value)
	default:
		if ignoredValueFlags[flag] {
			return nil
		}
		return fmt.Errorf("%w: unknown ROS argument %q", ErrArgs, flag)
	}
	return nil
}

var remapToken = regexp.MustCompile(`^(([a-zA-Z](_)?)|_)([0-9a-zA-Z](_)?)*$`)

// parseRemap parses [node:]from:=to, with from optionally prefixed by
// rostopic:// or rosservice://.
func parseRemap(rule string) (Remap, error) {
	lhs, to, ok := strings.Cut(rule, ":=")
	if !ok || lhs == "" || to == "" {
		return Remap{}, fmt.Errorf("%w: remap %q: want [node:]from:=to", ErrArgs, rule)
	}
	// rcl's order: [node:][rostopic://|rosservice://]match.
	var r Remap
	if !hasScheme(lhs) {
		if node, from, ok := strings.Cut(lhs, ":"); ok {
			if ValidateNodeName(node) != nil {
				return Remap{}, fmt.Errorf("%w: remap %q: invalid node name %q", ErrArgs, rule, node)
			}
			r.Node, lhs = node, from
		}
	}
	for _, scheme := range []string{"rostopic://", "rosservice://"} {
		if strings.HasPrefix(lhs, scheme) {
			r.Service = scheme == "rosservice://"
			lhs = strings.TrimPrefix(lhs, scheme)
		}
	}
	r.From, r.To = lhs, to
	switch {
	case strings.ContainsAny(lhs+to, "*\\"):
		return Remap{}, fmt.Errorf("%w: remap %q: wildcards and back-references are not implemented (nor are they in rcl)", ErrArgs, rule)
	case lhs == "__ns" || lhs == "__node" || lhs == "__name":
		if lhs == "__name" {
			r.From = "__node"
		}
		return r, validateSpecialRemap(rule, r)
	}
	for _, name := range []string{lhs, to} {
		if err := validateRemapName(name); err != nil {
			return Remap{}, fmt.Errorf("%w: remap %q: %v", ErrArgs, rule, err)
		}
	}
	if err := validateInput(to); err != nil {
		return Remap{}, fmt.Errorf("%w: remap %q: %v", ErrArgs, rule, err)
	}
	return r, nil
}

// hasScheme reports whether a remap's left side starts with rostopic://
// or rosservice://.
func hasScheme(lhs string) bool {
	return strings.HasPrefix(lhs, "rostopic://") || strings.HasPrefix(lhs, "rosservice://")
}

// validateRemapName checks a remap rule's match or replacement against
// rcl's grammar: ["~/" | "/"] token ("/" token)*.
func validateRemapName(name string) error {
	body := name
	switch {
	case strings.HasPrefix(name, "~/"):
		body = name[2:]
	case strings.HasPrefix(name, "/"):
		body = name[1:]
	}
	for _, tok := range strings.Split(body, "/") {
		if !remapToken.MatchString(tok) {
			return fmt.Errorf("invalid name token %q in %q", tok, name)
		}
	}
	return nil
}

func validateSpecialRemap(rule string, r Remap) error {
	if r.From == "__node" {
		if err := ValidateNodeName(r.To); err != nil {
			return fmt.Errorf("%w: remap %q: %v", ErrArgs, rule, err)
		}
		return nil
	}
	if err := ValidateNamespace(r.To); err != nil {
		return fmt.Errorf("%w: remap %q: namespace must be fully qualified: %v", ErrArgs, rule, err)
	}
	return nil
}

// parseLogLevel parses LEVEL or logger:=LEVEL.
func (a *Args) parseLogLevel(v string) error {
	name, level, named := strings.Cut(v, ":=")
	if !named {
		level = v
	}
	if !validLogLevel(level) {
		return fmt.Errorf("%w: --log-level %q: want DEBUG, INFO, WARN, ERROR, FATAL or UNSET", ErrArgs, v)
	}
	if named && name == "" {
		return fmt.Errorf("%w: --log-level %q: want [logger:=]LEVEL, the logger named", ErrArgs, v)
	}
	if !named {
		a.LogLevel = strings.ToLower(level)
		return nil
	}
	if a.LoggerLevels == nil {
		a.LoggerLevels = map[string]string{}
	}
	a.LoggerLevels[name] = strings.ToLower(level)
	return nil
}

func validLogLevel(s string) bool {
	switch strings.ToUpper(s) {
	case "UNSET", "DEBUG", "INFO", "WARN", "ERROR", "FATAL":
		return true
	}
	return false
}

// remapped returns what the rules make of the fully qualified name of a
// topic of node in ns: the first matching rule wins.
func remapped(rules []Remap, fq, node, ns string) (string, error) {
	for _, r := range rules {
		if r.Service || r.From == "__ns" || r.From == "__node" || (r.Node != "" && r.Node != node) {
			continue
		}
		from, err := ExpandTopicName(r.From, node, ns)
		if err != nil || from != fq {
			continue
		}
		return ExpandTopicName(r.To, node, ns)
	}
	return fq, nil
}

// remapNode applies __node and __ns rules to a node's name and namespace.
func remapNode(rules []Remap, name, ns string) (string, string) {
	original := name
	for _, r := range rules {
		if r.From == "__node" && (r.Node == "" || r.Node == original) {
			name = r.To
			break
		}
	}
	for _, r := range rules {
		if r.From == "__ns" && (r.Node == "" || r.Node == name) {
			ns = r.To
			break
		}
	}
	return name, ns
}
