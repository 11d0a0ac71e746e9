package main

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/navnode/navnode/msgs/internal/msgdef"
)

// source accumulates Go source text.
type source struct{ bytes.Buffer }

func (s *source) p(format string, args ...any) {
	fmt.Fprintf(s, format, args...)
	s.WriteByte('\n')
}

// comment writes text as // comment lines.
func (s *source) comment(text string) {
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line = strings.TrimRight(line, " "); line == "" {
			s.p("//")
		} else {
			s.p("// %s", line)
		}
	}
}

// messageFile returns the Go source of one message type.
func (g *generator) messageFile(j *job, spec *msgdef.Spec) ([]byte, error) {
	fields, imports, err := g.fields(j, spec)
	if err != nil {
		return nil, err
	}
	if _, err := g.hasDefaults(j, spec); err != nil {
		return nil, err
	}
	hash := ""
	if !g.noHash[j.set] {
		desc, err := g.sets[j.set].Describe(spec)
		if err != nil {
			return nil, err
		}
		hash = desc.Hash()
	}
	name := spec.Name
	var s source
	s.p("%s from %s/%s/msg/%s.msg. DO NOT EDIT.\n", genHeader, j.set, spec.Package, name)
	s.p("package %s\n", j.pkg)
	s.p("import (")
	for _, path := range imports {
		s.p("%q", path)
	}
	s.p(")\n")
	if err := g.constants(&s, spec); err != nil {
		return nil, err
	}
	g.structDecl(&s, spec, fields)
	if err := g.constructor(&s, spec, fields); err != nil {
		return nil, err
	}
	s.p("var _ msgs.Message = (*%s)(nil)\n", name)
	s.p("// MsgType returns the names and type hash of %s.", name)
	s.p("func (*%s) MsgType() msgs.TypeInfo {", name)
	s.p("return msgs.TypeInfo{Name: %q, DDSName: %q, Hash: %q}", spec.FullName(),
		spec.Package+"::msg::dds_::"+name+"_", hash)
	s.p("}\n")
	s.p("// AppendCDR appends m to dst as a CDR payload, encapsulation header first.")
	s.p("func (m *%s) AppendCDR(dst []byte) ([]byte, error) {", name)
	s.p("w := cdr.NewWriter(dst)\nm.EncodeCDR(&w)\nreturn w.Finish()\n}\n")
	s.p("// UnmarshalCDR decodes a CDR payload into m, reusing the slices m holds.")
	s.p("func (m *%s) UnmarshalCDR(payload []byte) error {", name)
	s.p("r := cdr.NewReader(payload)\nif r.Ok() {\nm.DecodeCDR(&r)\n}\nreturn r.Finish(%q)\n}\n", spec.FullName())
	s.p("// EncodeCDR writes the fields of m to w.")
	s.p("func (m *%s) EncodeCDR(w *cdr.Writer) {", name)
	if len(fields) == 0 {
		s.p("w.Uint8(0) // %s", msgdef.DummyField)
	}
	for _, f := range fields {
		s.p("%s", strings.Join(f.encode(), "\n"))
	}
	s.p("}\n")
	s.p("// DecodeCDR reads the fields of m from r.")
	s.p("func (m *%s) DecodeCDR(r *cdr.Reader) {", name)
	if len(fields) == 0 {
		s.p("r.Uint8() // %s", msgdef.DummyField)
	}
	for _, f := range fields {
		s.p("%s", strings.Join(f.decode(), "\n"))
	}
	s.p("}")
	return s.Bytes(), nil
}

// fields resolves the fields of spec and the imports they need.
func (g *generator) fields(j *job, spec *msgdef.Spec) ([]*field, []string, error) {
	imports := map[string]bool{g.module: true, g.module + "/cdr": true}
	var out []*field
	named := map[string]string{} // Go field name → ROS field name
	for _, mf := range spec.Fields {
		f := &field{Field: mf, goName: goName(mf.Name), ros: spec.FullName()}
		if methodNames[f.goName] {
			return nil, nil, fmt.Errorf("field %s would shadow method %s", mf.Name, f.goName)
		}
		if other, ok := named[f.goName]; ok {
			return nil, nil, fmt.Errorf("fields %s and %s would both be %s in Go", other, mf.Name, f.goName)
		}
		named[f.goName] = mf.Name
		if err := g.resolveElem(j, f, imports); err != nil {
			return nil, nil, fmt.Errorf("field %s: %w", mf.Name, err)
		}
		out = append(out, f)
	}
	return out, slices.Sorted(maps.Keys(imports)), nil
}

func (g *generator) resolveElem(j *job, f *field, imports map[string]bool) error {
	if p, ok := primitiveGo[f.Type.Name]; ok {
		f.elem, f.call = p.goType, p.call
		f.minElem = max(msgdef.Primitives[f.Type.Name].Size, 1)
		if f.Type.IsString() {
			f.minElem = 4
		}
		return nil
	}
	if f.Type.Name == "wstring" {
		return fmt.Errorf("wstring is not supported")
	}
	target, dep, err := g.importOf(j, f.Type.Name)
	if err != nil {
		return err
	}
	f.nested, f.elem = true, dep.Name
	qual := ""
	if target != j {
		imports[g.importPath(target)] = true
		qual = target.pkg + "."
		f.elem = qual + dep.Name
	}
	f.minElem = max(g.minSize(j, dep), 1)
	if ok, err := g.hasDefaults(j, dep); err != nil {
		return err
	} else if ok {
		f.newFunc = qual + "New" + dep.Name
	}
	return nil
}

