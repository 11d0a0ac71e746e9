// Command navnode is navnode's ROS 2 node: it keeps a voxel costmap of
// the map, point clouds, laser scans and obstacle markers it receives,
// and repairs the robot's path to the goal as the robot moves and the
// world changes (package replanner), publishing it on plan with
// diagnostics, markers, occupied voxels and a 2D costmap for RViz.
//
//	navnode [--ros-args -r from:=to -p name:=value --params-file F --log-level L]
//
// Its topics and parameters are in the README and config/navnode.yaml.
// SIGINT or SIGTERM stops it cleanly.
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
		fmt.Fprintln(os.Stderr, "navnode:", err)
		os.Exit(1)
	}
}
