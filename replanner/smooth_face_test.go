package replanner

import (
	"context"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
)

// A path of one or two voxels whose ends, the robot and the goal, lie on
// one voxel face plane with a blocked voxel beyond it: the segment
// between them would run along that voxel's face, so the path goes
// through the voxels' centres instead. A review found the segment
// published: smooth checked only the segments that skip a waypoint.
func TestShortPathOnAFacePlane(t *testing.T) {
	const res = 0.125 // a binary fraction: the points lie exactly on the plane
	for _, c := range []struct {
		name       string
		pose, goal r3.Vector // in voxels
	}{
		{"two voxels", vec(2.5, 2, 2.5), vec(3.9, 2, 2.5)},
		{"one voxel", vec(3.1, 2, 2.5), vec(3.9, 2, 2.5)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := voxel.New(voxel.Config{Resolution: res})
			require.NoError(t, err)
			box := voxel.Box{Max: voxel.Key{X: 7, Y: 7, Z: 7}}
			_, err = m.Apply(&voxel.StaticVoxels{Box: box, Blocked: []voxel.Key{{X: 3, Y: 1, Z: 2}}})
			require.NoError(t, err)
			l, err := New(m, Config{Mode: Aerial, Volume: box, ReachedTolerance: 0.01})
			require.NoError(t, err)
			require.NoError(t, l.SetPose(c.pose.Mul(res)))
			require.NoError(t, l.SetGoal(c.goal.Mul(res)))
			out := l.Tick(context.Background())
			require.Equal(t, Following, out.Status)
			// Every segment clear on the map but at its ends: the robot and
			// the goal are on the blocked voxel's face, whatever the path.
			for i := 1; i < len(out.Path); i++ {
				a, b := out.Path[i-1], out.Path[i]
				d := b.Sub(a).Mul(1e-6)
				require.True(t, segmentClear(l, a.Add(d), b.Sub(d)), "segment %v → %v touches a blocked voxel", a, b)
			}
			require.Equal(t, c.pose.Mul(res), out.Path[0])
			require.Equal(t, out.Goal, out.Path[len(out.Path)-1])
		})
	}
}
