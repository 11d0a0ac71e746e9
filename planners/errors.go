package planners

import "errors"

var (
	// ErrNoPath: the goal cannot be reached from the start.
	ErrNoPath = errors.New("planners: no path")
	// ErrStartBlocked: the start is not a passable node.
	ErrStartBlocked = errors.New("planners: start is blocked")
	// ErrGoalBlocked: the goal is not a passable node.
	ErrGoalBlocked = errors.New("planners: goal is blocked")
	// ErrNodeRange: a node id outside the graph.
	ErrNodeRange = errors.New("planners: node outside the graph")
	// ErrTimeout: the deadline passed before a path was found.
	ErrTimeout = errors.New("planners: deadline passed")
	// ErrNoSearch: Resume without a search the deadline cut off.
	ErrNoSearch = errors.New("planners: no search to resume")
)
