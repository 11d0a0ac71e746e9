package node

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/sim"
)

// TestCheckUnreachableWatches: checkUnreachable watches the robot from 1
// s after navnode first said unreachable to the next goal. When navnode
// says it late (6.5 s, the next goal at 7 s) that window is empty; the
// check used to pass a robot that drove 3 m toward its walled-in goal.
func TestCheckUnreachableWatches(t *testing.T) {
	logOf := func(unreachableAt float64) *sim.Log {
		l := &sim.Log{
			Goals: []sim.GoalRecord{{Type: "goal", T: 1, P: [3]float64{12, 12, 0}}, {Type: "goal", T: 7, P: [3]float64{9, 5.5, 0}}},
			Statuses: []sim.StatusRecord{{Type: "status", T: 1.2, Status: "planning"},
				{Type: "status", T: unreachableAt, Status: "unreachable"}, {Type: "status", T: 7.2, Status: "following"}},
		}
		for i := range 70 { // 0.5 m/s until navnode says unreachable, then still
			tm := 0.1 * float64(i)
			x := 4 + 0.5*max(0, min(tm, unreachableAt)-1)
			l.Poses = append(l.Poses, sim.PoseRecord{Type: "pose", T: tm, P: [3]float64{x, 9.2, 0}})
		}
		return l
	}
	require.False(t, fails(func(t require.TestingT) { checkUnreachable(t, logOf(2)) }), "the robot stood from 2 s")
	require.True(t, fails(func(t require.TestingT) { checkUnreachable(t, logOf(6.5)) }), "nothing watched")
}

// recorder is a require.TestingT that notes a failure.
type recorder struct{ failed bool }

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true; runtime.Goexit() }

// fails reports whether check fails.
func fails(check func(t require.TestingT)) bool {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failed
}

// TestCheckRepairedAtTheBoxTime: navnode's repair reported at the box's
// own time counts as after it. Under CI's load a status with replans 2
// came stamped 6.0 s, the box's time, and the check took it for the
// count before the box and failed a mission that had repaired.
func TestCheckRepairedAtTheBoxTime(t *testing.T) {
	l := &sim.Log{
		Obstacles: []sim.ObstacleRecord{{Type: "obstacle", T: 6, ID: "box", Action: "add"}},
		Statuses:  []sim.StatusRecord{{Type: "status", T: 1, Status: "following", Replans: 1}, {Type: "status", T: 6, Status: "following", Replans: 2}},
		Plans: []sim.PlanRecord{{Type: "plan", T: 1, Poses: [][3]float64{{0, 0, 0}, {10, 0, 0}}},
			{Type: "plan", T: 6, Poses: [][3]float64{{5, 0, 0}, {5, 3, 0}, {10, 0, 0}}}},
	}
	require.False(t, fails(func(t require.TestingT) { checkRepaired(t, l) }))
	l.Statuses = l.Statuses[:1]
	require.True(t, fails(func(t require.TestingT) { checkRepaired(t, l) }), "no repair reported")
}
