// Package rmw is the contract between package ros and the middleware that
// carries its messages, named after the ROS 2 layer it plays the part of.
//
// A Middleware creates Nodes; a Node creates Writers and Readers for fully
// qualified ROS topic names ("/goal_pose"), message types (msgs.TypeInfo)
// and QoS profiles. Payloads are whole CDR payloads, encapsulation header
// first: package ros encodes and decodes them with the generated codecs in
// msgs/, so every backend shares them. Backends: ros/dds (CycloneDDS, the
// default) and ros/rclgo (rcl through github.com/tiiuae/rclgo).
//
// The backend also keeps the node visible in the ROS graph (for DDS:
// ros_discovery_info) and reports QoS events.
package rmw
