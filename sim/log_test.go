package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// TestLogRoundTrip writes one record of each type and reads them back.
func TestLogRoundTrip(t *testing.T) {
	w, err := LoadWorld("../worlds/city.yaml")
	require.NoError(t, err)
	var buf bytes.Buffer
	l := NewLogWriter(&buf)
	opt := 12.5
	box := Shape{Kind: KindBox, Center: r3.Vector{X: 1, Y: 2, Z: 3}, Size: r3.Vector{X: 1, Y: 1, Z: 2}, Yaw: 0.25}
	want := &Log{
		World: worldRecord(w),
		Mission: MissionRecord{Type: "mission", Scenario: "s.yaml", Start: [3]float64{1, 2, 3}, Timeout: 40,
			GoalTolerance: 0.3, Expect: Reached, Robot: RobotRecord{Type: Aerial, Radius: 0.3, MaxSpeed: 1.5, MaxAccel: 2, MaxYawRate: 2}},
		Poses:      []PoseRecord{{Type: "pose", T: 0.1, P: [3]float64{1, 2, 3}, Yaw: 0.5, Speed: 1}},
		Goals:      []GoalRecord{{Type: "goal", T: 0.5, P: [3]float64{4, 5, 6}}},
		Plans:      []PlanRecord{{Type: "plan", T: 0.7, Poses: [][3]float64{{1, 2, 3}, {4, 5, 6}}}},
		Obstacles:  []ObstacleRecord{{Type: "obstacle", T: 1, ID: "b", Action: Add, Shape: shapeRecord(box)}, {Type: "obstacle", T: 2, ID: "b", Action: Delete}},
		Statuses:   []StatusRecord{{Type: "status", T: 1.2, Status: "following", Replans: 3, RepairP50: 0.5, RepairP99: 2.5, Malformed: 1}},
		Hostile:    []HostileRecord{{Type: "hostile", T: 3, Kind: "nan_goal"}},
		Collisions: []CollisionRecord{{Type: "collision", T: 4, P: [3]float64{1, 1, 1}, With: Static}},
		Outcome: &Outcome{Type: "outcome", Result: Reached, Time: 20, Distance: 14, Optimal: &opt, Replans: 3,
			Statuses: []string{"following"}, Expect: Reached, OK: true},
	}
	for _, r := range []any{want.World, want.Mission, want.Poses[0], want.Goals[0], want.Plans[0], want.Obstacles[0],
		want.Obstacles[1], want.Statuses[0], want.Hostile[0], want.Collisions[0], want.Outcome} {
		l.Write(r)
	}
	require.NoError(t, l.Err())
	buf.WriteString(`{"type":"from_the_future","x":1}` + "\n")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 12, "one record a line")
	for _, line := range lines {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m))
		require.Contains(t, m, "type")
	}
	require.Contains(t, lines[0], `"type":"world"`)
	require.Contains(t, lines[10], `"optimal":12.5`)

	got, err := ReadLog(&buf)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, box, got.Obstacles[0].Shape.Shape())
	require.Len(t, got.World.Shapes, len(w.Static))
	require.Equal(t, w.Static[0], got.World.Shapes[0].Shape())
}

func TestLogErrors(t *testing.T) {
	for _, text := range []string{"not json\n", `{"type":"pose","p":"here"}` + "\n", `{"type":"outcome","time":"soon"}`} {
		_, err := ReadLog(strings.NewReader(text))
		require.ErrorIs(t, err, ErrLog, text)
		require.ErrorContains(t, err, "line 1")
	}
	var nilLog *LogWriter
	nilLog.Write(PoseRecord{}) // a nil log discards
	require.NoError(t, nilLog.Err())
	l := NewLogWriter(failing{})
	l.Write(PoseRecord{})
	require.Error(t, l.Err())
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }
