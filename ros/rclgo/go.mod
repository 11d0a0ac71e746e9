// The rclgo backend is a module of its own: github.com/tiiuae/rclgo needs
// ROS 2 Humble's headers and libraries, and the Go module proxy does not
// serve it, so the main module stays buildable everywhere without it.
module github.com/navnode/navnode/ros/rclgo

go 1.26

require (
	github.com/navnode/navnode v0.0.0-00010101000000-000000000000
	github.com/tiiuae/rclgo v0.0.0-20240131135202-56b24e11219b
)

replace github.com/navnode/navnode => ../..
