package ros

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/navnode/navnode/internal/wholeyaml"
)

// Override is one parameter value given on the command line or in a
// parameters file, for the nodes its key matches.
type Override struct {
	NodeKey string // "/**", "navnode", "/ns/node", "/*/node" ... as written (rcl keeps "navnode" and "/navnode" apart)
	Name    string // dotted parameter name
	Value   any    // bool, int64, float64, string, or a slice of one of them
	Source  string // where it came from, for messages
}

// parseParamRule parses -p [node:]name:=value; the value is typed as rcl
// types YAML scalars.
func parseParamRule(rule string) (Override, error) {
	lhs, text, ok := strings.Cut(rule, ":=")
	if !ok || lhs == "" || text == "" {
		return Override{}, fmt.Errorf("%w: -p %q: want [node:]name:=value", ErrArgs, rule)
	}
	o := Override{NodeKey: "/**", Name: lhs, Source: "-p " + rule}
	if node, name, ok := strings.Cut(lhs, ":"); ok {
		key := node // a node name, or a path of names and wildcards
		for _, tok := range strings.Split(strings.TrimPrefix(key, "/"), "/") {
			if !remapToken.MatchString(tok) && tok != "*" && tok != "**" {
				return Override{}, fmt.Errorf("%w: -p %q: invalid node name %q", ErrArgs, rule, node)
			}
		}
		o.NodeKey, o.Name = key, name
	}
	if err := validateParamName(o.Name); err != nil {
		return Override{}, fmt.Errorf("%w: -p %q: %v", ErrArgs, rule, err)
	}
	var doc yaml.Node
	if err := wholeyaml.Unmarshal(text, &doc); err != nil || len(doc.Content) != 1 {
		return Override{}, fmt.Errorf("%w: -p %q: value is not a YAML scalar or sequence", ErrArgs, rule)
	}
	v, err := paramValue(doc.Content[0])
	if err != nil {
		return Override{}, fmt.Errorf("%w: -p %q: %v", ErrArgs, rule, err)
	}
	o.Value = v
	return o, nil
}

// validateParamName checks a parameter name against rcl's grammar for -p:
// part ("." part)*, each part a run of tokens and slashes, so that the
// QoS override names (qos_overrides./scan.subscription.depth) are names.
// rcl's lexer splits a__b into the tokens a_ and _b, so a run of
// underscores is allowed, unlike in remap names.
func validateParamName(name string) error {
	for _, part := range strings.Split(name, ".") {
		if part == "" {
			return fmt.Errorf("invalid parameter name %q", name)
		}
		for _, tok := range strings.Split(part, "/") {
			if tok != "" && !nameToken.MatchString(tok) {
				return fmt.Errorf("invalid parameter name %q", name)
			}
		}
	}
	return nil
}

// ParseParamsFile parses a ROS 2 parameters file: node keys (nested or as
// slash paths, with /* and /** wildcards) holding ros__parameters maps.
// source names the file in messages. A file of several YAML documents
// (split by ---) is read whole, in order, as rcl_yaml_param_parser reads
// it: a later document's value of a parameter overrides an earlier one's.
func ParseParamsFile(text, source string) ([]Override, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var out []Override
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: params file %s: %v", ErrArgs, source, err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		if err := walkNodeKeys(doc.Content[0], "", source, &out); err != nil {
			return nil, err
		}
	}
}

func walkNodeKeys(m *yaml.Node, path, source string, out *[]Override) error {
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%w: params file %s line %d: expected a map of node names", ErrArgs, source, m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i].Value, m.Content[i+1]
		if key == "ros__parameters" {
			if path == "" {
				return fmt.Errorf("%w: params file %s line %d: ros__parameters outside a node key", ErrArgs, source, m.Content[i].Line)
			}
			if err := validateNodeKey(path); err != nil {
				return fmt.Errorf("%w: params file %s line %d: %v", ErrArgs, source, m.Content[i].Line, err)
			}
			if err := walkParams(val, path, "", source, out); err != nil {
				return err
			}
			continue
		}
		if err := walkNodeKeys(val, joinNodeKey(path, key), source, out); err != nil {
			return err
		}
	}
	return nil
}

// joinNodeKey appends a file's key to the node key above it, as rcl's
// parser does: "/" between them (one: the root key "/" and "navnode"
// make "/navnode"), and a leading "/" only if the file's first key has
// one.
func joinNodeKey(path, key string) string {
	name := strings.Trim(key, "/")
	switch {
	case path != "":
		return strings.TrimSuffix(path, "/") + "/" + name
	case strings.HasPrefix(key, "/"):
		return "/" + name
	}
	return name
}

// nameToken is a token of a node name or namespace, as rmw validates
// them, and of a parameter name.
var nameToken = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// validateNodeKey checks a params file's node key as rcl's parser does
// before it takes the parameters under it: each token a valid name (no
// leading digit, letters, digits and _ only) or a whole * or ** wildcard,
// none empty. A key that breaks these would match no node, and its
// parameters would be lost without a word.
func validateNodeKey(key string) error {
	if key == "/" {
		return fmt.Errorf("node key %q names no node", key)
	}
	for _, tok := range strings.Split(strings.TrimPrefix(key, "/"), "/") {
		if tok != "*" && tok != "**" && !nameToken.MatchString(tok) {
			return fmt.Errorf("node key %q: %q is not a node name, a namespace or a whole * or ** wildcard", key, tok)
		}
	}
	return nil
}

func walkParams(m *yaml.Node, nodeKey, prefix, source string, out *[]Override) error {
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%w: params file %s line %d: ros__parameters must be a map", ErrArgs, source, m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		name, val := prefix+m.Content[i].Value, m.Content[i+1]
		if val.Kind == yaml.MappingNode {
			if err := walkParams(val, nodeKey, name+".", source, out); err != nil {
				return err
			}
			continue
		}
		v, err := paramValue(val)
		if err != nil {
			return fmt.Errorf("%w: params file %s line %d: %s: %v", ErrArgs, source, val.Line, name, err)
		}
		*out = append(*out, Override{NodeKey: nodeKey, Name: name, Value: v,
			Source: fmt.Sprintf("%s line %d", source, val.Line)})
	}
	return nil
}

// paramValue types a YAML scalar or sequence the way rcl_yaml_param_parser
// does: quoted text is a string; true/yes/on and false/no/off (any case
// YAML allows) are bools; whole-string C integers (0x.., 0.. octal) are
// int64; C floats and .inf/.nan are float64; anything else is a string.
// A sequence takes the type of its elements, which must agree.
func paramValue(n *yaml.Node) (any, error) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0:
		return nil, fmt.Errorf("no value at line %d", n.Line) // as rcl: an empty plain scalar is no value
	case n.Kind == yaml.ScalarNode:
		return scalarValue(n), nil
	case n.Kind == yaml.SequenceNode:
		return sequenceValue(n)
	}
	return nil, fmt.Errorf("unsupported YAML value at line %d", n.Line)
}

func scalarValue(n *yaml.Node) any {
	s := n.Value
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 || n.Style&yaml.TaggedStyle != 0 && n.Tag == "!!str" {
		return s
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false
	}
	if i, ok := cInt(s); ok {
		return i
	}
	if f, ok := cFloat(s); ok {
		return f
	}
	return s
}

var cIntRE = regexp.MustCompile(`^[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$`)

// cInt parses s as strtoll(s, NULL, 0) would, whole string only.
func cInt(s string) (int64, bool) {
	if !cIntRE.MatchString(s) {
		return 0, false
	}
	sign, body := "", s
	if s[0] == '+' || s[0] == '-' {
		sign, body = s[:1], s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X"):
		base, body = 16, body[2:]
	case len(body) > 1 && body[0] == '0':
		base, body = 8, body[1:]
	}
	v, err := strconv.ParseInt(sign+body, base, 64)
	return v, err == nil
}

// cUlongPrefix reads an unsigned number from the front of s as
// strtoul(s, &end, 0) does: white space, a sign, then decimal, 0x hex or
// 0 octal digits. It returns the number, the text after it (all of s when
// there is no number), and false when the number does not fit 64 bits or
// is negative (strtoul wraps those; no caller wants them).
func cUlongPrefix(s string) (v uint64, rest string, ok bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	base := uint64(10)
	switch {
	case len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X") && digitValue(t[2]) < 16:
		base, t = 16, t[2:]
	case t != "" && t[0] == '0':
		base = 8
	}
	n := 0
	for ; n < len(t) && digitValue(t[n]) < base; n++ {
		d := digitValue(t[n])
		if v > (math.MaxUint64-d)/base {
			return 0, t[n:], false
		}
		v = v*base + d
	}
	if n == 0 {
		return 0, s, true
	}
	return v, t[n:], !neg || v == 0
}

// digitValue is the value of hex digit c, or 16 for another byte.
func digitValue(c byte) uint64 {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0')
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 16
}

var cFloatRE = regexp.MustCompile(`^[+-]?(` +
	`([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?` + // decimal
	`|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?` + // hexadecimal
	`|(?i:nan|inf|infinity))$`)

