// Package rclgo is navnode's middleware on rcl, the ROS 2 client library in
// C, through github.com/tiiuae/rclgo: for machines where ROS 2 Humble is
// installed and sourced, so that navnode uses the robot's own rmw (Fast DDS
// by default, or rmw_cyclonedds) and shows up in the graph through rcl.
//
// Payloads are the same CDR bytes package ros encodes with msgs/: writers
// publish them with rcl_publish_serialized_message and readers take them
// with rcl_take_serialized_message, with the C type support of each message
// loaded by name (lib<pkg>__rosidl_typesupport_c.so).
//
// Everything is behind the build tag rclgo and this directory is a module
// of its own; see README.md in the repository for how to build it. What it
// does not do: it reports no QoS events (rclgo exposes none), GIDs are zero
// (rclgo does not expose them), and WaitAcked is not supported.
package rclgo
