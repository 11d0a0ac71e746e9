package tf

import (
	"fmt"
	"strings"
	"time"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
)

// FrameName returns a frame id as tf2 keys it: without one leading "/".
func FrameName(id string) string { return strings.TrimPrefix(id, "/") }

// Stamp converts a builtin_interfaces/Time to a duration since the ROS
// epoch. It refuses, with ErrInvalid, a negative time (rclcpp cannot hold
// one) and nanoseconds of 10^9 or more (the message's contract).
func Stamp(t builtin_interfaces.Time) (time.Duration, error) {
	if t.Sec < 0 || t.Nanosec >= 1e9 {
		return 0, fmt.Errorf("%w: stamp %d s %d ns", ErrInvalid, t.Sec, t.Nanosec)
	}
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Nanosec), nil
}

// TimeMsg converts a duration since the ROS epoch to a
// builtin_interfaces/Time, nanoseconds in [0, 10^9). Seconds beyond int32
// saturate.
func TimeMsg(d time.Duration) builtin_interfaces.Time {
	sec, ns := d/time.Second, d%time.Second
	if ns < 0 {
		sec, ns = sec-1, ns+time.Second
	}
	sec = min(max(sec, -1<<31), 1<<31-1)
	return builtin_interfaces.Time{Sec: int32(sec), Nanosec: uint32(ns)}
}
