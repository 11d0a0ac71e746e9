// Package tf is a small transform buffer, the part of ROS 2's tf2 that
// navnode needs: it keeps the transforms published on /tf and /tf_static
// and answers "where is frame A relative to frame B at time t".
//
// # Conventions
//
// A geometry_msgs/TransformStamped with header.frame_id P and
// child_frame_id C gives the pose of C in P: its Transform takes points
// expressed in C to P. The frames form a tree (each child has one parent
// at a time, REP 105: map → odom → base_link → sensors). Lookup(target,
// source, t) returns the transform taking points in source to target at
// time t, chaining through the common ancestor at any depth, as tf2's
// lookupTransform(target, source, t) does.
//
// Times are time.Duration since the ROS epoch (builtin_interfaces/Time
// converted by Stamp); metres and radians throughout. Frame names lose one
// leading "/", as in tf2. Time 0 in Lookup means "the latest time at which
// every transform on the path is known".
//
// Dynamic transforms are kept for Options.CacheTime (10 s by default) behind
// the newest one of their child frame and interpolated between the two
// stamps around the query time: linearly in translation, by slerp in
// rotation. Static transforms hold at every time. A query outside a
// frame's history by more than Options.Tolerance is refused with
// ErrExtrapolation.
//
// Rotations are unit quaternions (Quat) with ROS's x, y, z, w layout and
// Hamilton convention. Input quaternions are normalised; non-finite or zero
// ones are refused with ErrInvalid.
//
// A Buffer is safe for concurrent use: several subscription goroutines
// add and look up at once.
package tf
