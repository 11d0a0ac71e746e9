//go:build rclgo

package ros

import (
	"errors"

	"github.com/navnode/navnode/ros/rmw"
)

// newDefaultMiddleware refuses: a binary built with the rclgo tag links rcl
// and its rmw, so CycloneDDS is left out and the caller must pass the rcl
// middleware itself, ros.WithMiddleware(rclgo.New()).
func newDefaultMiddleware(uint32, string) (rmw.Middleware, error) {
	return nil, errors.New("ros: built with the rclgo tag; pass ros.WithMiddleware(rclgo.New())")
}
