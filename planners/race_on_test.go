//go:build race

package planners

// raceDetector: the race detector slows these single-goroutine searches
// tenfold; `make test` runs this package once more without it, in full.
const raceDetector = true
