// Package planners holds navnode's search algorithms over a small Graph
// interface: A* and weighted A* so far, with the incremental and anytime
// planners (LPA*, D* Lite, ARA*, AD*, DPA*, Theta*) to follow on the same
// state layout. Lattice is the voxel graph (26-connected, no corner
// cutting; 8-connected in the plane).
//
// Search state lives in flat slices indexed by NodeID, allocated once per
// planner and reset in O(1) by generation stamps; the open list is a
// binary heap with decrease-key. Planners check their context every 1024
// expansions and return ErrTimeout with a partial path when it ends.
package planners
