// Package msgdef parses ROS 2 .msg interface files, resolves the types they
// reference, and computes their type descriptions and RIHS01 type hashes.
//
// The parsing rules follow rosidl_adapter (the tool that turns .msg files
// into IDL in a ROS 2 build): '#' starts a comment anywhere on a line, a line
// is "TYPE NAME [DEFAULT]" for a field or "TYPE NAME=VALUE" for a constant,
// char is an alias for uint8 and byte for octet, and a message without fields
// gets the field "uint8 structure_needs_at_least_one_member".
//
// The type hash follows REP-2011 as implemented by
// rosidl_generator_type_description in ROS 2 Jazzy: the type description
// (the type and every type it references, sorted by name, without default
// values) is written as JSON with Python's json.dumps separators ", " and
// ": ", and hashed with SHA-256; the hash string is "RIHS01_" and 64 hex
// digits.
package msgdef