// minSize returns a lower bound of the encoded size of a spec's body.
func (g *generator) minSize(j *job, spec *msgdef.Spec) int {
	if len(spec.Fields) == 0 {
		return 1
	}
	n := 0
	for _, f := range spec.Fields {
		var elem int
		switch {
		case f.Type.Array == msgdef.Unbounded || f.Type.Array == msgdef.Bounded:
			n += 4
			continue
		case f.Type.IsString():
			elem = 4
		case f.Type.IsPrimitive():
			elem = msgdef.Primitives[f.Type.Name].Size
		default:
			dep, err := g.sets[j.set].Lookup(f.Type.Name)
			if err != nil {
				return n // resolveElem reports the error
			}
			elem = g.minSize(j, dep)
		}
		if f.Type.Array == msgdef.Fixed {
			elem *= f.Type.Len
		}
		n += elem
	}
	return n
}

func (g *generator) constants(s *source, spec *msgdef.Spec) error {
	if len(spec.Constants) == 0 {
		return nil
	}
	s.p("// Constants of %s.", spec.Name)
	s.p("const (")
	for _, c := range spec.Constants {
		t := msgdef.Type{Name: c.Type}
		v, err := msgdef.ParseValue(t, c.Value)
		if err != nil {
			return fmt.Errorf("constant %s: %w", c.Name, err)
		}
		if c.Comment != "" {
			s.comment(c.Comment)
		}
		s.p("%s_%s %s = %s", spec.Name, c.Name, primitiveGo[c.Type].goType, literal(v))
	}
	s.p(")\n")
	return nil
}

func (g *generator) structDecl(s *source, spec *msgdef.Spec, fields []*field) {
	s.p("// %s is the ROS 2 message %s.", spec.Name, spec.FullName())
	if spec.Comment != "" {
		s.p("//")
		s.comment(spec.Comment)
	}
	if g.defaults[spec.Ref()] {
		s.p("//\n// Its zero value lacks the defaults of the definition; New%s sets them.", spec.Name)
	}
	s.p("type %s struct {", spec.Name)
	for _, f := range fields {
		if f.Comment != "" {
			s.comment(f.Comment)
		}
		s.p("%s %s %s", f.goName, f.goType(), f.tag())
	}
	s.p("}\n")
}

// constructor writes NewT for a type whose fields, or nested fields, declare
// default values.
func (g *generator) constructor(s *source, spec *msgdef.Spec, fields []*field) error {
	if !g.defaults[spec.Ref()] {
		return nil
	}
	s.p("// New%s returns a %s holding the default values of its definition.", spec.Name, spec.Name)
	s.p("func New%s() %s {", spec.Name, spec.Name)
	s.p("var m %s", spec.Name)
	for _, f := range fields {
		switch {
		case f.Default != "":
			v, err := msgdef.ParseDefault(f.Type, f.Default)
			if err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
			s.p("m.%s = %s", f.goName, f.defaultLiteral(v))
		case f.newFunc != "" && f.Type.Array == msgdef.Single:
			s.p("m.%s = %s()", f.goName, f.newFunc)
		case f.newFunc != "" && f.Type.Array == msgdef.Fixed:
			s.p("for i := range m.%s {\nm.%s[i] = %s()\n}", f.goName, f.goName, f.newFunc)
		}
	}
	s.p("return m\n}\n")
	return nil
}

// hasDefaults reports whether spec, or a message it holds by value, declares
// default values. The answer is memoized in g.defaults.
func (g *generator) hasDefaults(j *job, spec *msgdef.Spec) (bool, error) {
	if v, ok := g.defaults[spec.Ref()]; ok {
		return v, nil
	}
	has := false
	for _, f := range spec.Fields {
		if f.Default != "" {
			has = true
			continue
		}
		if f.Type.IsPrimitive() || f.Type.Array == msgdef.Unbounded || f.Type.Array == msgdef.Bounded {
			continue
		}
		dep, err := g.sets[j.set].Lookup(f.Type.Name)
		if err != nil {
			return false, err
		}
		if d, err := g.hasDefaults(j, dep); err != nil {
			return false, err
		} else if d {
			has = true
		}
	}
	g.defaults[spec.Ref()] = has
	return has, nil
}

func (f *field) defaultLiteral(v any) string {
	list, ok := v.([]any)
	if !ok {
		return literal(v)
	}
	items := make([]string, len(list))
	for i, item := range list {
		items[i] = literal(item)
	}
	return f.goType() + "{" + strings.Join(items, ", ") + "}"
}

// literal formats a value from msgdef.ParseValue as Go source.
func literal(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return strconv.Quote(v)
	}
	panic(fmt.Sprintf("msgs/gen: unexpected value %T", v))
}
