//go:build !race

package navmesh

const raceDetector = false
