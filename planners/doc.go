// Package planners holds navnode's search algorithms over a small Graph
// interface (node ids, successors and predecessors with costs, a
// heuristic, passability):
//
//   - AStar: A* and weighted A*, the reference every other planner is
//     tested against;
//   - ARAStar: ARA*, anytime A* with an ε schedule and INCONS;
//   - LazyTheta: Lazy Theta*, any-angle paths over a graph with line of
//     sight (AnyAngleGraph), never longer than A*'s;
//   - LPAStar and DStarLite: incremental searches that keep g and rhs
//     between calls and repair them from the nodes a change touched
//     (Update); D* Lite follows a moving start with k_m;
//   - ADStar: AD*, D* Lite with an inflated heuristic that improves its
//     path ε by ε under a deadline and repairs after changes;
//   - DPAStar: DPA*, which re-plans after one obstacle is inserted or
//     deleted by pruning A* with the old path and the affected region
//     (SpatialGraph adds node positions for h(V, R)).
//
// Lattice is the voxel graph (26-connected, no corner cutting; 8-connected
// in the plane). Every planner has Plan(ctx, start, goal, dst) returning a
// Result with the same Stats, and checks ctx every 1024 expansions.
//
// On a Lattice, A* keeps its per-cell state in 4096-cell brick pages taken
// as a query reaches them and reused by later queries; the other planners
// keep flat per-node slices indexed by NodeID, allocated once per planner
// and reset in O(1) by generation stamps. Open lists are heaps with
// decrease-key; no planner allocates per expansion.
package planners
