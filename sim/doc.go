// Package sim is navsim's simulator: worlds, robots, sensors, scenarios
// and missions, in pure Go with no ROS (cmd/navsim puts it on the wire).
// It stands in for Gazebo and ros_gz_bridge in navnode's closed-loop
// tests and demo.
//
//   - A World holds static geometry (boxes turned about z, upright
//     cylinders, spheres, a map_server map extruded to walls, a Moving AI
//     voxel map) and dynamic obstacles by id. Raycast is exact for the
//     shapes (analytic intersections) and walks the cells of grids and
//     voxel maps with a DDA (voxel.Frame.Ray), entering each occupied cell
//     exactly. Collides tests the robot's Body: a sphere (aerial robots)
//     or an upright cylinder (ground robots) against everything; touching
//     counts.
//   - A Robot integrates its motion under limits: aerial robots are
//     holonomic in 3D (velocity commands, speed and acceleration capped),
//     ground robots are differential drives (speed, acceleration and yaw
//     rate capped). A Controller follows the latest plan with a carrot
//     that never cuts a corner by more than its tolerance.
//   - Lidar and Laser cast their beams into the world.
//   - A Scenario (YAML, below) puts a robot in a world with goals,
//     scripted and random obstacle events and hostile inputs on a
//     timeline; a Mission steps it at StepDT against the caller's clock,
//     writes the mission log (log.go) and ends with an Outcome: reached,
//     timeout, collision or unreachable, the distance travelled against
//     the optimal path (Space), the replans navnode reported.
//   - NavnodeParams gives the navnode parameters a scenario needs.
//
// # World files
//
// YAML, lengths in metres (map frame, z up), angles in radians. Every key
// is optional but bounds, which a world without a map needs; unknown keys
// are errors. File names are relative to the world file.
//
//	bounds: {min: [0, 0, 0], max: [30, 20, 6]}  # the volume simulated and planned in
//	map: maps/floor.yaml        # a map_server map (YAML + PGM): cells at occupancy 100 become walls;
//	wall_height: 2              #   this tall (default 2) from bounds.min.z; bounds default to the map's extent
//	movingai: maps/x.3dmap      # a Moving AI voxel map, each voxel a cube of
//	resolution: 0.25            #   this edge (required with movingai),
//	origin: [0, 0, 0]           #   voxel (0, 0, 0)'s corner here; bounds default to the map's extent
//	start: [2, 10, 1.5]         # a free place for a robot, used when no scenario gives one
//	boxes:                      # upright boxes: centre, full edge lengths, yaw about z
//	  - {center: [10, 5, 3], size: [4, 3, 6], yaw: 0.3}
//	cylinders:                  # upright cylinders: centre (mid-height), radius, height
//	  - {center: [15, 12, 2], radius: 0.4, height: 4}
//	spheres:
//	  - {center: [20, 8, 3], radius: 1}
//
// The built-in worlds (Builtin) read the shared data directory
// (internal/shareddata): depot and warehouse are Nav2's maps with walls 2
// m tall; simple is Moving AI's Simple.3dmap at 0.25 m. There is no ground
// plane: a beam that hits nothing returns nothing.
//
// # Scenario files
//
// YAML, same units; the world is resolved relative to the scenario file.
// Times are seconds from the mission's start (when navnode is up).
//
//	world: ../worlds/city.yaml  # a built-in name or a world file
//	robot:
//	  type: aerial              # aerial (a sphere) or ground (an upright cylinder, differential drive)
//	  radius: 0.3               # defaults: aerial 0.3, ground 0.25
//	  height: 0.4               # ground only, default 0.4
//	  max_speed: 1.5            # m/s; defaults aerial 1.5, ground 0.8
//	  max_accel: 2              # m/s²; defaults aerial 2, ground 1
//	  max_yaw_rate: 2           # rad/s; defaults aerial 2, ground 1.5
//	  start: [2, 10, 1.5]       # required, unless random endpoints (ground robots: the base, at bounds.min.z)
//	  yaw: 0
//	controller: {lookahead: 1.2, tolerance: 0.05, brake: 0.6}   # see ControllerSpec; defaults fit the robot
//	goals:                      # each replaces the one before; the last ends the mission when reached;
//	                            #   aerial goals between navnode's min_altitude and max_altitude (Band)
//	  - {at: 0.5, pose: [28, 10, 1.5]}
//	obstacles:                  # dynamic obstacles on /obstacles and in the sensors
//	  - {at: 5, id: crate, action: add, box: {center: [12, 10, 1.5], size: [2, 2, 2], yaw: 0}}
//	  - {at: 5, id: post, action: add, ahead: 3, cylinder: {radius: 0.5, height: 3}}  # on the plan, 3 m ahead (no center; ground: on the floor)
//	  - {at: 9, id: crate, action: move, to: [12, 14, 1.5], over: 2}   # over: seconds (0 jumps)
//	  - {at: 9, id: post, action: move, ahead: 4}
//	  - {at: 14, id: crate, action: delete}
//	random:                     # random obstacle events (the soak test), from a seed
//	  seed: 7                   # navsim -seed or $NAVSIM_SEED overrides it
//	  endpoints: false          # true: random free, connected start and goal (sent at 0.5 s); no robot.start or goals then
//	  min_distance: 5           #   at least this far apart
//	  events: 6                 # obstacle events (add, move, delete), the first at
//	  start: 2                  #   this time, then every period s
//	  period: [2, 5]
//	  size: [0.4, 1.2]          # edges and diameters, m (ground obstacles are 1.5 m tall)
//	  shapes: [box, cylinder, sphere]
//	  on_path: 0.5              # probability of landing on the plan, ahead m in front of the robot
//	  ahead: [2, 5]
//	  clearance: 1              # never nearer the robot or the goal than this
//	  keep_reachable: true      # never cut the robot off its goal
//	  max_live: 4
//	hostile:                    # malformed input sent to navnode (HostileKinds)
//	  - {at: 6, kind: garbage_obstacles}
//	  - {at: 8, kind: nan_goal}
//	sensors:                    # default: a LiDAR for aerial robots, a laser for ground ones
//	  lidar: {beams: 16, vertical_fov: 30, samples: 360, range: 12, rate: 10, z: 0, no_return: clear}
//	  laser: {samples: 360, range: 12, rate: 10, z: 0.2}  # z: above base_link; default: ground robots half their height
//	timeout: 40                 # default 60 with goals, none without; no goal or event may come after it
//	goal_tolerance: 0.3         # default 0.3 (ground robots: in the plane)
//	on_collision: stop          # stop (the mission ends) or continue (counted; then only expect: collision is met)
//	unreachable_after: 3        # seconds of navnode saying unreachable before the mission ends so
//	expect: reached             # or {result: reached, saw_status: [unreachable], min_replans: 2}
//	navnode: {resolution: 0.2}  # navnode parameters beyond those derived (NavnodeParams)
//
// Obstacle ids may not start with "random-", which random obstacles use.
// A field given is checked as given: an explicit 0 where 0 is out of
// range (goal_tolerance: 0, max_live: 0) is an error, not the default.
// Bad input of any kind is an error wrapping ErrWorld or ErrScenario
// that names the file and the entry, never a panic.
package sim
