// Package dds is navnode's default middleware: ROS 2 over CycloneDDS,
// called through cgo, with no ROS installation needed.
//
// It speaks DDS the way rmw_cyclonedds does. Topics are "rt/<name>" with
// type names "pkg::msg::dds_::Name_", keyless, XCDR1, without XTypes type
// information; a small C sertype (shim.c) carries the CDR bytes that Go
// encodes with msgs/. Each node is one DDS participant with USER_DATA
// "enclave=/;" that publishes ros_discovery_info (ParticipantEntitiesInfo
// with its endpoint GIDs: 16 bytes for Jazzy, 24 for Humble) so that
// "ros2 node list" sees it; on Jazzy every endpoint also carries
// "typehash=RIHS01_…;" in its USER_DATA.
//
// Delivery: each reader has a goroutine that blocks in a DDS waitset of its
// own (its read condition and a guard to stop it), takes one sample at a
// time and hands the payload, still in C memory, to the reader's handler on
// that goroutine, so a message crosses from C to Go by being decoded, not
// copied first, and reaches the handler with no goroutine hand-off. While a
// handler runs, samples wait in the reader's DDS history, which the QoS
// sizes. One more goroutine per node waits for status changes (matches,
// incompatible QoS). C never holds a Go pointer and never calls Go.
//
// Build: cgo with pkg-config package CycloneDDS (Debian: cyclonedds-dev
// 0.10.2). On a robot, point PKG_CONFIG_PATH at the CycloneDDS that ships
// with ROS 2, e.g. /opt/ros/humble/lib/x86_64-linux-gnu/pkgconfig. Without
// cgo the package builds, and New reports ErrNoCgo.
package dds
