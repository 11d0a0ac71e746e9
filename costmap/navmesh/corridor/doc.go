// Package corridor turns a navigation-mesh route into a path of straight
// segments.
//
// # Corridors
//
// A route is a chain of regions r[0], r[1], …, r[n−1]: closed
// axis-aligned boxes (Box), each touching the next. Portal p[i] is the
// opening between r[i] and r[i+1], their intersection: a Box with at
// least one degenerate axis (a face, an edge or a single point). The
// corridor is the union of the regions; a path is legal when every one of
// its segments lies in that union (InCorridor) and passes from one region
// to another only through a portal or a face the two share, never through
// an edge or corner where they merely touch: there the free space is
// pinched between two blocked voxels set corner to corner.
//
// Coordinates are cell coordinates: float64, one unit is one voxel edge,
// axes x, y, z. The caller converts to and from metres. All coordinates
// must be finite.
//
// # Algorithms
//
// Funnel is for ground robots (2.5D): it pulls the string through the
// portals in the xy plane with the funnel algorithm of Lee and Preparata
// ("Euclidean shortest paths in the presence of rectilinear barriers",
// Networks 14, 1984), in the restarting form Mikko Mononen called the
// "simple stupid funnel algorithm" (digestingduck.blogspot.com, 2010). On a
// simple corridor (only consecutive regions touch) its path is the
// shortest one in xy. It works out each portal's left and right from the
// order of the regions; the caller need not orient anything.
//
// Shortcut is for aerial robots (3D), where no funnel exists: it clamps a
// polyline onto the portals, slides its points along their portals while
// that shortens it, removes corners greedily while the straight segment
// stays in the corridor, then slides the remaining corners again. Its
// path is legal and never longer than the clamped polyline, but it is not
// guaranteed to be the exact 3D shortest path.
//
// Both give shortest or short paths, and such a path may run along the
// corridor's boundary: round the end of an obstacle that stops at a face
// the route crosses twice, the stretch between the two crossings lies on
// that face. OffFaces (for Funnel's paths) and OffFaces3D (for
// Shortcut's) move such stretches half a unit into the corridor.
//
// Funnel and Shortcut take the caller's buffer (dst) and allocate nothing else, so a
// reused buffer makes them allocation-free. There are no errors: a broken
// route is a caller bug, and both panic, with a "corridor: " prefix, when
// len(regions) != len(portals)+1; Funnel also panics on a portal that is
// not a segment or point in xy, or whose two regions do not lie on
// opposite sides of it. Other preconditions (start in the first region,
// goal in the last, portals inside their regions) are not checked.
package corridor
