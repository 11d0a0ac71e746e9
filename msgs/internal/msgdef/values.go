package msgdef

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var intBits = map[string]int{
	"int8": 8, "int16": 16, "int32": 32, "int64": 64,
	"uint8": 8, "char": 8, "byte": 8, "uint16": 16, "uint32": 32, "uint64": 64,
}

// ParseValue parses the text of a constant or of a single default value of
// primitive type t. It returns a bool, int64, uint64, float64 or string.
func ParseValue(t Type, text string) (any, error) {
	text = strings.TrimSpace(text)
	switch name := t.Name; {
	case name == "bool":
		switch strings.ToLower(text) {
		case "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		}
		return nil, fmt.Errorf("invalid bool %q", text)
	case name == "float32" || name == "float64":
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || name == "float32" && math.Abs(v) > math.MaxFloat32 {
			return nil, fmt.Errorf("invalid %s %q", name, text)
		}
		return v, nil
	case t.IsString():
		s, err := unquote(text)
		if err != nil {
			return nil, err
		}
		if t.StringBound > 0 && len(s) > t.StringBound {
			return nil, fmt.Errorf("string %q longer than its bound %d", s, t.StringBound)
		}
		return s, nil
	case strings.HasPrefix(name, "u") || name == "char" || name == "byte":
		v, err := strconv.ParseUint(text, 10, intBits[name])
		if err != nil {
			return nil, fmt.Errorf("invalid %s %q", name, text)
		}
		return v, nil
	case intBits[name] > 0:
		v, err := strconv.ParseInt(text, 10, intBits[name])
		if err != nil {
			return nil, fmt.Errorf("invalid %s %q", name, text)
		}
		return v, nil
	}
	return nil, fmt.Errorf("type %s takes no value", t.Name)
}

// ParseDefault parses a field's default value: a single value, or for an
// array field a bracketed, comma-separated list, whose quoted strings may
// hold commas.
func ParseDefault(t Type, text string) (any, error) {
	if t.Array == Single {
		return ParseValue(t, text)
	}
	if !strings.HasPrefix(text, "[") || !strings.HasSuffix(text, "]") {
		return nil, fmt.Errorf("array default %q is not in brackets", text)
	}
	body := strings.TrimSpace(text[1 : len(text)-1])
	var list []any
	if body != "" {
		items, err := splitList(body)
		if err != nil {
			return nil, err
		}
		for _, item := range items {
			v, err := ParseValue(Type{Name: t.Name, StringBound: t.StringBound}, item)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
	}
	if t.Array == Fixed && len(list) != t.Len || t.Array == Bounded && len(list) > t.Len {
		return nil, fmt.Errorf("array default has %d elements for %d", len(list), t.Len)
	}
	return list, nil
}

// splitList splits the body of a bracketed list at the commas outside
// quotes; a backslash escapes the quote it stands before.
func splitList(body string) ([]string, error) {
	var items []string
	var quote byte
	from := 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case quote != 0 && c == '\\':
			i++ // the escaped character cannot close the quote
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == ',':
			items, from = append(items, body[from:i]), i+1
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("list [%s] has an unclosed quote", body)
	}
	return append(items, body[from:]), nil
}

// unquote strips one pair of matching outer quotes, as rosidl does; an
// unquoted string is taken as written.
func unquote(s string) (string, error) {
	for _, q := range []string{`"`, `'`} {
		if len(s) >= 2 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			inner := s[1 : len(s)-1]
			if strings.Contains(strings.ReplaceAll(inner, `\`+q, ""), q) {
				return "", fmt.Errorf("string %s has an unescaped inner quote", s)
			}
			return strings.ReplaceAll(inner, `\`+q, q), nil
		}
	}
	return s, nil
}
