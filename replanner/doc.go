// Package replanner is the robot's planning loop: robot poses, goals and
// costmap change sets go in (SetPose, SetGoal, Cancel, Changed), and each
// Tick returns the path to follow, a Status and statistics. It joins
// costmap/voxel and planners and knows nothing of ROS: cmd/navnode feeds
// it from topics and publishes what it returns.
//
// # The graph
//
// New builds a planners.Lattice over Config.Volume from the map's costs:
// node ids are voxel keys relative to Volume.Min. A voxel is passable when
// its cost is at most MaxCost (Unknown only with UnknownIsFree), and
// weighs 1 + CostWeight·cost/252, so that a path keeps away from obstacles
// when it can. Aerial mode plans in the whole box, 26-connected, the box's
// z range being the altitude limits; ground mode plans on its floor layer
// (Volume.Min.Z, the voxel of the robot's base), 8-connected. A ground
// robot's height needs no check of its own: with a Cylinder robot the
// costmap already inflates a floor voxel by every obstacle between the
// base and the robot's top.
//
// Changed reads each voxel a change set lists inside the Volume (and every
// voxel of its bulk Regions) back from the map, updates the lattice, and
// hands the planner Lattice.Around of each cell whose edges changed, so
// that D* Lite and AD* repair their search instead of starting over.
//
// # When to search
//
// Searching is the expensive part, so Tick searches only when the path it
// has may no longer be the one to follow. After a change set, if costs
// only rose and no changed cell is a node of the remaining path or lies in
// the bounding box of one of its moves (a lattice move needs its box free
// and costs by its ends), then the path's cost is unchanged and no other
// path got cheaper: it is still optimal and is kept (DPA*'s scenario 1,
// planners.InsertionUnaffected). If any cost fell, a cheaper path may
// exist, and the planner repairs. A robot moving along the path is no
// reason to search either: a suffix of an optimal path is optimal, so the
// path is trimmed to the robot's voxel. Tick searches on a new goal (or a
// goal moved to another voxel), a change crossing the path, a fall, the
// robot in a voxel off the remaining path, a search that ran out of time,
// and, with AD*, while the published path is not yet optimal (ε > 1).
//
// # Strategies
//
// D* Lite (the default) searches backward from the goal and treats the
// robot as a moving start, so a repair costs about the change's extent,
// not the map's. With a Budget per Tick, Auto picks AD*: each Tick runs
// passes at falling ε until the budget is spent, publishes the best path
// with its bound ε, and later Ticks improve it to ε = 1; changes on the
// path send ε back to Epsilon0. A* searches from scratch after every
// change, the baseline the others are measured against; under a
// deadline it searches from the goal, so that a search cut off goes on at
// the next Tick though the robot has moved. The Budget applies to every
// strategy; every Tick gets at least one deadline-check interval (1024
// expansions), so that an absurdly small Budget still makes progress.
//
// # Ends of the path
//
// A robot inside an inflated obstacle (its voxel not passable) plans from
// the nearest passable voxel within StartTolerance, the path then starting
// at that voxel's centre; with none the status is Blocked. A goal whose
// voxel is not passable moves to the nearest passable voxel within
// GoalTolerance; with none, or with no path, the status is Unreachable,
// and the loop tries again once the costmap changes or the robot moves.
// The nearest voxel is chosen as voxel.Map.NearestFree chooses it (centre
// distance, ties by key), but among lattice cells, so that it lies in the
// Volume, on the floor layer, and is passable by the lattice's own rule.
// Within ReachedTolerance of the goal the status is Reached, until the
// next goal.
//
// # The published path
//
// The lattice path is shortened by line of sight through the lattice's
// passable cells (every voxel a segment touches in the Volume, of cost ≤
// MaxCost, or Unknown with UnknownIsFree), so that the robot is not sent
// along staircases; Output.Raw and Output.RawCost keep the lattice path and its
// cost for diagnostics and for checking optimality.
//
// A Loop, like the voxel.Map it reads, belongs to one goroutine.
package replanner
