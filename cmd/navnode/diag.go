package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/replanner"
)

// counters are what the diagnostics report about the inputs: received,
// dropped (refused whole) and malformed messages per topic, and the
// points and ranges the costmap skipped. Subscription goroutines and the
// planning goroutine both count, so it is locked.
type counters struct {
	mu       sync.Mutex
	received map[string]int
	dropped  map[string]int
	bad      map[string]int
	skipped  int // points/ranges the costmap skipped (NaN, out of range, outside the world)
	since    time.Time
	rates    map[string]int // received since the last report
	warned   map[string]bool
	wire     map[string]func() int // payloads that did not decode, counted by the subscription
	// The totals of malformed and dropped messages at the last report:
	// the inputs warn while these grow, not for ever after one.
	badAt, droppedAt int
}

func newCounters() *counters {
	return &counters{received: map[string]int{}, dropped: map[string]int{}, bad: map[string]int{},
		rates: map[string]int{}, warned: map[string]bool{}, wire: map[string]func() int{}, since: time.Now()}
}

// watch adds count's payloads that did not decode to topic's malformed
// messages.
func (c *counters) watch(topic string, count func() int) {
	c.mu.Lock()
	c.wire[topic] = count
	c.mu.Unlock()
}

func (c *counters) got(topic string) {
	c.mu.Lock()
	c.received[topic]++
	c.rates[topic]++
	c.mu.Unlock()
}

// malformed counts a message that could not be used and reports whether
// this is the first of its kind (topic and reason), which is logged.
func (c *counters) malformed(topic, reason string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bad[topic]++
	k := topic + "\x00" + reason
	first := !c.warned[k]
	c.warned[k] = true
	return first
}

// drop counts a message refused whole (e.g. a point cloud in a frame with
// no transform) and reports whether it is the first of its kind.
func (c *counters) drop(topic, reason string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropped[topic]++
	k := "drop\x00" + topic + "\x00" + reason
	first := !c.warned[k]
	c.warned[k] = true
	return first
}

func (c *counters) skip(n int) {
	c.mu.Lock()
	c.skipped += n
	c.mu.Unlock()
}

// repairTimes keeps the last repair times for percentiles.
type repairTimes struct {
	window []time.Duration
	next   int
	sorted []time.Duration
}

const repairWindow = 512

func (r *repairTimes) add(d time.Duration) {
	if len(r.window) < repairWindow {
		r.window = append(r.window, d)
		return
	}
	r.window[r.next] = d
	r.next = (r.next + 1) % repairWindow
}

// quantiles returns the median and 99th percentile of the window, by the
// nearest-rank method: the q-quantile of n times is the ⌈q·n⌉-th smallest,
// so the p99 of 100 repairs is the 99th, not the slowest.
func (r *repairTimes) quantiles() (p50, p99 time.Duration) {
	if len(r.window) == 0 {
		return 0, 0
	}
	r.sorted = append(r.sorted[:0], r.window...)
	slices.Sort(r.sorted)
	return nearestRank(r.sorted, 50), nearestRank(r.sorted, 99)
}

// nearestRank returns the pct-th percentile of sorted (not empty).
// Integer percent keeps ⌈pct·n/100⌉ exact; in floating point 0.07·100 is
// just above 7 and would round up to the 8th.
func nearestRank(sorted []time.Duration, pct int) time.Duration {
	rank := (pct*len(sorted) + 99) / 100
	return sorted[max(rank, 1)-1]
}

// diagState is what the planning goroutine knows for a report.
type diagState struct {
	status     string
	level      byte
	message    string
	planner    string
	epsilon    float64
	expansions int
	replans    int
	repairs    *repairTimes
	voxels     int
	scenario   string                 // DPA*'s last search: its re-planning scenario, or "planned afresh"; "" with other planners
	tunnel     *replanner.TunnelStats // the tunnel planner's mesh and last search; nil with other planners
	tfAge      time.Duration          // age of the robot's latest pose, -1 if none
	pathLen    int
	goal       string
	held       bool // the path is kept against a cheaper one (switch_delay_s)
}

