// Package navmesh is navnode's navigation mesh: a graph of convex regions
// of free space built from the voxel costmap and kept in step with it,
// tile by tile. Planners search it through the planners.Graph interface
// for a fast coarse route; DPA* re-plans on it after obstacles come and
// go (van Toll and Geraerts 2015), and a fine voxel search can be focused
// in a tunnel around its route (Kapadia et al.).
//
// # Regions
//
// Space is cut into tiles (Config.Tile voxels a side; Ground tiles are
// whole columns). Inside a tile, cells are covered greedily by boxes:
// from the lowest uncovered cell (z, then y, then x), a box grows along x,
// then y, then (Aerial only) z while the cells it takes are cells of the
// same cost band. Boxes are convex, hold only free cells, and together
// cover every cell exactly once. Aerial cells are passable voxels (cost ≤
// Config.MaxCost); Ground cells are walkable voxels: passable, standing
// on an occupied voxel (or the implicit floor), with Config.Headroom
// voxels free of obstacles from the cell up; Ground boxes are rectangles
// on one level. Maximal rectangles rather than convex polygons: on a
// voxel map every free cell boundary is axis-aligned, so rectangles lose
// no coverage, and they make point location, portals and the rebuild
// trivial to check.
//
// # Graph
//
// Regions are nodes; two regions that share part of a face (Aerial) or of
// an edge with levels at most Config.MaxStep apart (Ground) are joined by
// an edge through their portal. Coordinates are cell coordinates: a
// cell's centre is at its integer key, as on planners.Lattice. An edge
// costs the length of the path from one region's centre to the portal and
// on to the other's centre, each part times its region's weight (1 by
// default, higher in costlier bands); the heuristic, the distance between
// centres, never overestimates.
//
// # Updates
//
// Update takes a costmap change set, rebuilds only the tiles it touches
// and reports a Delta: removed and added regions, every node whose edges
// changed (for LPA*, D* Lite and AD*), their bounding box R and the kind
// of change (for DPA*). Because a tile's regions depend only on its cells,
// a mesh updated many times equals one built from scratch on the final
// map: the tests check exactly that. Region ids are never reused, so a
// stale id fails rather than aliasing a new region; the price is that ids
// (about 100 bytes each, edges included) accumulate over a long run until
// the mesh is built anew.
//
// # Insertions that make paths cheaper
//
// DPA* assumes that after an insertion no path got cheaper, and after a
// deletion none dearer. Free space does behave so, but the region graph
// only approximates it: an obstacle that splits a big region gives new
// centres, and a route through them can beat the old one through the big
// region's centre. The mesh therefore checks the assumption (certify.go)
// and reports an update as mixed (Delta.Change 0) when it cannot show it.
// ReplanChange then decides per robot: a mixed update can still be
// re-planned by DPA* when the robot's old path avoids R (Algorithm 2 only
// looks for improvements through R), and when it runs through R by
// Algorithm 1 with R grown over the parts of the old path next to R that a
// pair of regions the update brought closer could shorten (Algorithm 1
// keeps only the old path's head before R and its tail after it). When
// no head and no tail can be kept, the robot plans afresh. The tests hold
// DPA* to A*'s cost after every event either way.
//
// # Paths
//
// StraightPath turns a route of regions into a path of straight segments
// inside them: the funnel algorithm in Ground mode, a portal shortcut in
// Aerial mode (package corridor). Portals stop half a cell short of their
// ends, so a corner where the path turns round an obstacle keeps half a
// cell from it along the portal. Across the portal the corner lies on the
// two regions' shared face, so the path never enters an obstacle's voxel
// but touches its corner there. Where a route leaves a region and comes
// back out of the same face (round the end of a wall that stops at a tile
// border), the stretch between the two corners would run along the wall's
// face; StraightPath moves it half a cell off (corridor.OffFaces), so the
// path touches obstacles only at its corners. The costmap's inflation,
// not the path, keeps the robot clear.
package navmesh
