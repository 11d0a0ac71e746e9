package rosconv

import (
	"runtime"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
)

// TestReviewOneCellGridCost: a one-cell OccupancyGrid (a ~100-byte
// message) whose resolution is large but finite is accepted by
// OccupancyGrid, and applying it makes the costmap allocate and walk one
// byte (plus one bool) per voxel column its single cell covers. The cost
// of a /map message must be bounded by what the message holds (its
// cells) or by the planning volume, not by its metric extent: such a grid
// should be refused (ErrTooLarge/ErrInvalid) or cost next to nothing.
func TestReviewOneCellGridCost(t *testing.T) {
	msg := &nav_msgs.OccupancyGrid{}
	msg.Header.FrameID = "map"
	msg.Info.Width, msg.Info.Height = 1, 1
	msg.Info.Resolution = 409.6 // 4096×4096 columns of 0.1 m; 3276.8 passes too (2^30 columns, 2 GiB)
	msg.Info.Origin = geometry_msgs.Pose{Orientation: geometry_msgs.Quaternion{W: 1}}
	msg.Data = []int8{0}
	g, err := OccupancyGrid(msg, 0, 4, voxel.UnknownStays)
	if err != nil {
		return // refused: fine
	}
	m, err := voxel.New(voxel.Config{Resolution: 0.1, Origin: r3.Vector{X: -10, Y: -10}})
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err = m.Apply(g)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("1×1 grid at %v m: err %v, %d bytes allocated, %v", msg.Info.Resolution, err, alloc, took)
	require.Less(t, alloc, uint64(1<<20),
		"a one-cell map allocated %d bytes (scaled to resolution 3276.8 m: 2 GiB); want it refused or cheap", alloc)
}
