//go:build !rclgo

package ros

import (
	"github.com/navnode/navnode/ros/dds"
	"github.com/navnode/navnode/ros/rmw"
)

// newDefaultMiddleware returns CycloneDDS configured from the environment.
func newDefaultMiddleware(domainID uint32, enclave string) (rmw.Middleware, error) {
	cfg, err := dds.ConfigFromEnv()
	if err != nil {
		return nil, err
	}
	cfg.DomainID, cfg.Enclave = domainID, enclave
	return dds.New(cfg)
}
