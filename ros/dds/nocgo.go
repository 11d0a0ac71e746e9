//go:build !cgo

package dds

import "github.com/navnode/navnode/ros/rmw"

// Middleware is rmw.Middleware on CycloneDDS; without cgo it cannot exist.
type Middleware struct{}

// New reports ErrNoCgo: this build has no CycloneDDS.
func New(cfg Config) (*Middleware, error) { return nil, ErrNoCgo }

// NewNode reports ErrNoCgo.
func (m *Middleware) NewNode(name, ns string) (rmw.Node, error) { return nil, ErrNoCgo }