// report builds the DiagnosticArray: one status for the planner, one for
// the inputs.
func report(c *counters, s *diagState, now time.Time, header std_msgs.Header) *diagnostic_msgs.DiagnosticArray {
	p50, p99 := s.repairs.quantiles()
	kv := func(k string, v any) diagnostic_msgs.KeyValue {
		var str string
		switch v := v.(type) {
		case float64:
			str = strconv.FormatFloat(v, 'g', 6, 64)
		case time.Duration:
			str = strconv.FormatFloat(float64(v)/float64(time.Millisecond), 'f', 3, 64) + " ms"
		default:
			str = fmt.Sprint(v)
		}
		return diagnostic_msgs.KeyValue{Key: k, Value: str}
	}
	planner := diagnostic_msgs.DiagnosticStatus{Level: s.level, Name: "navnode: planner", HardwareID: "navnode",
		Message: s.message, Values: []diagnostic_msgs.KeyValue{
			kv("status", s.status), kv("planner", s.planner), kv("epsilon", s.epsilon),
			kv("expansions", s.expansions), kv("replans", s.replans),
			kv("repair p50", p50), kv("repair p99", p99),
			kv("path poses", s.pathLen), kv("path held", s.held), kv("goal", s.goal),
			kv("voxels observed", s.voxels),
		}}
	if s.scenario != "" {
		planner.Values = append(planner.Values, kv("dpa scenario", s.scenario))
	}
	if t := s.tunnel; t != nil {
		width := "whole volume"
		if !math.IsInf(t.Width, 1) {
			width = strconv.FormatFloat(t.Width, 'g', 4, 64) + " m"
		}
		planner.Values = append(planner.Values, kv("mesh regions", t.Regions), kv("mesh update", t.MeshUpdate),
			kv("mesh rebuilds", t.Rebuilds), kv("tunnel width", width), kv("tunnel retries", t.Retries))
	}
	if s.tfAge >= 0 {
		planner.Values = append(planner.Values, kv("tf age", s.tfAge))
	} else {
		planner.Values = append(planner.Values, kv("tf age", "no pose yet"))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	secs := now.Sub(c.since).Seconds()
	inputs := diagnostic_msgs.DiagnosticStatus{Name: "navnode: inputs", HardwareID: "navnode", Message: "ok"}
	var bad, dropped int
	wire := map[string]int{}
	for t, count := range c.wire {
		if n := count(); n > 0 {
			wire[t] = n
		}
	}
	for _, t := range sortedKeys(c.received, c.bad, c.dropped, wire) {
		malformed := c.bad[t] + wire[t]
		inputs.Values = append(inputs.Values,
			kv(t+" rate", float64(c.rates[t])/max(secs, 1e-3)),
			kv(t+" received", c.received[t]),
			kv(t+" dropped", c.dropped[t]),
			kv(t+" malformed", malformed))
		bad += malformed
		dropped += c.dropped[t]
	}
	inputs.Values = append(inputs.Values, kv("points skipped", c.skipped))
	// Warn while messages are refused, not for ever after one: the
	// first scans of a robot whose localisation starts later are
	// dropped (no transform to the map yet), and then all is well.
	switch newBad, newDropped := bad-c.badAt, dropped-c.droppedAt; {
	case newBad+newDropped > 0:
		inputs.Level, inputs.Message = diagnostic_msgs.DiagnosticStatus_WARN,
			fmt.Sprintf("%d malformed and %d dropped messages so far, %d and %d since the last report", bad, dropped, newBad, newDropped)
	case bad+dropped > 0:
		inputs.Message = fmt.Sprintf("ok; %d malformed and %d dropped messages so far", bad, dropped)
	}
	c.badAt, c.droppedAt = bad, dropped
	clear(c.rates)
	c.since = now
	return &diagnostic_msgs.DiagnosticArray{Header: header, Status: []diagnostic_msgs.DiagnosticStatus{planner, inputs}}
}

func sortedKeys(ms ...map[string]int) []string {
	var keys []string
	for _, m := range ms {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}
