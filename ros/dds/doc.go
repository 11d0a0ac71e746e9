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
// Delivery: one goroutine per node blocks in a DDS waitset; when readers
// have data it takes them in batches of up to 64 samples with one cgo call
// and hands each payload, still in C memory, to the reader's handler, so a
// message crosses from C to Go by being decoded, not copied first. C never
// holds a Go pointer and never calls Go.
//
// Build: cgo with pkg-config package CycloneDDS (Debian: cyclonedds-dev
// 0.10.2). On a robot, point PKG_CONFIG_PATH at the CycloneDDS that ships
// with ROS 2, e.g. /opt/ros/humble/lib/x86_64-linux-gnu/pkgconfig. Without
// cgo the package builds, and New reports ErrNoCgo.
package dds
