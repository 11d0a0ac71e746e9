// Command navsim is navnode's simulator: a ROS 2 node that publishes what
// Gazebo with ros_gz_bridge would for a robot in a world (package sim),
// follows navnode's /plan, and reports how the mission went.
//
//	navsim [-world NAME|FILE] [-scenario FILE] [-log FILE] [-seed N] [-wait D] [-exit=false]
//	       [-write-params FILE] [--ros-args ...]
//
// Topics (names relative, so namespaces and -r remaps apply):
//
//	map        nav_msgs/OccupancyGrid          out, transient local, once (worlds with a map)
//	points     sensor_msgs/PointCloud2         out, sensor QoS, frame lidar, x y z float32, at the LiDAR's rate
//	scan       sensor_msgs/LaserScan           out, sensor QoS, frame laser, at the laser's rate
//	odom       nav_msgs/Odometry               out, 50 Hz, frame odom, child base_link
//	tf         tf2_msgs/TFMessage              out, 50 Hz: map → odom (identity), odom → base_link
//	tf_static  tf2_msgs/TFMessage              out, transient local: base_link → lidar, base_link → laser
//	obstacles  visualization_msgs/MarkerArray  out, namespace "scenario": each obstacle event (a move is an ADD)
//	goal_pose  geometry_msgs/PoseStamped       out at each goal's time; in, without scripted goals (RViz)
//	plan       nav_msgs/Path                   in: the robot follows the latest
//	/diagnostics diagnostic_msgs/DiagnosticArray in: navnode's status, replans, repair times
//
// The mission's clock starts once navnode is up (a subscriber on
// goal_pose and a publisher on plan, within -wait) and steps every 20 ms
// of wall time. Stamps are wall-clock time; use_sim_time is accepted and
// changes nothing (navsim publishes no /clock). At the end navsim prints a
// one-line summary, writes the outcome as the log's last line, and exits:
// status 0 when the outcome is what the scenario expects, 1 otherwise.
// SIGINT or SIGTERM stops it (status 0, outcome "stopped").
//
// Launch files pass only -world and -scenario; the environment gives the
// rest there: NAVSIM_LOG is -log's default and NAVSIM_SEED -seed's (the
// soak run sets it per mission).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "navsim:", err)
		os.Exit(1)
	}
}
