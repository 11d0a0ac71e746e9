package main

import (
	"math"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/sim"
)

// hostile sends navnode one kind of malformed input (sim.HostileKinds),
// each message one navnode must count and drop:
//
//	garbage_obstacles   a MarkerArray in namespace "hostile": a CUBE of zero size, a SPHERE at NaN, a
//	                    CYLINDER of negative size, an unsupported TEXT marker, a CUBE with a zero quaternion
//	nan_goal            a goal at (NaN, y, z) in the map frame
//	unknown_frame_goal  a goal in frame "nowhere"
//	garbage_points      a cloud without x, y, z fields, and one whose data is shorter than it claims
//	garbage_scan        a scan with angle_increment 0
//	                    (both in the sensor's frame, base_link without the sensor)
//	nan_odom            odometry at NaN (the next true one follows 20 ms later)
func (s *simNode) hostile(kind string, now time.Duration) {
	nan := math.NaN()
	var err error
	switch kind {
	case "garbage_obstacles":
		a := &visualization_msgs.MarkerArray{}
		bad := func(typ int32, scale float64, edit func(*visualization_msgs.Marker)) {
			m := visualization_msgs.Marker{Header: rosconv.Header(frameMap, now), Ns: "hostile", ID: int32(len(a.Markers)),
				Type: typ, Scale: geometry_msgs.Vector3{X: scale, Y: scale, Z: scale}}
			m.Pose.Orientation.W = 1
			m.Pose.Position = s.goalOrRobot()
			if edit != nil {
				edit(&m)
			}
			a.Markers = append(a.Markers, m)
		}
		bad(visualization_msgs.Marker_CUBE, 0, nil)
		bad(visualization_msgs.Marker_SPHERE, 1, func(m *visualization_msgs.Marker) { m.Pose.Position.X = nan })
		bad(visualization_msgs.Marker_CYLINDER, -1, nil)
		bad(visualization_msgs.Marker_TEXT_VIEW_FACING, 1, func(m *visualization_msgs.Marker) { m.Text = "garbage" })
		bad(visualization_msgs.Marker_CUBE, 1, func(m *visualization_msgs.Marker) { m.Pose.Orientation.W = 0 })
		err = s.obstacles.Publish(a)
	case "nan_goal":
		p := s.goalOrRobot()
		p.X = nan
		g := goalMsg(rosconv.Vector(p), frameMap, now)
		err = s.goal.Publish(g)
	case "unknown_frame_goal":
		err = s.goal.Publish(goalMsg(rosconv.Vector(s.goalOrRobot()), "nowhere", now))
	case "garbage_points":
		frame := s.sensorFrame(frameLidar, s.sc.Lidar != nil)
		noXYZ := &sensor_msgs.PointCloud2{Header: rosconv.Header(frame, now), Height: 1, Width: 2, PointStep: 4, RowStep: 8,
			Fields: []sensor_msgs.PointField{{Name: "intensity", Datatype: sensor_msgs.PointField_FLOAT32, Count: 1}}, Data: make([]byte, 8)}
		short, _ := rosconv.VoxelCloud(s.cloud[:min(len(s.cloud), 4)], frame, now)
		short.Width += 10
		short.RowStep += 120
		err = s.points.Publish(noXYZ)
		if err == nil {
			err = s.points.Publish(&short)
		}
	case "garbage_scan":
		err = s.scan.Publish(&sensor_msgs.LaserScan{Header: rosconv.Header(s.sensorFrame(frameLaser, s.sc.Laser != nil), now), AngleMin: -1, AngleMax: 1,
			RangeMin: 0.1, RangeMax: 10, Ranges: []float32{1, 2, 3}})
	case "nan_odom":
		o := &nav_msgs.Odometry{Header: rosconv.Header(frameOdom, now), ChildFrameID: frameBase}
		o.Pose.Pose.Position.X, o.Pose.Pose.Orientation.W = nan, 1
		err = s.odom.Publish(o)
	}
	s.warn("hostile "+kind, err)
	s.log.Info("hostile input sent", zap.String("kind", kind))
}

// sensorFrame is the frame of a hostile sensor message: the sensor's, or
// base_link when the robot has no such sensor (so that navnode knows the
// frame, and counts the message malformed rather than dropping it).
func (s *simNode) sensorFrame(frame string, mounted bool) string {
	if mounted {
		return frame
	}
	return frameBase
}

// goalOrRobot is where hostile messages point: the goal, else the robot.
func (s *simNode) goalOrRobot() geometry_msgs.Point {
	if g, ok := s.m.Goal(); ok {
		return rosconv.Point(g)
	}
	return rosconv.Point(s.m.Robot().Pos)
}

// plannerStatus is the diagnostics status navnode reports its planner in.
const plannerStatus = "navnode: planner"

// navStatus reads navnode's diagnostics: its planner's status, replans
// and repair times, and the malformed messages it counted on every input.
func navStatus(d *diagnostic_msgs.DiagnosticArray) (sim.NavStatus, bool) {
	var st sim.NavStatus
	found := false
	for _, s := range d.Status {
		switch s.Name {
		case plannerStatus:
			found = true
			for _, kv := range s.Values {
				switch kv.Key {
				case "status":
					st.Status = kv.Value
				case "replans":
					st.Replans, _ = strconv.Atoi(kv.Value)
				case "repair p50":
					st.RepairP50 = millis(kv.Value)
				case "repair p99":
					st.RepairP99 = millis(kv.Value)
				}
			}
		case "navnode: inputs":
			for _, kv := range s.Values {
				if strings.HasSuffix(kv.Key, " malformed") {
					n, _ := strconv.Atoi(kv.Value)
					st.Malformed += n
				}
			}
		}
	}
	return st, found
}

// millis reads "1.234 ms"; 0 when it cannot.
func millis(v string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, " ms"), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}
