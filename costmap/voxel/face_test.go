package voxel

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// A wall whose face lies exactly on a voxel face, as simulators and worlds
// built from 0.05 m map cells make them, is marked on its own side only:
// every return marks the voxel behind the face and the voxel in front stays
// free, however the float32 ranges round. Without the nudge about half of
// the returns land in front, and a passage beside the wall opens and closes
// from one scan to the next.
func TestReturnsOnVoxelFaceMarkBehindIt(t *testing.T) {
	const wallY = 2.5 // the face between voxel rows 24 and 25 at 0.1 m
	m := newMap(t, Config{Resolution: 0.1})
	for step := range 20 {
		o := vec(1.03+0.05*float64(step), 1.07, 0.25)
		s := &Scan{
			Pose:     Pose{Position: o, Orientation: Identity},
			AngleMin: 0.6, AngleIncrement: 0.01,
			RangeMin: 0.1, RangeMax: 12,
		}
		for i := range 200 {
			a := s.AngleMin + float64(i)*s.AngleIncrement
			s.Ranges = append(s.Ranges, float32((wallY-o.Y)/math.Sin(a)))
		}
		_, err := m.Apply(s)
		require.NoError(t, err)
		for i, r := range s.Ranges {
			a := s.AngleMin + float64(i)*s.AngleIncrement
			x := o.X + float64(r)*math.Cos(a)
			behind, _ := m.frame.KeyOf(vec(x+hitNudgeVoxels*0.1*math.Cos(a), wallY+0.05, o.Z))
			front, _ := m.frame.KeyOf(vec(x, wallY-0.05, o.Z))
			require.Equal(t, Lethal, m.Cost(behind), "scan %d beam %d: the voxel behind the face at x %.4f", step, i, x)
			require.Equal(t, Free, m.Cost(front), "scan %d beam %d: the voxel in front of the face at x %.4f", step, i, x)
		}
	}
}
