// Package rosconv converts between ROS 2 messages (msgs/...) and navnode's
// core types (costmap/voxel, internal/tf). Every function is pure: no
// network, no clock, no global state.
//
// Incoming messages come from the wire and are not trusted: every length
// and count is checked against the data before it is read, every float
// that matters is checked finite, and bad input returns an error wrapping
// one of this package's sentinels (ErrInvalid, ErrNoXYZ, ErrLayout,
// ErrTooLarge, ErrUnsupported) with the field and value at fault. Nothing
// here panics on a message.
//
// Units are ROS's (REP 103): metres, radians, seconds; times are
// time.Duration since the ROS epoch (tf.Stamp). Frame names lose one
// leading "/", as tf2 does. Converted values do not alias the message:
// the caller may decode the next message into the same value.
//
// Conversions into the map frame take the transform from the message's
// frame to the map frame (a tf.Transform, or a MarkerLookup for messages
// with many frames); the caller looks it up in its tf.Buffer at the
// message's stamp.
package rosconv
