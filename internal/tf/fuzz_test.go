package tf

import (
	"math"
	"testing"
	"time"

	"github.com/golang/geo/r3"
)

// FuzzBuffer runs a sequence of adds and lookups read from the input,
// four bytes an operation, over six frames and small stamps: the buffer
// must answer each with a finite transform or an error, a frame to
// itself with the identity, and never panic or hang.
func FuzzBuffer(f *testing.F) {
	f.Add([]byte{0, 0, 1, 5, 0, 1, 2, 7, 2, 2, 0, 6})
	f.Add([]byte{1, 0, 1, 0, 0, 1, 0, 3, 2, 0, 1, 2, 0, 2, 3, 250, 2, 3, 0, 9})
	f.Add([]byte{0, 1, 2, 1, 0, 2, 3, 2, 0, 3, 1, 3, 2, 1, 3, 2, 3, 4, 4, 0})
	names := []string{"map", "odom", "base", "/base", "lidar", ""}
	f.Fuzz(func(t *testing.T, ops []byte) {
		b, err := NewBuffer(Options{MaxFrames: 5, MaxRecords: 4, MaxTotalRecords: 12, CacheTime: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+4 <= len(ops) && i < 400; i += 4 {
			op, a, c, s := ops[i]%4, names[int(ops[i+1])%len(names)], names[int(ops[i+2])%len(names)], time.Duration(ops[i+3])*time.Millisecond
			switch op {
			case 0, 1: // dynamic, static
				_ = b.Add(stamped(a, c, s, r3.Vector{X: float64(ops[i+3]), Y: 1}, float64(ops[i+2])), op == 1)
			case 2: // lookup at a stamp
				check(t, b, a, c, s)
			case 3: // lookup of the latest
				check(t, b, a, c, 0)
			}
		}
	})
}

// check looks target → source up and checks what comes back.
func check(t *testing.T, b *Buffer, target, source string, at time.Duration) {
	tr, err := b.Lookup(target, source, at)
	if err != nil {
		return
	}
	q := tr.Rotation
	if !Finite(tr.Translation) || math.IsNaN(q.X+q.Y+q.Z+q.W) || math.Abs(q.Dot(q)-1) > 1e-9 {
		t.Fatalf("%s → %s at %v: %+v", source, target, at, tr)
	}
	if FrameName(target) == FrameName(source) && (tr.Translation.Norm() > 1e-12 || math.Abs(math.Abs(q.W)-1) > 1e-12) {
		t.Fatalf("%s → itself: %+v", target, tr)
	}
}
