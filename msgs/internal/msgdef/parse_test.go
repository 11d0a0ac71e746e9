package msgdef

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	spec, err := Parse("pkg", "Thing", `# A thing.
# Second line.

int32 A=1   # first constant
string S = spaced value
# about x
float64 x 0.5  # trailing
Point[<=3] pts
string<=8[2] names
uint8[] data
std_msgs/Header header
`)
	require.NoError(t, err)
	require.Equal(t, "A thing.\nSecond line.", spec.Comment)
	require.Equal(t, []Constant{
		{Type: "int32", Name: "A", Value: "1", Comment: "first constant"},
		{Type: "string", Name: "S", Value: "spaced value"},
	}, spec.Constants)
	require.Equal(t, Field{Name: "x", Type: Type{Name: "float64"}, Default: "0.5", Comment: "about x\ntrailing"}, spec.Fields[0])
	require.Equal(t, Type{Name: "pkg/Point", Array: Bounded, Len: 3}, spec.Fields[1].Type)
	require.Equal(t, Type{Name: "string", StringBound: 8, Array: Fixed, Len: 2}, spec.Fields[2].Type)
	require.Equal(t, "string<=8[2]", spec.Fields[2].Type.String())
	require.Equal(t, Type{Name: "uint8", Array: Unbounded}, spec.Fields[3].Type)
	require.Equal(t, "std_msgs/Header", spec.Fields[4].Type.Name)
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, err string }{
		{"int32", "want TYPE NAME"},
		{"int32 Bad", "invalid field name"},
		{"int32 x\nint32 x", "duplicate name x"},
		{"int32 lower=1", "invalid constant name"},
		{"int8 X=300", "invalid int8"},
		{"int32[] X=1", "cannot be a constant"},
		{"float64[<=] x", "missing bound"},
		{"int32<=3 x", "only strings take a <= bound"},
		{"bool b maybe", "invalid bool"},
		{"int32[2] v [1, 2, 3]", "3 elements for 2"},
		{"Point p 1", "cannot have a default"},
		{"string<=2 s \"abc\"", "longer than its bound"},
		{"9bad x", "invalid type"},
	} {
		_, err := Parse("pkg", "T", c.text)
		require.ErrorContains(t, err, c.err, c.text)
	}
}

func TestValues(t *testing.T) {
	for _, c := range []struct {
		typ, text string
		want      any
	}{
		{"bool", "TRUE", true}, {"bool", "0", false},
		{"uint64", "18446744073709551615", uint64(18446744073709551615)},
		{"int64", "-9223372036854775808", int64(-9223372036854775808)},
		{"char", "65", uint64(65)},
		{"float32", "-1e3", -1000.0},
		{"string", `"quoted \" inner"`, `quoted " inner`},
		{"string", `'single'`, "single"},
		{"string", "bare words", "bare words"},
	} {
		v, err := ParseValue(Type{Name: c.typ}, c.text)
		require.NoError(t, err, c.text)
		require.Equal(t, c.want, v, c.text)
	}
	v, err := ParseDefault(Type{Name: "int16", Array: Unbounded}, "[-1, 0, 1]")
	require.NoError(t, err)
	require.Equal(t, []any{int64(-1), int64(0), int64(1)}, v)

	// A review found commas inside quoted strings split the items.
	v, err = ParseDefault(Type{Name: "string", Array: Unbounded}, `["a,b", 'c, \'d\'', e]`)
	require.NoError(t, err)
	require.Equal(t, []any{"a,b", "c, 'd'", "e"}, v)
	_, err = ParseDefault(Type{Name: "string", Array: Unbounded}, `["a, b]`)
	require.ErrorContains(t, err, "unclosed quote")

	// A review found float32 values beyond its range accepted, and the
	// generated Go then failed to compile.
	v, err = ParseValue(Type{Name: "float32"}, "3.4e38")
	require.NoError(t, err)
	require.Equal(t, 3.4e38, v)
	for _, text := range []string{"1e39", "-3.5e38"} {
		_, err = ParseValue(Type{Name: "float32"}, text)
		require.Error(t, err, text)
	}
	_, err = ParseValue(Type{Name: "float64"}, "1e39")
	require.NoError(t, err)
}

func TestEmptyMessageGetsDummyField(t *testing.T) {
	spec, err := Parse("std_msgs", "Empty", "")
	require.NoError(t, err)
	d := Individual(spec)
	require.Equal(t, []FieldDescription{{Name: DummyField, Type: FieldType{TypeID: 3}}}, d.Fields)
}

func TestFieldTypeIDs(t *testing.T) {
	for _, c := range []struct {
		typ  string
		want FieldType
	}{
		{"byte", FieldType{TypeID: 16}},
		{"char[16]", FieldType{TypeID: 51, Capacity: 16}},
		{"uint8[]", FieldType{TypeID: 147}},
		{"int8[]", FieldType{TypeID: 146}},
		{"string<=256", FieldType{TypeID: 21, StringCapacity: 256}},
		{"string<=5[<=2]", FieldType{TypeID: 117, Capacity: 2, StringCapacity: 5}},
		{"Point[]", FieldType{TypeID: 145, NestedTypeName: "geometry_msgs/msg/Point"}},
		{"FloatingPointRange[<=1]", FieldType{TypeID: 97, Capacity: 1, NestedTypeName: "geometry_msgs/msg/FloatingPointRange"}},
	} {
		typ, err := ParseType("geometry_msgs", c.typ)
		require.NoError(t, err)
		require.Equal(t, c.want, fieldType(typ), c.typ)
	}
}

func TestPyQuote(t *testing.T) {
	require.Equal(t, `"a\"b\\c\n\u00e9\ud83d\ude00\u0001~"`, pyQuote("a\"b\\c\né😀\x01~"))
}
