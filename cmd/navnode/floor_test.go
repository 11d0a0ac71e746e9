package main

import (
	"context"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/replanner"
)

// TestGroundFloorReturns: a ground robot's 3D LiDAR sees the floor. With
// origin_z at the floor, as the README asks, those returns (here 1 cm
// up) used to mark the floor layer, and inflation from the base voxel up
// then blocked every floor voxel: the robot went from following to
// unreachable (a review found it). Returns lower than
// min_obstacle_height now clear and mark nothing; a box 0.3 m up still
// blocks, and the path goes round it.
func TestGroundFloorReturns(t *testing.T) {
	n, _ := testNode(t, 181)
	n.p.Mode, n.p.RobotHeight, n.p.MinObstacleHeight = "ground", 0.5, 0.05
	w, err := newWorld(n.p)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, w.setPose(r3.Vector{X: -5}))
	require.NoError(t, w.setGoal(r3.Vector{X: 5}))
	out, _ := w.tick(ctx)
	require.Equal(t, replanner.Following, out.Status)

	var pts []r3.Vector
	for x := -8.0; x <= 8; x += 0.05 {
		for y := -3.0; y <= 3; y += 0.05 {
			pts = append(pts, r3.Vector{X: x, Y: y, Z: 0.01})
		}
	}
	for y := -1.0; y <= 1; y += 0.05 { // a box across the straight line, 0.3 m up
		pts = append(pts, r3.Vector{X: 0.05, Y: y, Z: 0.35})
	}
	c, err := rosconv.VoxelCloud(pts, "map", 0)
	require.NoError(t, err)
	// The sensor is at the map frame's origin here, 10 m from the
	// robot; its rays run just above the floor.
	n.onPoints(&c)
	(<-n.inbox)(w)
	out, _ = w.tick(ctx)
	require.Equal(t, replanner.Following, out.Status)
	cost, _ := w.vm.CostAt(r3.Vector{X: 3.05, Y: 0.05, Z: 0.01})
	require.Equal(t, voxel.Free, cost, "the floor is free")
	cost, _ = w.vm.CostAt(r3.Vector{X: 0.05, Y: 0.55, Z: 0.35})
	require.Equal(t, voxel.Lethal, cost, "the box is marked")
	for _, p := range out.Path {
		require.False(t, p.X > -0.5 && p.X < 0.5 && p.Y > -1.3 && p.Y < 1.3, "the path goes round the box: %v", p)
	}
}
