package rmw

import (
	"fmt"
	"strings"
	"time"
)

// History says how many samples a writer or reader keeps.
type History int

// History kinds.
const (
	KeepLast History = iota // keep the last Depth samples
	KeepAll                 // keep every sample until delivered
)

// Reliability says whether lost samples are repaired.
type Reliability int

// Reliability kinds, ordered as DDS orders them: a reader may not ask for
// more than a writer offers.
const (
	BestEffort Reliability = iota
	Reliable
)

// Durability says whether late-joining readers get earlier samples.
type Durability int

// Durability kinds, ordered as DDS orders them.
const (
	Volatile       Durability = iota
	TransientLocal            // the writer keeps its last Depth samples for late joiners
)

// Liveliness says who asserts that a writer is alive.
type Liveliness int

// Liveliness kinds, ordered as DDS orders them.
const (
	Automatic     Liveliness = iota // the middleware asserts it
	ManualByTopic                   // each write asserts it
)

// QoS is a ROS 2 quality-of-service profile. Zero durations mean "none":
// no deadline, no lifespan, an infinite liveliness lease.
type QoS struct {
	History History
	// Depth is the samples kept with KeepLast. 0 means 1: rclcpp takes a
	// zero depth for the system default, which is 1 in rmw_cyclonedds.
	Depth           int
	Reliability     Reliability
	Durability      Durability
	Deadline        time.Duration // longest gap between samples; 0 = none
	Lifespan        time.Duration // how long a sample stays valid; 0 = forever
	Liveliness      Liveliness
	LivelinessLease time.Duration // 0 = infinite
}

// The profiles ROS 2 users know, with rclcpp's values.
var (
	// Default is rmw_qos_profile_default: reliable, volatile, keep last 10.
	Default = QoS{History: KeepLast, Depth: 10, Reliability: Reliable}
	// SensorData is rmw_qos_profile_sensor_data: best effort, volatile, keep last 5.
	SensorData = QoS{History: KeepLast, Depth: 5, Reliability: BestEffort}
	// Map is what Nav2's map_server uses for /map, a latched topic:
	// reliable, transient local, keep last 1.
	Map = QoS{History: KeepLast, Depth: 1, Reliability: Reliable, Durability: TransientLocal}
	// Rosout is the /rosout profile of rcl: reliable, transient local,
	// keep last 1000, samples live 10 s.
	Rosout = QoS{History: KeepLast, Depth: 1000, Reliability: Reliable, Durability: TransientLocal,
		Lifespan: 10 * time.Second}
)

// Validate reports a profile that no middleware can use.
func (q QoS) Validate() error {
	switch {
	case q.History != KeepLast && q.History != KeepAll, q.Reliability != BestEffort && q.Reliability != Reliable,
		q.Durability != Volatile && q.Durability != TransientLocal,
		q.Liveliness != Automatic && q.Liveliness != ManualByTopic:
		return fmt.Errorf("rmw: QoS with an unknown policy kind: %+v", q)
	case q.History == KeepLast && q.Depth < 0:
		return fmt.Errorf("rmw: keep-last QoS needs a depth of at least 0, got %d", q.Depth)
	case q.Deadline < 0 || q.Lifespan < 0 || q.LivelinessLease < 0:
		return fmt.Errorf("rmw: negative QoS duration in %v", q)
	}
	return nil
}

// String formats q the way ros2 topic info -v prints a profile, on one line.
func (q QoS) String() string {
	var b strings.Builder
	if q.History == KeepAll {
		b.WriteString("keep_all")
	} else {
		fmt.Fprintf(&b, "keep_last(%d)", q.Depth)
	}
	b.WriteString(", " + kindName(int(q.Reliability), "best_effort", "reliable"))
	b.WriteString(", " + kindName(int(q.Durability), "volatile", "transient_local"))
	b.WriteString(", deadline " + durationText(q.Deadline))
	b.WriteString(", lifespan " + durationText(q.Lifespan))
	b.WriteString(", liveliness " + kindName(int(q.Liveliness), "automatic", "manual_by_topic"))
	b.WriteString(" lease " + durationText(q.LivelinessLease))
	return b.String()
}

// kindName names policy kind k, even one Validate would reject.
func kindName(k int, names ...string) string {
	if k < 0 || k >= len(names) {
		return fmt.Sprintf("unknown(%d)", k)
	}
	return names[k]
}

func durationText(d time.Duration) string {
	if d == 0 {
		return "infinite"
	}
	return d.String()
}

// Incompatible returns why a writer offering pub cannot serve a reader
// requesting sub, in the words rmw_dds_common uses, or "" if they match.
func Incompatible(pub, sub QoS) string {
	switch {
	case pub.Reliability < sub.Reliability:
		return "Best effort publisher and reliable subscription"
	case pub.Durability < sub.Durability:
		return "Volatile publisher and transient local subscription"
	case sub.Deadline != 0 && pub.Deadline == 0:
		return "Subscription has a deadline, but publisher does not"
	case sub.Deadline != 0 && sub.Deadline < pub.Deadline:
		return "Subscription deadline is less than publisher deadline"
	case pub.Liveliness < sub.Liveliness:
		return "Publisher's liveliness is automatic and subscription's is manual by topic"
	case sub.LivelinessLease != 0 && pub.LivelinessLease == 0:
		return "Subscription has a liveliness lease duration, but publisher does not"
	case sub.LivelinessLease != 0 && sub.LivelinessLease < pub.LivelinessLease:
		return "Subscription liveliness lease duration is less than publisher"
	}
	return ""
}
