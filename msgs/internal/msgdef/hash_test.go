package msgdef

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// Type hashes that ROS 2 Jazzy itself printed or recorded. None of them were
// computed by this project; each comes with where it was found.
var rosHashes = []struct {
	typ, hash, source string
}{
	{"geometry_msgs/Twist", "RIHS01_9c45bf16fe0983d80e3cfe750d6835843d265a9a6c46bd2e609fcddde6fb8d2a",
		"ros2_documentation, Understanding-ROS2-Topics tutorial: `ros2 topic info /turtle1/cmd_vel --verbose`"},
	{"geometry_msgs/TwistStamped", "RIHS01_5f0fcd4f81d5d06ad9b4c4c63e3ea51b82d6ae4d0558f1d475229b1121db6f64",
		"`ros2 topic info /cmd_vel -v` on a ros_gz_bridge subscription, quoted in a public robotics guide"},
	{"tf2_msgs/TFMessage", "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
		"`ros2 topic info /robot1/tf --verbose` (amcl publisher) and a Jazzy rosbag2 metadata.yaml, two public transcripts"},
	{"nav_msgs/OccupancyGrid", "RIHS01_8d348150c12913a31ee0ec170fbf25089e4745d17035792a1ba94d6f0bc0cfc7",
		"`ros2 topic info /downsampled_costmap -v` (rviz subscription), a public transcript"},
	{"std_msgs/String", "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
		"rosbag2 metadata.yaml type_description_hash for a std_msgs/msg/String topic; rmw_zenoh design notes"},
}

func TestHashMatchesROS(t *testing.T) {
	set := NewSet(shareddata.Path(t, "ros2-interfaces", "jazzy"))
	for _, c := range rosHashes {
		t.Run(c.typ, func(t *testing.T) {
			spec, err := set.Lookup(c.typ)
			require.NoError(t, err)
			d, err := set.Describe(spec)
			require.NoError(t, err)
			require.Equal(t, c.hash, d.Hash(), "source: %s\njson: %s", c.source, d.HashJSON())
		})
	}
}
