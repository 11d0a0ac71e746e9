package cdr

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriterAlignsFromAfterHeader(t *testing.T) {
	w := NewWriter([]byte("prefix"))
	w.Uint8(1)
	w.Float64(1.5)
	w.Uint16(7)
	w.String("ab")
	b, err := w.Finish()
	require.NoError(t, err)
	want := []byte("prefix")
	want = append(want, 0, 1, 0, 0) // header
	want = append(want, 1, 0, 0, 0, 0, 0, 0, 0)
	want = append(want, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f) // 1.5
	want = append(want, 7, 0)
	want = append(want, 0, 0, 3, 0, 0, 0, 'a', 'b', 0)
	require.Equal(t, want, b)
}

func TestEmptySequenceAddsNoPadding(t *testing.T) {
	w := NewWriter(nil)
	w.SeqLen(0)
	w.Float64s(nil)
	w.Uint32(9)
	b, _ := w.Finish()
	require.Equal(t, []byte{0, 1, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0}, b)
}

func TestReaderBigEndian(t *testing.T) {
	payload := []byte{0, 0, 0, 0, 0x12, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 2}
	r := NewReader(payload)
	require.Equal(t, uint8(0x12), r.Uint8())
	require.Equal(t, 1.5, r.Float64())
	require.Equal(t, 2, r.SeqLen(2))
	got := make([]uint16, 2)
	r.Uint16s(got)
	require.Equal(t, []uint16{1, 2}, got)
	require.NoError(t, r.Finish("test/msg/T"))
}

func TestEncapsulation(t *testing.T) {
	for _, payload := range [][]byte{nil, {0, 1}, {0, 3, 0, 0}, {0, 7, 0, 0, 1}, {1, 1, 0, 0}} {
		r := NewReader(payload)
		require.False(t, r.Ok())
		err := r.Finish("test/msg/T")
		require.Error(t, err)
		if len(payload) >= 4 {
			require.ErrorIs(t, err, ErrEncapsulation)
		} else {
			require.ErrorIs(t, err, ErrTruncated)
		}
	}
}

func TestHugeLengthFailsBeforeAllocating(t *testing.T) {
	payload := []byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 1, 2, 3}
	// Averaged over many runs (and with GOMAXPROCS 1, as AllocsPerRun
	// sets it), so that allocations elsewhere in the process do not count.
	var before, after runtime.MemStats
	const runs = 200
	runtime.ReadMemStats(&before)
	allocs := testing.AllocsPerRun(runs, func() {
		r := NewReader(payload)
		if r.SeqLen(1) != 0 {
			t.Fatal("a 4 GB claim was accepted")
		}
	})
	runtime.ReadMemStats(&after)
	require.LessOrEqual(t, allocs, 6.0, "a 4 GB claim allocates only the reader and its error")
	require.Less(t, (after.TotalAlloc-before.TotalAlloc)/(runs+1), uint64(4096), "bytes per claim")
	r := NewReader(payload)
	r.SeqLen(1)
	err := r.Finish("sensor_msgs/msg/PointCloud2")
	require.ErrorIs(t, err, ErrLength)

	r = NewReader(payload)
	require.Empty(t, r.String())
	require.ErrorIs(t, r.Finish("std_msgs/msg/String"), ErrLength)
}

func TestSeqLenCountsElementSize(t *testing.T) {
	// 3 elements of 8 bytes claimed, 16 bytes left.
	payload := append([]byte{0, 1, 0, 0, 3, 0, 0, 0}, make([]byte, 16)...)
	r := NewReader(payload)
	require.Zero(t, r.SeqLen(8))
	require.ErrorIs(t, r.Finish("x/msg/Y"), ErrLength)
	r = NewReader(payload)
	require.Equal(t, 3, r.SeqLen(4))
}

