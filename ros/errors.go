package ros

import (
	"errors"

	"github.com/navnode/navnode/ros/rmw"
)

// Sentinel errors, matched with errors.Is; the messages around them name
// the offending value.
var (
	// ErrInvalidName is a node name, namespace or topic name that breaks the
	// ROS 2 naming rules.
	ErrInvalidName = errors.New("ros: invalid name")
	// ErrArgs is a malformed --ros-args section or parameters file.
	ErrArgs = errors.New("ros: invalid arguments")
	// ErrParam is a parameter declared twice, given a value of the wrong
	// type or out of range, or given but never declared.
	ErrParam = errors.New("ros: parameter")
	// ErrClosed is an operation on a closed node, publisher or subscription;
	// the middleware returns it too.
	ErrClosed = rmw.ErrClosed
	// ErrDomainID is a ROS_DOMAIN_ID that is not a number from 0 to 232.
	ErrDomainID = errors.New("ros: invalid ROS_DOMAIN_ID")
)
