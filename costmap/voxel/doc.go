// Package voxel is navnode's world model: a sparse 3D voxel costmap that
// every planner reads. It is pure Go and knows nothing of ROS; adapters
// turn messages into its inputs.
//
// # Storage
//
// Voxels are cubes of Config.Resolution metres (0.02 to 2) addressed by
// Key, integer coordinates in the map frame from Config.Origin (Frame
// converts). They live in bricks of 8×8×8 in a hash table, made only where
// something is known, so memory follows observed space, not the bounding
// box: a drone can fly kilometres. Config.Window bounds memory further to
// a box around the robot (MoveWindow), and Config.MaxBricks caps it
// (ErrMemory). The static layer (a grid or a Moving AI map) is kept at its
// own scale, not voxel by voxel.
//
// A voxel's occupancy combines three layers: shapes (PutShape) make it
// occupied; otherwise the higher of the static layer's state and the
// sensor's (occupied above free above unknown). The sensor layer keeps
// log-odds per voxel as OctoMap does (see SensorModel): a moved obstacle
// clears within a few scans however long it stood, which hit/miss counts
// would not give.
//
// # Costs
//
// Costs mirror Nav2's so that users recognise them: Free 0, graded 1..252,
// Inscribed 253, Lethal 254, Unknown 255. The robot (Robot) is a sphere
// (aerial) or an upright cylinder (ground): a voxel within Radius of an
// obstacle costs 253, one farther but within InflationRadius costs
// 252·exp(−CostScaling·(d − Radius)), as Nav2's inflation layer does.
// Inflation is kept exact and incremental: an update recomputes squared
// distances only around the obstacles that changed (inflation.go).
//
// # Updates and change sets
//
// Every input is an Update given to Apply: *Grid (an occupancy grid
// extruded over a z band; LoadMapServer reads map_server files),
// *StaticVoxels (LoadMovingAI), *Cloud and *Scan (ray-cast with a 3D DDA),
// PutShape, DeleteShape and ClearShapes, Expire (decay of sensor marks)
// and MoveWindow. Apply returns a ChangeSet: every voxel whose cost rose
// or fell, with its old and new cost, each once, plus bounds. Rose and Fell
// compare cost values, so a voxel becoming Unknown (255) rose. Bulk
// changes (a new static map) come as Regions instead, inside which the map
// must be read. Planners repair from change sets; nothing diffs maps.
//
// Bad input is refused whole with ErrInput (a non-finite sensor origin, an
// absurd range, a shape larger than 2^24 voxels, a malformed grid) or, for
// single points and ranges, skipped and counted in ChangeSet.Input. No
// input makes the map panic or grow without bound.
//
// A Map belongs to one goroutine: it is not safe for concurrent use.
package voxel
