package msgdef

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// DummyField is the field rosidl adds to a message that has none.
const DummyField = "structure_needs_at_least_one_member"

// FieldType is type_description_interfaces/msg/FieldType.
type FieldType struct {
	TypeID         uint8
	Capacity       uint64 // N of T[N] or T[<=N]
	StringCapacity uint64 // N of string<=N
	NestedTypeName string // e.g. "geometry_msgs/msg/Point"; empty for primitives
}

// FieldDescription is type_description_interfaces/msg/Field.
type FieldDescription struct {
	Name         string
	Type         FieldType
	DefaultValue string
}

// IndividualTypeDescription is type_description_interfaces/msg/IndividualTypeDescription.
type IndividualTypeDescription struct {
	TypeName string
	Fields   []FieldDescription
}

// TypeDescription is type_description_interfaces/msg/TypeDescription: a
// type and every type it references, sorted by name.
type TypeDescription struct {
	Type       IndividualTypeDescription
	Referenced []IndividualTypeDescription
}

// Describe returns the type description of spec.
func (s *Set) Describe(spec *Spec) (TypeDescription, error) {
	deps, err := s.Deps(spec)
	if err != nil {
		return TypeDescription{}, err
	}
	d := TypeDescription{Type: Individual(spec)}
	for _, dep := range deps {
		d.Referenced = append(d.Referenced, Individual(dep))
	}
	slices.SortFunc(d.Referenced, func(a, b IndividualTypeDescription) int {
		return strings.Compare(a.TypeName, b.TypeName)
	})
	return d, nil
}

// Individual returns the description of spec alone.
func Individual(spec *Spec) IndividualTypeDescription {
	d := IndividualTypeDescription{TypeName: spec.FullName()}
	fields := spec.Fields
	if len(fields) == 0 {
		fields = []Field{{Name: DummyField, Type: Type{Name: "uint8"}}}
	}
	for _, f := range fields {
		d.Fields = append(d.Fields, FieldDescription{Name: f.Name, Type: fieldType(f.Type), DefaultValue: f.Default})
	}
	return d
}

func fieldType(t Type) FieldType {
	ft := FieldType{TypeID: typeIDNested}
	if p, ok := Primitives[t.Name]; ok {
		ft.TypeID = p.TypeID
	} else {
		ft.NestedTypeName = t.Package() + "/msg/" + t.Short()
	}
	if t.StringBound > 0 {
		ft.TypeID += typeIDBoundedOffset
		ft.StringCapacity = uint64(t.StringBound)
	}
	switch t.Array {
	case Fixed:
		ft.TypeID += typeIDFixedOffset
	case Bounded:
		ft.TypeID += typeIDBoundedSeqOff
	case Unbounded:
		ft.TypeID += typeIDUnboundedSeqOf
	}
	if t.Array == Fixed || t.Array == Bounded {
		ft.Capacity = uint64(t.Len)
	}
	return ft
}

// HashJSON returns the text that RIHS01 hashes: the description without
// default values, formatted as Python's json.dumps with separators ", " and
// ": " and ensure_ascii.
func (d TypeDescription) HashJSON() string {
	var b strings.Builder
	b.WriteString(`{"type_description": `)
	writeIndividual(&b, d.Type)
	b.WriteString(`, "referenced_type_descriptions": [`)
	for i, r := range d.Referenced {
		if i > 0 {
			b.WriteString(", ")
		}
		writeIndividual(&b, r)
	}
	b.WriteString("]}")
	return b.String()
}

// Hash returns the RIHS01 type hash, "RIHS01_" and 64 hex digits.
func (d TypeDescription) Hash() string {
	sum := sha256.Sum256([]byte(d.HashJSON()))
	return "RIHS01_" + hex.EncodeToString(sum[:])
}

func writeIndividual(b *strings.Builder, d IndividualTypeDescription) {
	fmt.Fprintf(b, `{"type_name": %s, "fields": [`, pyQuote(d.TypeName))
	for i, f := range d.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, `{"name": %s, "type": {"type_id": %d, "capacity": %d, "string_capacity": %d, "nested_type_name": %s}}`,
			pyQuote(f.Name), f.Type.TypeID, f.Type.Capacity, f.Type.StringCapacity, pyQuote(f.Type.NestedTypeName))
	}
	b.WriteString("]}")
}

// pyQuote quotes s as Python's json.dumps does with ensure_ascii=True.
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r > 0x7f && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// String returns a readable one-line form of t, e.g. "float64[36]".
func (t Type) String() string {
	s := t.Name
	if t.StringBound > 0 {
		s += "<=" + strconv.Itoa(t.StringBound)
	}
	switch t.Array {
	case Fixed:
		s += "[" + strconv.Itoa(t.Len) + "]"
	case Bounded:
		s += "[<=" + strconv.Itoa(t.Len) + "]"
	case Unbounded:
		s += "[]"
	}
	return s
}
