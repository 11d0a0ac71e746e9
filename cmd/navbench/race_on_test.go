//go:build race

package main

// raceDetector: the race detector slows the searches tenfold; `make test`
// runs this package once more without it, in full.
const raceDetector = true
