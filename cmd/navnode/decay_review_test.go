package main

import (
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
)

// TestReviewFutureStampedCloudBreaksDecay: with decay_s, one point cloud
// in the map frame stamped far in the future (2^31−1 s, a driver with a
// bad clock, a corrupt header) is accepted: toMap needs no transform for
// the map frame, so nothing checks its stamp. Its Expire{Now: 2038} wipes
// every sensor mark at once, and the costmap's sensor clock is rebased to
// 2038, after which every later (correct) stamp reads as time 0 and
// Expire never forgets anything again. README (decay_s): marks are
// "neither lost at once nor kept for ever". Want: the stray cloud refused
// or its stamp not allowed to move the decay clock; marks that clouds at
// the right time stop hitting still decay.
func TestReviewFutureStampedCloudBreaksDecay(t *testing.T) {
	n, _ := testNode(t, 203)
	n.p.Decay = time.Second
	w, err := newWorld(n.p)
	require.NoError(t, err)
	gone, kept, stray := r3.Vector{X: 3.05, Y: 0.05, Z: 1.05}, r3.Vector{X: -3.05, Y: 0.05, Z: 1.05}, r3.Vector{X: 0.05, Y: 5.05, Z: 1.05}
	cloud := func(stamp time.Duration, pts ...r3.Vector) {
		c, err := rosconv.VoxelCloud(pts, "map", stamp)
		require.NoError(t, err)
		n.onPoints(&c)
		select {
		case f := <-n.inbox:
			f(w)
		default: // refused
		}
	}
	occupied := func(p r3.Vector) bool { c, _ := w.vm.CostAt(p); return c == voxel.Lethal }

	cloud(100*time.Second, gone, kept)
	require.True(t, occupied(gone) && occupied(kept))
	cloud((1<<31-1)*time.Second, stray) // one cloud from 2038
	assert.True(t, occupied(kept), "a stray stamp must not wipe the marks at once")
	cloud(100*time.Second+500*time.Millisecond, gone, kept) // both seen again, on the right clock
	for s := 101; s <= 104; s++ {
		cloud(time.Duration(s)*time.Second, kept)
	}
	require.True(t, occupied(kept), "hit again at 104 s")
	require.False(t, occupied(gone), "not hit since 100 s: must decay by 104 s (decay_s 1 s)")
	require.False(t, occupied(stray), "the stray cloud is refused")
	require.EqualValues(t, 1, n.cnt.bad[topicPoints], "and counted as malformed")
}
