package msgdef

import "strings"

// Spec is one parsed .msg file.
type Spec struct {
	Package   string // ROS package, e.g. "geometry_msgs"
	Name      string // type name, e.g. "PoseStamped"
	Dir       string // directory holding the package's msg/ folder
	Comment   string // file-level comment: the leading comment lines
	Fields    []Field
	Constants []Constant
}

// FullName returns the interface name, e.g. "geometry_msgs/msg/PoseStamped".
func (s *Spec) FullName() string { return s.Package + "/msg/" + s.Name }

// Ref returns the short reference used inside .msg files, e.g. "geometry_msgs/PoseStamped".
func (s *Spec) Ref() string { return s.Package + "/" + s.Name }

// Field is one field of a message.
type Field struct {
	Name    string
	Type    Type
	Default string // raw default value text; empty when none is given
	Comment string
}

// Constant is one constant of a message.
type Constant struct {
	Type    string // primitive type name
	Name    string
	Value   string // raw value text
	Comment string
}

// ArrayKind says whether and how a field repeats.
type ArrayKind int

// Array kinds.
const (
	Single    ArrayKind = iota // T
	Fixed                      // T[N]
	Bounded                    // T[<=N]
	Unbounded                  // T[]
)

// Type is the type of a field.
type Type struct {
	Name        string // primitive name (see Primitives) or "pkg/Type" for a message
	StringBound int    // N of string<=N; 0 when unbounded
	Array       ArrayKind
	Len         int // N of T[N] or T[<=N]
}

// IsPrimitive reports whether the element type is a primitive.
func (t Type) IsPrimitive() bool { _, ok := Primitives[t.Name]; return ok }

// IsString reports whether the element type is string or wstring.
func (t Type) IsString() bool { return t.Name == "string" || t.Name == "wstring" }

// Package returns the package of a message element type.
func (t Type) Package() string { p, _, _ := strings.Cut(t.Name, "/"); return p }

// Short returns the type name of a message element type without its package.
func (t Type) Short() string { _, n, _ := strings.Cut(t.Name, "/"); return n }

// Primitive describes a primitive element type.
type Primitive struct {
	Size   int   // bytes on the wire; 0 for strings
	TypeID uint8 // FIELD_TYPE_* id of type_description_interfaces/FieldType
}

// Primitives lists the .msg primitive types. char maps to uint8 and byte to
// octet, as rosidl_adapter does.
var Primitives = map[string]Primitive{
	"bool":    {1, 15},
	"byte":    {1, 16},
	"char":    {1, 3},
	"int8":    {1, 2},
	"uint8":   {1, 3},
	"int16":   {2, 4},
	"uint16":  {2, 5},
	"int32":   {4, 6},
	"uint32":  {4, 7},
	"int64":   {8, 8},
	"uint64":  {8, 9},
	"float32": {4, 10},
	"float64": {8, 11},
	"string":  {0, 17},
	"wstring": {0, 18},
}

// Field type ids that are not primitives.
const (
	typeIDNested         = 1
	typeIDBoundedOffset  = 4 // FIELD_TYPE_BOUNDED_STRING - FIELD_TYPE_STRING
	typeIDFixedOffset    = 48
	typeIDBoundedSeqOff  = 96
	typeIDUnboundedSeqOf = 144
)
