// Package msgs holds the ROS 2 messages navnode speaks, as Go types with XCDR1
// codecs, generated from the real .msg files of ROS 2 Jazzy (and Humble where
// the two differ on the wire).
//
// Each ROS package is a Go package of the same name under msgs/, e.g.
// msgs/geometry_msgs. A message type such as geometry_msgs.PoseStamped
// encodes with AppendCDR into a caller's buffer and decodes with
// UnmarshalCDR, reusing the slices the value already holds. Constants are
// named Type_NAME, e.g. visualization_msgs.Marker_CUBE.
//
// The generated packages are committed. To regenerate them from
// ../shared/ros2-interfaces, run
//
//	go generate ./msgs/...
//
// msgs/humble/rmw_dds_common holds the Humble layout of rmw_dds_common, whose
// Gid is 24 bytes there and 16 in Jazzy.
package msgs

import "github.com/navnode/navnode/msgs/cdr"

//go:generate go run ./gen -o . -set jazzy=../../shared/ros2-interfaces/jazzy -set humble=../../shared/ros2-interfaces/humble -set test=internal/testmsgs/defs,../../shared/ros2-interfaces/jazzy -nohash humble -list internal/alltypes/alltypes.go jazzy/builtin_interfaces jazzy/std_msgs jazzy/geometry_msgs jazzy/nav_msgs jazzy/sensor_msgs jazzy/visualization_msgs jazzy/diagnostic_msgs jazzy/tf2_msgs jazzy/rcl_interfaces jazzy/rmw_dds_common jazzy/rosgraph_msgs humble/rmw_dds_common=humble/rmw_dds_common test/navnode_test_msgs=internal/testmsgs/navnode_test_msgs

// TypeInfo names a ROS 2 message type.
type TypeInfo struct {
	Name    string // ROS interface name, e.g. "geometry_msgs/msg/PoseStamped"
	DDSName string // DDS type name, e.g. "geometry_msgs::msg::dds_::PoseStamped_"
	Hash    string // RIHS01 type hash, "RIHS01_" and 64 hex digits; empty for Humble layouts
}

// Message is what every generated message type implements, through a pointer.
type Message interface {
	// MsgType returns the names and type hash of the message type.
	MsgType() TypeInfo
	// AppendCDR appends the message to dst as a CDR payload, encapsulation
	// header first, and returns the extended buffer.
	AppendCDR(dst []byte) ([]byte, error)
	// UnmarshalCDR decodes a CDR payload into the message, reusing the
	// capacity of slices it already holds. Errors are *cdr.DecodeError.
	UnmarshalCDR(payload []byte) error
	// EncodeCDR writes the fields, without the encapsulation header.
	EncodeCDR(w *cdr.Writer)
	// DecodeCDR reads the fields, without the encapsulation header.
	DecodeCDR(r *cdr.Reader)
}
