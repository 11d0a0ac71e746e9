package rosconv

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/sensor_msgs"
)

// scanMsg has 5 beams from −90° to +90° by 45°, 2 m each.
func scanMsg() *sensor_msgs.LaserScan {
	return &sensor_msgs.LaserScan{
		Header:   Header("laser", 7*time.Second),
		AngleMin: -math.Pi / 2, AngleMax: math.Pi / 2, AngleIncrement: math.Pi / 4,
		RangeMin: 0.1, RangeMax: 10,
		Ranges: []float32{2, 2, 2, 2, 2},
	}
}

var laserPose = voxel.Pose{Position: vec(1, 1, 0.5), Orientation: voxel.Quat{Z: 2}} // 180°, not normalised

func TestLaserScan(t *testing.T) {
	msg := scanMsg()
	s, err := LaserScan(msg, laserPose)
	require.NoError(t, err)
	require.Equal(t, &voxel.Scan{
		Pose:     voxel.Pose{Position: vec(1, 1, 0.5), Orientation: voxel.Quat{Z: 1}},
		AngleMin: float64(float32(-math.Pi / 2)), AngleIncrement: float64(float32(math.Pi / 4)),
		Ranges: msg.Ranges, RangeMin: float64(float32(0.1)), RangeMax: 10, Stamp: 7 * time.Second,
	}, s)
	msg.Ranges[0] = 3
	require.Equal(t, float32(2), s.Ranges[0], "ranges are copied")

	// Beam 2 points along the laser's x, which is the map's −x: it ends
	// at (−1, 1, 0.5), on a voxel face, so the voxel beyond the face is
	// marked.
	m, err := voxel.New(voxel.Config{Resolution: 0.1})
	require.NoError(t, err)
	_, err = m.Apply(s)
	require.NoError(t, err)
	c, ok := m.CostAt(vec(-1.05, 1.05, 0.55))
	require.True(t, ok)
	require.Equal(t, voxel.Lethal, c)
	c, _ = m.CostAt(vec(-0.95, 1.05, 0.55))
	require.Equal(t, voxel.Free, c, "along the ray")

	// Drivers disagree on whether angle_max is the last beam's angle.
	msg.Ranges = msg.Ranges[:4]
	_, err = LaserScan(msg, laserPose)
	require.NoError(t, err, "one beam short")
	msg.Ranges = []float32{1, 1, 1, 1, 1, 1}
	_, err = LaserScan(msg, laserPose)
	require.NoError(t, err, "one beam more")
	msg.AngleIncrement, msg.AngleMin, msg.AngleMax = -msg.AngleIncrement, msg.AngleMax, msg.AngleMin
	_, err = LaserScan(msg, laserPose)
	require.NoError(t, err, "clockwise")
	msg.Ranges = nil
	_, err = LaserScan(msg, laserPose)
	require.NoError(t, err, "no beams")
}

func TestLaserScanMalformed(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for name, c := range map[string]struct {
		edit func(*sensor_msgs.LaserScan)
		pose *voxel.Pose
		want error
	}{
		"zero increment":     {edit: func(m *sensor_msgs.LaserScan) { m.AngleIncrement = 0 }},
		"NaN increment":      {edit: func(m *sensor_msgs.LaserScan) { m.AngleIncrement = nan }},
		"Inf increment":      {edit: func(m *sensor_msgs.LaserScan) { m.AngleIncrement = inf }},
		"NaN angle_min":      {edit: func(m *sensor_msgs.LaserScan) { m.AngleMin = nan }},
		"Inf angle_max":      {edit: func(m *sensor_msgs.LaserScan) { m.AngleMax = -inf }},
		"too many ranges":    {edit: func(m *sensor_msgs.LaserScan) { m.Ranges = make([]float32, 9) }},
		"too few ranges":     {edit: func(m *sensor_msgs.LaserScan) { m.Ranges = m.Ranges[:2] }},
		"wrong direction":    {edit: func(m *sensor_msgs.LaserScan) { m.AngleIncrement = -m.AngleIncrement }},
		"tiny increment":     {edit: func(m *sensor_msgs.LaserScan) { m.AngleIncrement = 1e-30 }},
		"over MaxBeams":      {edit: func(m *sensor_msgs.LaserScan) { m.Ranges = make([]float32, MaxBeams+1) }, want: ErrTooLarge},
		"range_min ≥ max":    {edit: func(m *sensor_msgs.LaserScan) { m.RangeMin = 10 }},
		"negative range_min": {edit: func(m *sensor_msgs.LaserScan) { m.RangeMin = -1 }},
		"NaN range_max":      {edit: func(m *sensor_msgs.LaserScan) { m.RangeMax = nan }},
		"Inf range_max":      {edit: func(m *sensor_msgs.LaserScan) { m.RangeMax = inf }},
		"bad stamp":          {edit: func(m *sensor_msgs.LaserScan) { m.Header.Stamp.Nanosec = 1e9 }},
		"negative stamp":     {edit: func(m *sensor_msgs.LaserScan) { m.Header.Stamp.Sec = -5 }},
		"NaN pose":           {pose: &voxel.Pose{Position: vec(math.NaN(), 0, 0), Orientation: voxel.Identity}},
		"zero quaternion":    {pose: &voxel.Pose{Position: vec(0, 0, 0)}},
		"Inf quaternion":     {pose: &voxel.Pose{Orientation: voxel.Quat{W: math.Inf(1)}}},
	} {
		msg := scanMsg()
		if c.edit != nil {
			c.edit(msg)
		}
		pose := laserPose
		if c.pose != nil {
			pose = *c.pose
		}
		if c.want == nil {
			c.want = ErrInvalid
		}
		s, err := LaserScan(msg, pose)
		require.ErrorIs(t, err, c.want, name)
		require.Nil(t, s)
		if c.want != ErrTooLarge {
			t.Logf("%s: %v", name, err)
		}
	}
	_, err := LaserScan(scanMsg(), voxel.Pose{Orientation: voxel.Quat{W: math.NaN()}})
	require.ErrorIs(t, err, tf.ErrInvalid, "the quaternion's own error is kept")
}
