package msgdef

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var (
	typeRE      = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*(?:/[A-Za-z][A-Za-z0-9_]*)?)(?:<=([0-9]+))?(?:\[(<=)?([0-9]*)\])?$`)
	fieldNameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	constNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	typeNameRE  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
)

// Parse parses the text of pkg/msg/name.msg. References to types without a
// package resolve to pkg.
func Parse(pkg, name, text string) (*Spec, error) {
	if !typeNameRE.MatchString(name) {
		return nil, fmt.Errorf("%s/%s: invalid type name", pkg, name)
	}
	s := &Spec{Package: pkg, Name: name}
	lines := strings.Split(strings.ReplaceAll(text, "\t", " "), "\n")
	var skip int
	s.Comment, skip = fileComment(lines)
	var pending []string // comment lines waiting for the next field or constant
	names := map[string]bool{}
	for i, raw := range lines[skip:] {
		line, comment, hasComment := strings.Cut(raw, "#")
		line = strings.TrimSpace(line)
		comment = strings.TrimSpace(strings.TrimLeft(comment, "#"))
		if line == "" {
			if hasComment {
				pending = append(pending, comment)
			}
			continue
		}
		doc := strings.Join(append(pending, comment), "\n")
		pending = nil
		if err := s.parseLine(line, strings.TrimSpace(doc), names); err != nil {
			return nil, fmt.Errorf("%s/msg/%s.msg:%d: %w", pkg, name, skip+i+1, err)
		}
	}
	return s, nil
}

// fileComment returns the leading comment lines, which rosidl ends at the
// first line that is not a comment, and how many lines they take.
func fileComment(lines []string) (string, int) {
	var doc []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "#") {
			break
		}
		doc = append(doc, strings.TrimSpace(strings.TrimLeft(t, "#")))
	}
	return strings.TrimSpace(strings.Join(doc, "\n")), len(doc)
}

func (s *Spec) parseLine(line, doc string, names map[string]bool) error {
	typ, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return fmt.Errorf("%q: want TYPE NAME", line)
	}
	if name, value, isConst := strings.Cut(rest, "="); isConst {
		return s.addConstant(typ, strings.TrimSpace(name), strings.TrimSpace(value), doc, names)
	}
	name, def, _ := strings.Cut(rest, " ")
	return s.addField(typ, name, strings.TrimSpace(def), doc, names)
}

func (s *Spec) addConstant(typ, name, value, doc string, names map[string]bool) error {
	if !constNameRE.MatchString(name) {
		return fmt.Errorf("invalid constant name %q", name)
	}
	t, err := ParseType(s.Package, typ)
	if err != nil {
		return err
	}
	if !t.IsPrimitive() || t.Array != Single || t.Name == "wstring" {
		return fmt.Errorf("constant %s: type %s cannot be a constant", name, typ)
	}
	if _, err := ParseValue(t, value); err != nil {
		return fmt.Errorf("constant %s: %w", name, err)
	}
	if names[name] {
		return fmt.Errorf("duplicate name %s", name)
	}
	names[name] = true
	s.Constants = append(s.Constants, Constant{Type: typ, Name: name, Value: value, Comment: doc})
	return nil
}

func (s *Spec) addField(typ, name, def, doc string, names map[string]bool) error {
	if !fieldNameRE.MatchString(name) {
		return fmt.Errorf("invalid field name %q", name)
	}
	t, err := ParseType(s.Package, typ)
	if err != nil {
		return err
	}
	if def != "" {
		if !t.IsPrimitive() {
			return fmt.Errorf("field %s: a message-typed field cannot have a default", name)
		}
		if _, err := ParseDefault(t, def); err != nil {
			return fmt.Errorf("field %s: default: %w", name, err)
		}
	}
	if names[name] {
		return fmt.Errorf("duplicate name %s", name)
	}
	names[name] = true
	s.Fields = append(s.Fields, Field{Name: name, Type: t, Default: def, Comment: doc})
	return nil
}

// ParseType parses a field type such as "float64[36]", "string<=256" or
// "Point[]". A message type without a package resolves to pkg.
func ParseType(pkg, text string) (Type, error) {
	m := typeRE.FindStringSubmatch(text)
	if m == nil {
		return Type{}, fmt.Errorf("invalid type %q", text)
	}
	t := Type{Name: m[1]}
	if _, prim := Primitives[t.Name]; !prim {
		if !strings.Contains(t.Name, "/") {
			t.Name = pkg + "/" + t.Name
		}
		if !typeNameRE.MatchString(t.Short()) {
			return Type{}, fmt.Errorf("invalid type %q", text)
		}
	}
	if m[2] != "" {
		if !t.IsString() {
			return Type{}, fmt.Errorf("type %q: only strings take a <= bound", text)
		}
		n, err := strconv.Atoi(m[2])
		if err != nil || n <= 0 {
			return Type{}, fmt.Errorf("type %q: invalid string bound", text)
		}
		t.StringBound = n
	}
	switch {
	case !strings.HasSuffix(text, "]"):
		t.Array = Single
	case m[4] == "" && m[3] == "":
		t.Array = Unbounded
	case m[4] == "":
		return Type{}, fmt.Errorf("type %q: missing bound", text)
	default:
		n, err := strconv.Atoi(m[4])
		if err != nil || n <= 0 {
			return Type{}, fmt.Errorf("type %q: invalid array size", text)
		}
		t.Array, t.Len = Fixed, n
		if m[3] != "" {
			t.Array = Bounded
		}
	}
	return t, nil
}
