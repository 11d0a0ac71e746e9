package replanner

import (
	"context"
	"time"
)

// sliceContext is ctx with a planning deadline, for one Tick's search.
// The planners poll Err every 1024 expansions, the first time before
// they expand anything; a deadline already past at that first poll would
// let a Budget shorter than a planner's set-up (re-keying its open list,
// sizing its state) starve the search forever. So the first poll only
// reports the parent's end, never the deadline: every slice expands at
// least one interval, and a search always progresses from Tick to Tick.
//
// Done closes when Err first reports the deadline (or the parent's end),
// not by a timer: the context is polled, never waited on, by the
// planners it is made for.
type sliceContext struct {
	context.Context
	deadline time.Time
	polled   bool
	done     chan struct{}
	err      error
}

func newSliceContext(parent context.Context, budget time.Duration) *sliceContext {
	return &sliceContext{Context: parent, deadline: time.Now().Add(budget), done: make(chan struct{})}
}

// Deadline is the earlier of the slice's and the parent's.
func (c *sliceContext) Deadline() (time.Time, bool) {
	if d, ok := c.Context.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done closes once Err has reported an error.
func (c *sliceContext) Done() <-chan struct{} { return c.done }

// Err reports the parent's end at once, and the slice's deadline from the
// second poll on.
func (c *sliceContext) Err() error {
	if c.err != nil {
		return c.err
	}
	err := c.Context.Err()
	if err == nil && c.polled && !time.Now().Before(c.deadline) {
		err = context.DeadlineExceeded
	}
	c.polled = true
	if err != nil {
		c.err = err
		close(c.done)
	}
	return err
}

// renew gives the next search under c a first poll of its own, as long
// as c has not ended: a strategy that runs several searches in one Tick
// (the tunnel: a coarse route, then fine searches) gives each at least
// one interval, so that each progresses however short the Budget.
func (c *sliceContext) renew() {
	if c.err == nil {
		c.polled = false
	}
}

// renew renews ctx if it is a slice.
func renew(ctx context.Context) {
	if c, ok := ctx.(*sliceContext); ok {
		c.renew()
	}
}
