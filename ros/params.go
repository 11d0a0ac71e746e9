package ros

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// ParamType is a Go type a ROS 2 parameter can have.
type ParamType interface {
	bool | int64 | float64 | string | []bool | []int64 | []float64 | []string
}

// ParamInfo describes a declared parameter.
type ParamInfo struct {
	Name        string
	Type        string // ROS type name: bool, integer, double, string, double_array ...
	Description string
	Default     any
	Value       any
	Min, Max    float64 // range of a number; both zero when unbounded
	Source      string  // where Value came from: "default", "-p …", "file.yaml line 3"
}

// ParamOption refines a declaration.
type ParamOption func(*ParamInfo)

// Range bounds a numeric parameter to [min, max] (inclusive).
func Range(min, max float64) ParamOption {
	return func(p *ParamInfo) { p.Min, p.Max = min, max }
}

// params is a node's declared parameters and the overrides that apply to it.
type params struct {
	mu        sync.Mutex
	overrides []Override // those whose node key matches the node, in order
	declared  map[string]*ParamInfo
}

// newParams keeps the overrides that apply to the node nodeFQ, in the
// order rcl and rclcpp apply them: rcl merges -p rules and params files
// into one list of node keys, each key where it first appears, a later
// value of a name replacing an earlier one under the same key; rclcpp then
// applies the keys that match the node in that order. So later wins
// within a key, and a later key wins over an earlier one: a -p rule
// without a node prefix (key /**) loses to a file's entry under the
// node's own name when the file named /** first.
func newParams(all []Override, nodeFQ string) *params {
	p := &params{declared: map[string]*ParamInfo{}}
	first := map[string]int{}
	for i, o := range all {
		if _, seen := first[o.NodeKey]; !seen {
			first[o.NodeKey] = i
		}
		if matchesNode(o.NodeKey, nodeFQ) {
			p.overrides = append(p.overrides, o)
		}
	}
	slices.SortStableFunc(p.overrides, func(a, b Override) int { return first[a.NodeKey] - first[b.NodeKey] })
	return p
}

// Declare declares parameter name of node n with a default, a description
// and options, and returns its value: the last override from the command
// line or a parameters file that names it, else the default. A value of the
// wrong type or out of range is an error naming the parameter and where the
// value came from. An integer is accepted for a double parameter.
func Declare[T ParamType](n *Node, name string, def T, description string, opts ...ParamOption) (T, error) {
	info := &ParamInfo{Name: name, Type: typeName(def), Description: description, Default: def, Value: def,
		Source: "default"}
	for _, opt := range opts {
		opt(info)
	}
	p := n.params
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, dup := p.declared[name]; dup {
		return def, fmt.Errorf("%w: parameter %q declared twice", ErrParam, name)
	}
	v := def
	// The last override wins whole, as in rclcpp: only its type counts.
	last := -1
	for i, o := range p.overrides {
		if o.Name == name {
			last = i
		}
	}
	if last >= 0 {
		o := p.overrides[last]
		got, ok := convertParam[T](o.Value)
		if !ok {
			return def, fmt.Errorf("%w: parameter %q: %s gives a %s, want %s", ErrParam, name, o.Source,
				typeName(o.Value), info.Type)
		}
		v, info.Value, info.Source = got, got, o.Source
	}
	if err := info.checkRange(); err != nil {
		return def, err
	}
	p.declared[name] = info
	return v, nil
}

// convertParam returns v as a T, converting integers to doubles.
func convertParam[T ParamType](v any) (T, bool) {
	var zero T
	if t, ok := v.(T); ok {
		return t, true
	}
	switch any(zero).(type) {
	case float64:
		if i, ok := v.(int64); ok {
			return any(float64(i)).(T), true
		}
	case []float64:
		if s, ok := v.([]string); ok && len(s) == 0 {
			return zero, true // an empty YAML sequence has no element type
		}
		if is, ok := v.([]int64); ok {
			fs := make([]float64, len(is))
			for k, i := range is {
				fs[k] = float64(i)
			}
			return any(fs).(T), true
		}
	case []bool, []int64, []string:
		if s, ok := v.([]string); ok && len(s) == 0 {
			return zero, true // an empty YAML sequence has no element type
		}
	}
	return zero, false
}

func (p *ParamInfo) checkRange() error {
	if p.Min == 0 && p.Max == 0 {
		return nil
	}
	var vals []float64
	switch v := p.Value.(type) {
	case int64:
		vals = []float64{float64(v)}
	case float64:
		vals = []float64{v}
	case []int64:
		for _, x := range v {
			vals = append(vals, float64(x))
		}
	case []float64:
		vals = v
	}
	for _, x := range vals {
		if math.IsNaN(x) || x < p.Min || x > p.Max {
			return fmt.Errorf("%w: parameter %q = %v from %s is outside [%g, %g]", ErrParam, p.Name, p.Value, p.Source, p.Min, p.Max)
		}
	}
	return nil
}

// Params returns the declared parameters, sorted by name.
func (n *Node) Params() []ParamInfo {
	p := n.params
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ParamInfo, 0, len(p.declared))
	for _, info := range p.declared {
		out = append(out, *info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CheckParams reports, by name and source, every override addressed to
// this node that names no declared parameter. Call it once all parameters
// are declared.
func (n *Node) CheckParams() error {
	p := n.params
	p.mu.Lock()
	defer p.mu.Unlock()
	var unknown []string
	for _, o := range p.overrides {
		if _, ok := p.declared[o.Name]; !ok {
			unknown = append(unknown, fmt.Sprintf("%q (%s)", o.Name, o.Source))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return fmt.Errorf("%w: unknown parameters for %s: %s", ErrParam, n.FullName(), strings.Join(slices.Compact(unknown), ", "))
}
