// Package ros is navnode's ROS 2 client layer: nodes, typed publishers and
// subscriptions over the message types in msgs/, QoS profiles, parameters,
// ROS 2 name rules and --ros-args, and a zap logger that also publishes on
// /rosout.
//
//	node, err := ros.NewNode(ctx, "navnode", ros.WithArgs(os.Args[1:]))
//	plan, err := ros.NewPublisher[nav_msgs.Path](node, "plan", ros.QoSDefault)
//	sub, err := ros.Subscribe[geometry_msgs.PoseStamped](node, "goal_pose", ros.QoSDefault,
//		func(m *geometry_msgs.PoseStamped) { … })
//	res, err := ros.Declare(node, "resolution", 0.1, "voxel edge (m)", ros.Range(0.02, 2))
//
// The middleware behind it is rmw.Middleware: CycloneDDS (ros/dds) by
// default, rcl through rclgo with the rclgo build tag. Either way the
// payloads are encoded and decoded here, with the generated codecs.
//
// Concurrency: each subscription calls its handler on a goroutine of its
// own, one message at a time; Publish may be called from any goroutine.
// Cancelling the node's context closes everything; Close waits for running
// handlers, so a handler must not close its own subscription or node.
package ros
