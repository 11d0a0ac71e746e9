module github.com/navnode/navnode

go 1.26

require (
	github.com/golang/geo v0.0.0-20260818125358-b200a1149890
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
	go.uber.org/zap v1.28.0
	go.yaml.in/yaml/v3 v3.0.6
)

require go.uber.org/multierr v1.10.0 // indirect
