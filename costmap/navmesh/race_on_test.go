//go:build race

package navmesh

const raceDetector = true
