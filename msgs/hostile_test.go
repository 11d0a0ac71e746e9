package msgs_test

import (
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/cdr"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
)

func cloud() *sensor_msgs.PointCloud2 {
	return &sensor_msgs.PointCloud2{
		Header: std_msgs.Header{FrameID: "lidar"},
		Height: 1, Width: 2, PointStep: 12, RowStep: 24,
		Fields: []sensor_msgs.PointField{
			{Name: "x", Offset: 0, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1},
			{Name: "y", Offset: 4, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1},
			{Name: "z", Offset: 8, Datatype: sensor_msgs.PointField_FLOAT32, Count: 1},
		},
		Data: make([]byte, 24),
	}
}

func TestTruncatedNamesTypeAndField(t *testing.T) {
	b, err := cloud().AppendCDR(nil)
	require.NoError(t, err)
	for n := 0; n < len(b); n++ {
		var m sensor_msgs.PointCloud2
		err := m.UnmarshalCDR(b[:n])
		var de *cdr.DecodeError
		require.ErrorAs(t, err, &de, "payload cut to %d bytes", n)
		require.Equal(t, "sensor_msgs/msg/PointCloud2", de.Type)
		if n >= 4 {
			require.NotEmpty(t, de.Field, "payload cut to %d bytes: %v", n, err)
		}
	}
	var m sensor_msgs.PointCloud2
	err = m.UnmarshalCDR(b[:len(b)-1])
	require.EqualError(t, err, "cdr: decoding sensor_msgs/msg/PointCloud2: field is_dense at byte 136: "+
		"truncated: need 1 bytes at byte 136, payload has 136")
	err = m.UnmarshalCDR(b[:len(b)-2])
	require.EqualError(t, err, "cdr: decoding sensor_msgs/msg/PointCloud2: field data at byte 112: "+
		"length exceeds payload: 24 elements of at least 1 bytes, 23 bytes left")
	err = m.UnmarshalCDR(b[:20])
	require.ErrorContains(t, err, "field header.frame_id")
}

// TestHugeClaimFailsAtOnce puts a 4 GB length in PointCloud2.data and in
// OccupancyGrid.data: decoding must fail without allocating the claim.
func TestHugeClaimFailsAtOnce(t *testing.T) {
	b, err := cloud().AppendCDR(nil)
	require.NoError(t, err)
	lenAt := len(b) - 1 - 24 - 4 // before is_dense and the 24 data bytes
	require.Equal(t, uint32(24), binary.LittleEndian.Uint32(b[lenAt:]))
	binary.LittleEndian.PutUint32(b[lenAt:], 0xffffffff)

	grid := nav_msgs.OccupancyGrid{Data: make([]int8, 10)}
	g, err := grid.AppendCDR(nil)
	require.NoError(t, err)
	require.Equal(t, uint32(10), binary.LittleEndian.Uint32(g[len(g)-14:]))
	binary.LittleEndian.PutUint32(g[len(g)-14:], 0xfffffff0)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var m sensor_msgs.PointCloud2
	errCloud := m.UnmarshalCDR(b)
	var og nav_msgs.OccupancyGrid
	errGrid := og.UnmarshalCDR(g)
	runtime.ReadMemStats(&after)

	require.ErrorIs(t, errCloud, cdr.ErrLength)
	require.ErrorContains(t, errCloud, "field data")
	require.ErrorIs(t, errGrid, cdr.ErrLength)
	require.ErrorContains(t, errGrid, "nav_msgs/msg/OccupancyGrid: field data")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10))
}

// TestBigEndianHeader decodes a std_msgs/Header written big-endian by hand.
func TestBigEndianHeader(t *testing.T) {
	b := []byte{0x00, 0x00, 0x00, 0x00, // CDR_BE
		0x00, 0x00, 0x00, 0x2a, // stamp.sec = 42
		0x00, 0x00, 0x01, 0x00, // stamp.nanosec = 256
		0x00, 0x00, 0x00, 0x04, 'm', 'a', 'p', 0x00} // frame_id
	var h std_msgs.Header
	require.NoError(t, h.UnmarshalCDR(b))
	require.Equal(t, int32(42), h.Stamp.Sec)
	require.Equal(t, uint32(256), h.Stamp.Nanosec)
	require.Equal(t, "map", h.FrameID)
}

func TestEmptyMessageIsOneByte(t *testing.T) {
	b, err := (&std_msgs.Empty{}).AppendCDR(nil)
	require.NoError(t, err)
	require.Equal(t, []byte{0, 1, 0, 0, 0}, b)
	require.Error(t, (&std_msgs.Empty{}).UnmarshalCDR(b[:4]))
}
