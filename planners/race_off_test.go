//go:build !race

package planners

const raceDetector = false
