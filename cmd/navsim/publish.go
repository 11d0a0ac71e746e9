package main

import (
	"math"
	"time"

	"github.com/golang/geo/r3"
	"go.uber.org/zap"

	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
	"github.com/navnode/navnode/sim"
)

// Frames navsim publishes in (REP-105, and the sensors' own).
const (
	frameMap   = "map"
	frameOdom  = "odom"
	frameBase  = "base_link"
	frameLidar = "lidar"
	frameLaser = "laser"
)

// stampNow is the wall clock as a ROS time.
func stampNow() time.Duration { return time.Duration(time.Now().UnixNano()) }

// warn logs a failed publication.
func (s *simNode) warn(what string, err error) {
	if err != nil {
		s.log.Warn("publishing "+what, zap.Error(err))
	}
}

// publishStatic publishes the sensors' mounts on tf_static and the
// world's map, once: both are transient local.
func (s *simNode) publishStatic() {
	now := stampNow()
	var m tf2_msgs.TFMessage
	mount := func(frame string, z float64) {
		m.Transforms = append(m.Transforms, transform(frameBase, frame, now, tf.Transform{
			Translation: r3.Vector{Z: z}, Rotation: tf.NoRotation}))
	}
	if l := s.sc.Lidar; l != nil {
		mount(frameLidar, l.Z)
	}
	if l := s.sc.Laser; l != nil {
		mount(frameLaser, l.Z)
	}
	if len(m.Transforms) > 0 {
		s.warn("tf_static", s.tfStatic.Publish(&m))
	}
	if g := s.m.World.Grid; g != nil {
		s.warn("map", s.grid.Publish(occupancyGrid(g, now)))
	}
}

// publishPose publishes the robot on odom and tf.
func (s *simNode) publishPose(now time.Duration) {
	st := s.m.Robot()
	pose := tf.Transform{Translation: st.Pos, Rotation: tf.YawQuat(st.Yaw)}
	s.warn("tf", s.tf.Publish(&tf2_msgs.TFMessage{Transforms: []geometry_msgs.TransformStamped{
		transform(frameMap, frameOdom, now, tf.Identity),
		transform(frameOdom, frameBase, now, pose),
	}}))
	o := &nav_msgs.Odometry{Header: rosconv.Header(frameOdom, now), ChildFrameID: frameBase}
	o.Pose.Pose = rosconv.PoseMsg(pose)
	// The twist is in the body frame.
	sn, c := math.Sincos(st.Yaw)
	o.Twist.Twist.Linear = geometry_msgs.Vector3{X: c*st.Vel.X + sn*st.Vel.Y, Y: -sn*st.Vel.X + c*st.Vel.Y, Z: st.Vel.Z}
	o.Twist.Twist.Angular.Z = st.YawRate
	s.warn("odom", s.odom.Publish(o))
}

// publish sends what a tick of the mission produced: the robot, then
// goals, obstacles, hostile input and the sensors that are due.
func (s *simNode) publish(res sim.StepResult) {
	now := stampNow()
	s.publishPose(now)
	if res.Goal != nil {
		s.warn("goal", s.goal.Publish(goalMsg(*res.Goal, frameMap, now)))
	}
	if len(res.Obstacles) > 0 {
		s.warn("obstacles", s.obstacles.Publish(s.markers.array(res.Obstacles, now)))
	}
	for _, k := range res.Hostile {
		s.hostile(k, now)
	}
	st := s.m.Robot()
	if l := s.sc.Lidar; res.Lidar && l != nil {
		s.cloud = l.Scan(s.m.World, st.Pos, st.Yaw, s.cloud)
		c, err := rosconv.VoxelCloud(s.cloud, frameLidar, now)
		if err == nil {
			err = s.points.Publish(&c)
		}
		s.warn("points", err)
	}
	if l := s.sc.Laser; res.Laser && l != nil {
		s.ranges = l.Scan(s.m.World, st.Pos, st.Yaw, s.ranges)
		s.warn("scan", s.scan.Publish(laserScan(l, s.ranges, now)))
	}
}

// laserScan returns a scan of ranges from laser l.
func laserScan(l *sim.Laser, ranges []float32, now time.Duration) *sensor_msgs.LaserScan {
	return &sensor_msgs.LaserScan{Header: rosconv.Header(frameLaser, now),
		AngleMin: float32(l.AngleMin()), AngleMax: float32(l.AngleMin() + l.Increment()*float64(len(ranges)-1)),
		AngleIncrement: float32(l.Increment()), ScanTime: float32(1 / l.Rate),
		RangeMin: sim.LaserRangeMin, RangeMax: float32(l.Range), Ranges: ranges}
}

func finite(v r3.Vector) bool { return tf.Finite(v) }
