package main

import (
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
)

func TestSensorStamps(t *testing.T) {
	t0 := time.Unix(1000, 0)
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	for _, decay := range []bool{false, true} {
		var s sensorStamps
		check := func(topic string, stamp float64, ms int) error {
			return s.check(topic, sec(stamp), t0.Add(time.Duration(ms)*time.Millisecond), decay)
		}
		require.NoError(t, check("points", 100, 0))
		require.NoError(t, check("points", 100.1, 100))
		require.NoError(t, check("points", 50, 200), "back: not this check's business")
		require.NoError(t, check("points", 110, 300), "a minute ahead, whenever it comes")
		require.ErrorIs(t, check("points", 171, 300), errStrayStamp, "61 s ahead at once")
		require.NoError(t, check("points", 171, 300))
		require.NoError(t, check("points", 1171, 10300), "100 times the 10 s since the last")
		require.ErrorIs(t, check("points", 1<<31-1, 10400), errStrayStamp)
		require.NoError(t, check("scan", 1<<31-1, 10400), "a scan's first message; with decay, close to the cloud before it")
		require.NoError(t, check("points", 1<<31-1+0.1, 10500), "a clock that really jumped is followed from its second message")
		require.NoError(t, check("scan", 1<<31-1+0.2, 10600))
		require.NoError(t, check("points", 100, 10700))
		// The scan's clock is now 68 years ahead of the clouds'.
		if decay {
			require.ErrorIs(t, check("scan", 1<<31-1+0.3, 10800), errStrayStamp, "judged against /points too")
			require.ErrorContains(t, check("scan", 1<<31-1+0.4, 10900), "on points (decay", "and its own topic")
		} else {
			require.NoError(t, check("scan", 1<<31-1+0.3, 10800), "without decay, topics are judged apart")
		}
	}
}

// TestStraySensorClock: with decay, a sensor whose clock runs far ahead
// of the others' is refused at every message, the first on its topic
// included. A review found that the first /scan, stamped in 2038 while
// /points ran at 100 s, was judged against no earlier scan and passed,
// and its Expire wiped every mark the clouds had made.
func TestStraySensorClock(t *testing.T) {
	n, _ := testNode(t, 231)
	n.p.Decay = time.Second
	w, err := newWorld(n.p)
	require.NoError(t, err)
	run := func() {
		select {
		case f := <-n.inbox:
			f(w)
		default: // refused
		}
	}
	wall := r3.Vector{X: 3.05, Y: 0.05, Z: 1.05}
	cloud := func(s int) {
		c, err := rosconv.VoxelCloud([]r3.Vector{wall}, "map", time.Duration(s)*time.Second)
		require.NoError(t, err)
		n.onPoints(&c)
		run()
	}
	for s := 100; s <= 102; s++ {
		cloud(s)
	}
	occupied := func() bool { c, _ := w.vm.CostAt(wall); return c == voxel.Lethal }
	require.True(t, occupied())

	// Scans with one beam pointing away from the wall, stamped in 2038.
	for i := range 2 {
		n.onScan(&sensor_msgs.LaserScan{
			Header:   std_msgs.Header{FrameID: "map", Stamp: tf.TimeMsg((1<<31 - 1) * time.Second)},
			AngleMin: 3, AngleMax: 3, AngleIncrement: 0.01, RangeMin: 0.1, RangeMax: 10,
			Ranges: []float32{1}})
		run()
		require.True(t, occupied(), "scan %d wiped the clouds' marks (decay_s 1 s, last seen at 102 s)", i)
		cloud(103 + i)
	}
	require.Equal(t, 2, n.cnt.bad[topicScan], "both scans refused and counted")
}