// cFloat parses s as rcl_yaml_param_parser does: YAML's .nan and .inf in
// the spellings of its fixed list, else the whole string as strtod reads
// it (decimal or hexadecimal, nan, inf and infinity in any case), out of
// range refused: too large, or too small (see underflows), where strtod
// sets ERANGE and rcl takes the text as a string.
func cFloat(s string) (float64, bool) {
	switch s {
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	}
	if !cFloatRE.MatchString(s) {
		return 0, false
	}
	body := strings.TrimLeft(s, "+-")
	if strings.EqualFold(body, "nan") { // strtod takes a sign here; ParseFloat does not
		return math.NaN(), true
	}
	if len(body) > 1 && (body[1] == 'x' || body[1] == 'X') && !strings.ContainsAny(body, "pP") {
		s += "p0" // strtod's hexadecimal exponent is optional; ParseFloat's is not
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || underflows(s, v) {
		return 0, false
	}
	return v, true
}

// underflows reports whether glibc's strtod sets ERANGE for underflow on
// s, which it reads as v: when s is not exactly v and is tiny, below the
// smallest normal double once rounded to 53 bits with no lower limit on
// the exponent. So 1e-400 (read as 0) and 1e-310 (a subnormal) underflow,
// 0x1p-1074 (exactly the least subnormal) and 0e-400 do not, and
// 2.2250738585072012e-308 does though strtod rounds it up to the smallest
// normal: the cases of TestParamFloatUnderflow, taken from glibc.
func underflows(s string, v float64) bool {
	if math.Abs(v) > minNormal {
		return false
	}
	if v == 0 { // the exponent may be huge: look at the digits only
		mantissa := strings.ToLower(strings.TrimLeft(s, "+-"))
		if strings.HasPrefix(mantissa, "0x") {
			mantissa, _, _ = strings.Cut(mantissa[2:], "p")
		} else {
			mantissa, _, _ = strings.Cut(mantissa, "e")
		}
		return strings.ContainsAny(mantissa, "123456789abcdef")
	}
	exact, ok := new(big.Rat).SetString(s)
	if !ok || exact.Cmp(new(big.Rat).SetFloat64(v)) == 0 {
		return false
	}
	rounded := new(big.Float).SetPrec(53).SetRat(exact)
	return rounded.Abs(rounded).Cmp(big.NewFloat(minNormal)) < 0
}

// minNormal is the smallest normal float64, 2⁻¹⁰²².
const minNormal = 0x1p-1022

func sequenceValue(n *yaml.Node) (any, error) {
	if len(n.Content) == 0 {
		return []string{}, nil // rcl gives an empty string array
	}
	var first string
	vals := make([]any, len(n.Content))
	for i, item := range n.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("nested sequences are not parameter values")
		}
		vals[i] = scalarValue(item)
		kind := typeName(vals[i])
		if i == 0 {
			first = kind
		} else if kind != first {
			return nil, fmt.Errorf("sequence should be of same type (element %d is %s, element 0 is %s)", i, kind, first)
		}
	}
	switch first {
	case "bool":
		return collect[bool](vals), nil
	case "integer":
		return collect[int64](vals), nil
	case "double":
		return collect[float64](vals), nil
	}
	return collect[string](vals), nil
}

func collect[T any](vals []any) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = v.(T)
	}
	return out
}

// typeName names a parameter value's type as ROS 2 does.
func typeName(v any) string {
	switch v.(type) {
	case bool:
		return "bool"
	case int64:
		return "integer"
	case float64:
		return "double"
	case string:
		return "string"
	case []bool:
		return "bool_array"
	case []int64:
		return "integer_array"
	case []float64:
		return "double_array"
	case []string:
		return "string_array"
	}
	return fmt.Sprintf("%T", v)
}

// matchesNode reports whether a node key of a parameters file applies to
// the node with fully qualified name fq: the key gains a leading "/" if
// it has none, then "/*" matches one name token, "/**" any number, as
// rclcpp's parameter_map_from and is_node_name_matched.
func matchesNode(key, fq string) bool {
	key = "/" + strings.TrimPrefix(key, "/")
	var re strings.Builder
	re.WriteString("^")
	for rest := key; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "/**"):
			re.WriteString(`(/\w+)*`)
			rest = rest[3:]
		case strings.HasPrefix(rest, "/*"):
			re.WriteString(`(/\w+)`)
			rest = rest[2:]
		default:
			re.WriteString(regexp.QuoteMeta(rest[:1]))
			rest = rest[1:]
		}
	}
	re.WriteString("$")
	ok, err := regexp.MatchString(re.String(), fq)
	return err == nil && ok
}
