package msgtest

import (
	"bytes"
	"errors"
	"testing"

	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/msgs/cdr"
)

// Fuzz is the fuzz target every generated type shares. Any input must
// either decode or fail with a *cdr.DecodeError naming the type, never
// panic; a decoded message must encode, and encoding is stable: decoding
// that encoding and encoding again gives the same bytes.
//
// Seeds are the encodings of the zero value and of each Variant, a
// big-endian header on the zero value's body, and truncations of the first
// filled encoding.
func Fuzz(f *testing.F, newMsg func() msgs.Message) {
	for _, seed := range Seeds(newMsg) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		m := newMsg()
		if err := m.UnmarshalCDR(payload); err != nil {
			var de *cdr.DecodeError
			if !errors.As(err, &de) || de.Type != m.MsgType().Name {
				t.Fatalf("decode error is not a *cdr.DecodeError for %s: %v", m.MsgType().Name, err)
			}
			return
		}
		first, err := m.AppendCDR(nil)
		if err != nil {
			t.Fatalf("re-encoding a decoded message: %v", err)
		}
		again := newMsg()
		if err := again.UnmarshalCDR(first); err != nil {
			t.Fatalf("decoding our own encoding: %v", err)
		}
		second, err := again.AppendCDR(nil)
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("encoding is not stable:\n% x\n% x", first, second)
		}
	})
}

// Seeds returns interesting payloads for the type newMsg makes.
func Seeds(newMsg func() msgs.Message) [][]byte {
	zero, err := newMsg().AppendCDR(nil)
	if err != nil {
		panic(err)
	}
	seeds := [][]byte{zero, append([]byte{0, 0, 0, 0}, zero[4:]...)}
	for _, v := range Variants {
		m := newMsg()
		Fill(m, v)
		b, err := m.AppendCDR(nil)
		if err != nil {
			panic(err)
		}
		seeds = append(seeds, b)
	}
	filled := seeds[2]
	for _, n := range []int{0, 3, 4, len(filled) / 2, len(filled) - 1} {
		if n >= 0 && n < len(filled) {
			seeds = append(seeds, filled[:n])
		}
	}
	return seeds
}
