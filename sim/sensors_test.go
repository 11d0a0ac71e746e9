package sim

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

func TestLidarAndLaser(t *testing.T) {
	w := &World{}
	require.NoError(t, w.Put("wall", Shape{Kind: KindBox, Center: r3.Vector{X: 5, Z: 1}, Size: r3.Vector{X: 1, Y: 40, Z: 2}}))
	l := &Lidar{Beams: 3, VerticalFOV: 20, Samples: 8, Range: 10, Rate: 10, Z: 0.5, NoReturn: NoReturnClear}
	require.NoError(t, l.check())
	require.InDelta(t, -10*math.Pi/180, l.Elevation(0), 1e-12)
	require.Zero(t, l.Elevation(1))
	pts := l.Scan(w, r3.Vector{Z: 0.5}, 0, nil)
	require.Len(t, pts, 24)
	// The middle ring, straight ahead: the wall's face at x = 4.5, in the sensor frame.
	require.InDelta(t, 0, pts[8].Sub(r3.Vector{X: 4.5}).Norm(), 1e-9)
	// Straight back: nothing within range, so a point at twice the range.
	require.InDelta(t, 20, pts[12].Norm(), 1e-9)
	// Turned a quarter left, the wall is on the robot's right (−y in the sensor frame).
	pts = l.Scan(w, r3.Vector{Z: 0.5}, math.Pi/2, pts)
	require.InDelta(t, 0, pts[14].Sub(r3.Vector{Y: -4.5}).Norm(), 1e-9)
	// The upper ring from 1 m up misses the 2 m wall ahead: 4.5 m away it is 1.79 m up.
	l.NoReturn = NoReturnDrop
	pts = l.Scan(w, r3.Vector{Z: 0.5}, 0, pts)
	require.Len(t, pts, 5, "only the beams that hit: ahead on every ring, and ±45° on the middle one")
	l.NoReturn = NoReturnInf
	pts = l.Scan(w, r3.Vector{Z: 0.5}, 0, pts)
	require.True(t, math.IsInf(pts[12].X, 1))

	laser := &Laser{Samples: 8, Range: 10, Rate: 10, Z: 0.2}
	require.NoError(t, laser.check())
	ranges := laser.Scan(w, r3.Vector{}, 0, nil)
	inf, diag := float32(math.Inf(1)), float32(4.5*math.Sqrt2)
	require.Equal(t, []float32{inf, inf, inf, diag, 4.5, diag, inf, inf}, ranges, "beams every π/4 from −π")
}

// TestMissionObstacleEvents checks scripted events: an obstacle placed
// ahead on the plan, a gradual move reported at 5 Hz, a delete.
func TestMissionObstacleEvents(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeFile(dir+"/open.yaml", "bounds: {min: [0, 0, 0], max: [20, 10, 4]}\n"))
	sc, err := ParseScenario(strings.NewReader(`
world: open.yaml
robot: {type: ground, start: [1, 5, 0]}
goals: [{at: 0.1, pose: [18, 5, 0]}]
obstacles:
  - {at: 0.5, id: crate, action: add, ahead: 5, box: {size: [1, 1, 1]}}
  - {at: 1, id: crate, action: move, to: [10, 8, 0.5], over: 1}
  - {at: 3, id: crate, action: delete}
timeout: 4
expect: timeout
`), dir+"/s.yaml")
	require.NoError(t, err)
	w, err := ResolveWorld(sc.World, sc.WorldDir())
	require.NoError(t, err)
	var buf bytes.Buffer
	m, err := NewMission(sc, w, NewLogWriter(&buf))
	require.NoError(t, err)
	m.SetPlan([]r3.Vector{{X: 1, Y: 5}, {X: 10, Y: 5}, {X: 10, Y: 1}})
	for {
		x := m.Robot().Pos.X
		res := m.Step()
		if len(res.Obstacles) > 0 && res.Obstacles[0].Action == Add {
			c := res.Obstacles[0].Shape.Center
			require.InDelta(t, x+5, c.X, 0.02, "5 m ahead on the plan (from where the robot was at the last command)")
			require.Equal(t, 5.0, c.Y)
			require.Equal(t, 0.5, c.Z, "standing on the floor")
		}
		if res.Done {
			break
		}
	}
	log, err := ReadLog(&buf)
	require.NoError(t, err)
	var moves []ObstacleRecord
	for _, r := range log.Obstacles {
		if r.Action == Move {
			moves = append(moves, r)
		}
	}
	require.Len(t, moves, 6, "5 Hz over one second, and its end")
	require.Equal(t, [3]float64{10, 8, 0.5}, moves[len(moves)-1].Shape.Center)
	require.Equal(t, Delete, log.Obstacles[len(log.Obstacles)-1].Action)
	_, ok := w.Obstacle("crate")
	require.False(t, ok)
	o, _ := m.Outcome()
	require.True(t, o.OK, o.Why)
}
