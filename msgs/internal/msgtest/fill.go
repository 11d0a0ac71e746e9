// Package msgtest helps test generated message types without knowing them:
// it fills any message with deterministic values, converts messages to and
// from JSON keyed by ROS field names, and runs the shared fuzz target.
//
// It reads the `ros:"name,strmax=N,max=N"` struct tags the generator writes.
package msgtest

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"

	"github.com/navnode/navnode/msgs"
)

// Variant selects how Fill populates sequences.
type Variant struct {
	Seed   uint64
	MaxSeq int // longest sequence of primitives; nested sequences get at most 4
}

// Variants are the fills every generated type is checked with: the zero
// value is checked separately; these give short, empty-heavy and long
// sequences.
var Variants = []Variant{{Seed: 1, MaxSeq: 3}, {Seed: 2, MaxSeq: 1}, {Seed: 3, MaxSeq: 300}}

// Fill sets every field of m to deterministic values drawn from v. Floats
// are drawn from all finite bit patterns; strings are printable ASCII
// (including quotes and backslashes); bounds from the tags are respected.
func Fill(m msgs.Message, v Variant) {
	f := filler{rng: rand.New(rand.NewPCG(v.Seed, 0x6e61766e6f6465)), maxSeq: v.MaxSeq}
	f.value(reflect.ValueOf(m).Elem(), tag{})
}

type filler struct {
	rng    *rand.Rand
	maxSeq int
}

// tag is a parsed `ros` struct tag.
type tag struct {
	name   string
	strMax int // bound of string<=N, 0 if none
	max    int // bound of T[<=N], 0 if none
}

func parseTag(s string) tag {
	parts := strings.Split(s, ",")
	t := tag{name: parts[0]}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "strmax":
			t.strMax = n
		case "max":
			t.max = n
		}
	}
	return t
}

func (f *filler) value(v reflect.Value, t tag) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(f.rng.IntN(2) == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.rng.Uint64()) >> (64 - v.Type().Bits()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(f.rng.Uint64() >> (64 - v.Type().Bits()))
	case reflect.Float32:
		v.SetFloat(float64(f.float32()))
	case reflect.Float64:
		v.SetFloat(f.float64())
	case reflect.String:
		v.SetString(f.string(t.strMax))
	case reflect.Array:
		for i := range v.Len() {
			f.value(v.Index(i), t)
		}
	case reflect.Slice:
		f.slice(v, t)
	case reflect.Struct:
		for i := range v.NumField() {
			f.value(v.Field(i), parseTag(v.Type().Field(i).Tag.Get("ros")))
		}
	default:
		panic("msgtest: unexpected kind " + v.Kind().String())
	}
}

func (f *filler) slice(v reflect.Value, t tag) {
	limit := f.maxSeq
	if v.Type().Elem().Kind() == reflect.Struct {
		limit = min(limit, 4)
	}
	if t.max > 0 {
		limit = min(limit, t.max)
	}
	n := f.rng.IntN(limit + 1)
	if n == 0 {
		v.SetZero() // decoders return nil for empty sequences
		return
	}
	v.Set(reflect.MakeSlice(v.Type(), n, n))
	for i := range n {
		f.value(v.Index(i), t)
	}
}

func (f *filler) float32() float32 {
	for {
		x := math.Float32frombits(f.rng.Uint32())
		if !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) {
			return x
		}
	}
}

func (f *filler) float64() float64 {
	for {
		x := math.Float64frombits(f.rng.Uint64())
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return x
		}
	}
}

const printable = ` !"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_abcdefghijklmnopqrstuvwxyz{|}~`

func (f *filler) string(max int) string {
	n := f.rng.IntN(9)
	if max > 0 {
		n = min(n, max)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = printable[f.rng.IntN(len(printable))]
	}
	return string(b)
}
