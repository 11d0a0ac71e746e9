package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/navnode/navnode/msgs/internal/msgdef"
)

// field is a message field as the emitter needs it.
type field struct {
	msgdef.Field
	goName  string
	elem    string // Go element type, qualified when imported
	call    string // suffix of the cdr.Reader/Writer methods, e.g. "Float64"
	nested  bool
	minElem int    // fewest bytes an element takes on the wire
	newFunc string // constructor of a nested element type with defaults, else ""
	ros     string // ROS type name of the enclosing message
}

// goType returns the Go type of the field.
func (f *field) goType() string {
	switch f.Type.Array {
	case msgdef.Fixed:
		return fmt.Sprintf("[%d]%s", f.Type.Len, f.elem)
	case msgdef.Bounded, msgdef.Unbounded:
		return "[]" + f.elem
	}
	return f.elem
}

// tag returns the struct tag: the ROS field name and any bounds.
func (f *field) tag() string {
	opts := []string{f.Name}
	if f.Type.StringBound > 0 {
		opts = append(opts, "strmax="+strconv.Itoa(f.Type.StringBound))
	}
	if f.Type.Array == msgdef.Bounded {
		opts = append(opts, "max="+strconv.Itoa(f.Type.Len))
	}
	return fmt.Sprintf("`ros:%q`", strings.Join(opts, ","))
}

var primitiveGo = map[string]struct{ goType, call string }{
	"bool": {"bool", "Bool"}, "byte": {"byte", "Uint8"}, "char": {"uint8", "Uint8"},
	"int8": {"int8", "Int8"}, "uint8": {"uint8", "Uint8"},
	"int16": {"int16", "Int16"}, "uint16": {"uint16", "Uint16"},
	"int32": {"int32", "Int32"}, "uint32": {"uint32", "Uint32"},
	"int64": {"int64", "Int64"}, "uint64": {"uint64", "Uint64"},
	"float32": {"float32", "Float32"}, "float64": {"float64", "Float64"},
	"string": {"string", "String"},
}

// methodNames are the methods of every generated type; no field may take one.
var methodNames = map[string]bool{
	"MsgType": true, "AppendCDR": true, "UnmarshalCDR": true, "EncodeCDR": true, "DecodeCDR": true,
}

// encode returns the statements that write f from m to w.
func (f *field) encode() []string {
	x := "m." + f.goName
	var lines []string
	switch f.Type.Array {
	case msgdef.Unbounded:
		lines = append(lines, fmt.Sprintf("w.SeqLen(len(%s))", x))
	case msgdef.Bounded:
		lines = append(lines, fmt.Sprintf("w.BoundedSeqLen(len(%s), %d, %q, %q)", x, f.Type.Len, f.ros, f.Name))
	}
	if f.Type.Array == msgdef.Single {
		switch {
		case f.nested:
			return []string{x + ".EncodeCDR(w)"}
		case f.Type.StringBound > 0:
			return []string{fmt.Sprintf("w.BoundedString(%s, %d, %q, %q)", x, f.Type.StringBound, f.ros, f.Name)}
		}
		return []string{fmt.Sprintf("w.%s(%s)", f.call, x)}
	}
	if f.Type.Array == msgdef.Fixed {
		x += "[:]"
	}
	switch {
	case f.nested:
		lines = append(lines, fmt.Sprintf("for i := range %s {\n%s[i].EncodeCDR(w)\n}", x, "m."+f.goName))
	case f.Type.StringBound > 0:
		lines = append(lines, fmt.Sprintf("w.BoundedStrings(%s, %d, %q, %q)", x, f.Type.StringBound, f.ros, f.Name))
	default:
		lines = append(lines, fmt.Sprintf("w.%ss(%s)", f.call, x))
	}
	return lines
}

// decode returns the statements that read f from r into m; each failure
// check returns from DecodeCDR.
func (f *field) decode() []string {
	x := "m." + f.goName
	fail := fmt.Sprintf("if r.Failed(%q) {\nreturn\n}", f.Name)
	if f.Type.Array == msgdef.Single {
		switch {
		case f.nested:
			return []string{x + ".DecodeCDR(r)", fail}
		case f.Type.StringBound > 0:
			return []string{fmt.Sprintf("%s = r.BoundedString(%d)", x, f.Type.StringBound), fail}
		}
		return []string{fmt.Sprintf("%s = r.%s()", x, f.call), fail}
	}
	var lines []string
	target := x
	switch f.Type.Array {
	case msgdef.Fixed:
		target = x + "[:]"
	case msgdef.Unbounded, msgdef.Bounded:
		n := fmt.Sprintf("r.SeqLen(%d)", f.minElem)
		if f.Type.Array == msgdef.Bounded {
			n = fmt.Sprintf("r.BoundedSeqLen(%d, %d)", f.minElem, f.Type.Len)
		}
		switch {
		case f.call == "Uint8" && !f.nested:
			return []string{fmt.Sprintf("%s = r.AppendUint8s(%s, %s)", x, x, n), fail}
		case f.call == "Int8" && !f.nested:
			return []string{fmt.Sprintf("%s = r.AppendInt8s(%s, %s)", x, x, n), fail}
		}
		lines = append(lines, fmt.Sprintf("%s = cdr.Resize(%s, %s)", x, x, n))
	}
	switch {
	case f.nested:
		lines = append(lines, fmt.Sprintf("for i := range %s {\n%s[i].DecodeCDR(r)\nif r.FailedAt(%q, i) {\nreturn\n}\n}", x, x, f.Name))
	case f.Type.StringBound > 0:
		lines = append(lines, fmt.Sprintf("r.BoundedStrings(%s, %d)", target, f.Type.StringBound))
	default:
		lines = append(lines, fmt.Sprintf("r.%ss(%s)", f.call, target))
	}
	return append(lines, fail)
}

// goName turns a snake_case ROS name into an exported Go name, with Go's
// usual initialisms.
func goName(snake string) string {
	var b strings.Builder
	for _, part := range strings.Split(snake, "_") {
		if up, ok := initialisms[part]; ok {
			b.WriteString(up)
			continue
		}
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

var initialisms = map[string]string{"id": "ID", "gid": "GID", "uuid": "UUID", "url": "URL", "uri": "URI"}

// fileName returns the Go file name of a message type, in rosidl's snake
// case: PoseWithCovarianceStamped → pose_with_covariance_stamped.go.
func fileName(typeName string) string {
	var b strings.Builder
	rs := []rune(typeName)
	for i, r := range rs {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prevLowerOrDigit := rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			prevUpper := rs[i-1] >= 'A' && rs[i-1] <= 'Z'
			if prevLowerOrDigit || prevUpper && nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	name := b.String()
	// A suffix such as _linux or _arm64 would make the go tool skip the file.
	if i := strings.LastIndexByte(name, '_'); i >= 0 && buildSuffixes[name[i+1:]] {
		name += "_msg"
	}
	return name + ".go"
}

var buildSuffixes = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
	"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true, "mips": true,
	"mipsle": true, "mips64": true, "mips64le": true, "ppc64": true, "ppc64le": true,
	"riscv64": true, "s390x": true, "sparc64": true, "wasm": true, "test": true,
}
