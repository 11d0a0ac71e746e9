package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRepairQuantiles checks the nearest-rank percentiles: with 100 repairs
// the p99 is the 99th fastest, so one outlier does not become the p99.
func TestRepairQuantiles(t *testing.T) {
	cases := []struct {
		n        int
		p50, p99 time.Duration
	}{
		{1, 1, 1},
		{2, 1, 2},
		{3, 2, 3},
		{100, 50, 99},
		{101, 51, 100},
		{200, 100, 198},
		{512, 256, 507},
	}
	for _, c := range cases {
		var r repairTimes
		for i := c.n; i >= 1; i-- { // added out of order
			r.add(time.Duration(i) * time.Millisecond)
		}
		p50, p99 := r.quantiles()
		assert.Equal(t, c.p50*time.Millisecond, p50, "p50 of %d", c.n)
		assert.Equal(t, c.p99*time.Millisecond, p99, "p99 of %d", c.n)
	}
}

// TestRepairQuantilesWindow checks that the window keeps only the last
// repairWindow times.
func TestRepairQuantilesWindow(t *testing.T) {
	var r repairTimes
	for range repairWindow {
		r.add(time.Hour)
	}
	for range repairWindow {
		r.add(time.Millisecond)
	}
	p50, p99 := r.quantiles()
	assert.Equal(t, time.Millisecond, p50)
	assert.Equal(t, time.Millisecond, p99)
	var empty repairTimes
	p50, p99 = empty.quantiles()
	assert.Zero(t, p50)
	assert.Zero(t, p99)
}