func TestFieldPathAndOffset(t *testing.T) {
	r := NewReader([]byte{0, 1, 0, 0, 5, 0, 0, 0, 'a'})
	_ = r.String()
	require.True(t, r.Failed("frame_id"))
	require.True(t, r.Failed("header"))
	require.True(t, r.FailedAt("poses", 3))
	err := r.Finish("geometry_msgs/msg/PoseArray")
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "poses[3].header.frame_id", de.Field)
	require.Equal(t, 8, de.Offset)
	require.Contains(t, err.Error(), "geometry_msgs/msg/PoseArray")
	require.Contains(t, err.Error(), "poses[3].header.frame_id")
}

func TestStickyErrorReturnsZeros(t *testing.T) {
	r := NewReader([]byte{0, 1, 0, 0, 1})
	require.Zero(t, r.Uint32())
	require.Zero(t, r.Uint8(), "reads after a failure return zero even when bytes remain")
	require.Zero(t, r.SeqLen(1))
	dst := []float64{1, 2}
	r.Float64s(dst)
	require.Equal(t, []float64{0, 0}, dst)
	require.ErrorIs(t, r.Finish("x/msg/Y"), ErrTruncated)
}

func TestStrings(t *testing.T) {
	// Length 0 (some writers' empty string), a string without its NUL, and UTF-8.
	w := NewWriter(nil)
	w.String("héllo")
	b, _ := w.Finish()
	b = append(b, 0 /* pad */, 0, 0, 0, 0, 2, 0, 0, 0, 'o', 'k')
	r := NewReader(b)
	require.Equal(t, "héllo", r.String())
	require.Equal(t, "", r.String())
	require.Equal(t, "ok", r.String())
	require.NoError(t, r.Finish("x/msg/Y"))
}

func TestBounds(t *testing.T) {
	w := NewWriter(nil)
	w.BoundedString("toolong", 3, "x/msg/Y", "name")
	_, err := w.Finish()
	var ee *EncodeError
	require.ErrorAs(t, err, &ee)
	require.ErrorIs(t, err, ErrBound)
	require.Equal(t, "name", ee.Field)

	w = NewWriter(nil)
	w.BoundedSeqLen(2, 1, "x/msg/Y", "ranges")
	_, err = w.Finish()
	require.ErrorIs(t, err, ErrBound)

	w = NewWriter(nil)
	w.String("abcd")
	w.SeqLen(2)
	w.Uint8s([]byte{1, 2})
	b, _ := w.Finish()
	r := NewReader(b)
	require.Empty(t, r.BoundedString(3))
	require.ErrorIs(t, r.Finish("x/msg/Y"), ErrBound)
	r = NewReader(b)
	require.Equal(t, "abcd", r.BoundedString(4))
	require.Zero(t, r.BoundedSeqLen(1, 1))
	require.ErrorIs(t, r.Finish("x/msg/Y"), ErrBound)
}

func TestNumbersKeepBits(t *testing.T) {
	floats := []float64{math.Copysign(0, -1), math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(-1), math.NaN()}
	w := NewWriter(nil)
	w.SeqLen(len(floats))
	w.Float64s(floats)
	w.Int64(math.MinInt64)
	w.Uint64(math.MaxUint64)
	b, _ := w.Finish()
	r := NewReader(b)
	got := make([]float64, r.SeqLen(8))
	r.Float64s(got)
	for i := range floats {
		require.Equal(t, math.Float64bits(floats[i]), math.Float64bits(got[i]))
	}
	require.Equal(t, int64(math.MinInt64), r.Int64())
	require.Equal(t, uint64(math.MaxUint64), r.Uint64())
}

func TestAppendBytesReusesCapacity(t *testing.T) {
	w := NewWriter(nil)
	w.SeqLen(3)
	w.Uint8s([]byte{7, 8, 9})
	b, _ := w.Finish()
	dst := make([]byte, 0, 16)
	r := NewReader(b)
	got := r.AppendUint8s(dst, r.SeqLen(1))
	require.Equal(t, []byte{7, 8, 9}, got)
	require.Equal(t, &dst[:1][0], &got[0], "capacity reused")
}
