package msgs_test

import (
	"testing"
	"time"
	"unsafe"

	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
)

// The large-array benchmarks report the speed of encoding or decoding a 1 MB
// PointCloud2 and a 4000x4000 OccupancyGrid, in MB/s of their data array,
// against copy() of the same bytes between the same buffers in the same loop.
// The target is of_memcpy >= 0.5: at least half of memcpy speed.

func bigCloud() *sensor_msgs.PointCloud2 {
	m := cloud()
	m.Width = 1 << 20 / 12
	m.RowStep = m.Width * m.PointStep
	m.Data = make([]byte, m.RowStep)
	for i := range m.Data {
		m.Data[i] = byte(i * 7)
	}
	return m
}

func bigGrid() *nav_msgs.OccupancyGrid {
	const side = 4000
	m := &nav_msgs.OccupancyGrid{}
	m.Header.FrameID = "map"
	m.Info.Width, m.Info.Height, m.Info.Resolution = side, side, 0.05
	m.Info.Origin.Orientation.W = 1
	m.Data = make([]int8, side*side)
	for i := range m.Data {
		m.Data[i] = int8(i%101) - 1
	}
	return m
}

// measure runs op b.N times and, after each run, copy(dst, src) on the
// same bytes op moves. It reports op's speed (MB/s), the copy's speed
// (memcpy_MB/s, the physical limit) and their ratio (of_memcpy). Both are
// timed in the same loop, so machine noise hits them alike; ns/op counts
// both.
func measure(b *testing.B, dst, src []byte, op func()) {
	var opTime, copyTime time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		op()
		t1 := time.Now()
		copy(dst, src)
		opTime += t1.Sub(t0)
		copyTime += time.Since(t1)
	}
	mb := float64(len(src)) * float64(b.N) / 1e6
	b.ReportMetric(mb/opTime.Seconds(), "MB/s")
	b.ReportMetric(mb/copyTime.Seconds(), "memcpy_MB/s")
	b.ReportMetric(copyTime.Seconds()/opTime.Seconds(), "of_memcpy")
}

// dataOf returns the data array of a PointCloud2 or OccupancyGrid as bytes.
func dataOf(m msgs.Message) []byte {
	switch m := m.(type) {
	case *sensor_msgs.PointCloud2:
		return m.Data
	case *nav_msgs.OccupancyGrid:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(m.Data))), len(m.Data))
	}
	panic("no data array")
}

// benchDecode decodes msg's encoding; the reference copy moves the data
// array from the payload into the decoded message's array.
func benchDecode(b *testing.B, msg msgs.Message, reuse bool) {
	payload, err := msg.AppendCDR(nil)
	if err != nil {
		b.Fatal(err)
	}
	data := dataOf(msg)
	src := payload[len(payload)-len(data)-tail(msg):][:len(data)]
	m := newLike(msg)
	if err := m.UnmarshalCDR(payload); err != nil {
		b.Fatal(err)
	}
	dst := dataOf(m)
	measure(b, dst, src, func() {
		if !reuse {
			m = newLike(msg)
		}
		if err := m.UnmarshalCDR(payload); err != nil {
			b.Fatal(err)
		}
	})
}

// tail is the number of payload bytes after the data array.
func tail(m msgs.Message) int {
	if _, ok := m.(*sensor_msgs.PointCloud2); ok {
		return 1 // is_dense
	}
	return 0
}

// benchEncode encodes msg into a reused buffer; the reference copy moves the
// data array into the same place in that buffer.
func benchEncode(b *testing.B, msg msgs.Message) {
	buf, err := msg.AppendCDR(nil)
	if err != nil {
		b.Fatal(err)
	}
	src := dataOf(msg)
	dst := buf[len(buf)-len(src)-tail(msg):][:len(src)]
	measure(b, dst, src, func() {
		if buf, err = msg.AppendCDR(buf[:0]); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkPointCloud2_1MB_Encode(b *testing.B) { benchEncode(b, bigCloud()) }

func BenchmarkPointCloud2_1MB_Decode(b *testing.B) { benchDecode(b, bigCloud(), true) }

func BenchmarkPointCloud2_1MB_DecodeFresh(b *testing.B) { benchDecode(b, bigCloud(), false) }

func BenchmarkOccupancyGrid_4000x4000_Encode(b *testing.B) { benchEncode(b, bigGrid()) }

func BenchmarkOccupancyGrid_4000x4000_Decode(b *testing.B) { benchDecode(b, bigGrid(), true) }

func BenchmarkOccupancyGrid_4000x4000_DecodeFresh(b *testing.B) { benchDecode(b, bigGrid(), false) }
