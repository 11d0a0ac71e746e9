package ros

import "github.com/navnode/navnode/ros/rmw"

// QoS is a ROS 2 quality-of-service profile; see rmw.QoS for its fields.
type QoS = rmw.QoS

// The QoS profiles ROS 2 users know.
var (
	// QoSDefault: reliable, volatile, keep last 10 (rmw_qos_profile_default).
	QoSDefault = rmw.Default
	// QoSSensorData: best effort, volatile, keep last 5 (rmw_qos_profile_sensor_data).
	QoSSensorData = rmw.SensorData
	// QoSMap: reliable, transient local, keep last 1, as Nav2's map_server
	// publishes /map: late joiners get the last map.
	QoSMap = rmw.Map
	// QoSRosout: the /rosout profile of rcl.
	QoSRosout = rmw.Rosout
)
