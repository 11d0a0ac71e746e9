// The rclgo backend is a module of its own: github.com/tiiuae/rclgo needs
// ROS 2 Humble's headers and libraries, so the main module stays buildable
// everywhere without it. go.sum was written with GONOSUMDB set for rclgo,
// whose pseudo-version the checksum database does not list.
module github.com/navnode/navnode/ros/rclgo

go 1.26

require (
	github.com/navnode/navnode v0.0.0-00010101000000-000000000000
	github.com/tiiuae/rclgo v0.0.0-20240131135202-56b24e11219b
	go.uber.org/zap v1.28.0
)

require (
	go.uber.org/multierr v1.10.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)

replace github.com/navnode/navnode => ../..
