package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/navnode/navnode/sim"
)

// changeTol is how far a plan must stray from the one before it to count
// as changed, metres (strays); the picture draws only plans that stray
// this far from the last one drawn.
const changeTol = 0.2

// reactWindow: a course change (event.React) counts if it comes this
// long after an event (a motion: after its end) at the latest, seconds.
const reactWindow = 2.0

// moveGap: move records of one obstacle less than this apart are one
// motion, seconds (navsim reports an obstacle in motion at 5 Hz).
const moveGap = 0.3

// summary is what navreport prints about a mission.
type summary struct {
	Result       string // reached, timeout, collision, unreachable, stopped; "unfinished" without an outcome line
	Expect       string // the scenario's expected result
	OK           bool   // the outcome met the expectation
	Why          string // why not
	Time         float64
	Distance     float64  // travelled, metres
	ToGoal       float64  // travelled since the final goal came, metres
	GoalTime     float64  // when the final goal came, seconds
	Optimal      *float64 // the shortest path to the final goal in the final world, metres; nil if none
	Plans        int      // /plan messages received
	Replans      int      // navnode's count, last status line
	Status       string   // navnode's last status
	Statuses     []string // every status navnode reported
	RepairP50    float64  // ms, last status line
	RepairP99    float64  // ms
	Malformed    int      // malformed inputs navnode counted
	Added        int      // obstacle add records
	Moved        int      // obstacle motions (runs of move records, moveGap)
	MoveUpdates  int      // move records
	Deleted      int      // obstacle delete records
	Collisions   int
	Hostile      int
	HostileKinds []string // distinct, in order
	Events       []event
	// planDev[i] is how far plan i strays from plan i−1 (strays), NaN
	// for the first [len = Plans].
	planDev []float64
}

// event is an obstacle event, or a motion (a run of move records).
type event struct {
	T0, T1  float64 // seconds; T1 > T0 only for a motion
	ID      string
	Action  string           // add, delete or move
	Updates int              // records in a motion
	Shape   *sim.ShapeRecord // after the event (a motion: where it ended); nil for delete
	Plan    int              // index of the first plan at or after T0; −1 if none came
	Latency float64          // until that plan came, seconds
	// Deviation is the most a plan that came for the event (the first
	// after T0, for a motion every one until the first after T1) strays
	// from the plan before it, metres; NaN when there was no plan before.
	Deviation float64
	// React is when the first plan that strays more than changeTol from
	// the plan in force at T0 came, within reactWindow, after T0: when
	// the robot changed course; −1 if none did (or no plan was in force),
	// seconds. ReactDev is how far that plan strays, metres.
	React, ReactDev float64
}

// Changed reports whether a plan that came for the event changed course.
func (e *event) Changed() bool { return e.Deviation > changeTol }

// summarize reads a log's numbers.
func summarize(l *sim.Log) *summary {
	s := &summary{Result: "unfinished", Plans: len(l.Plans), Collisions: len(l.Collisions), Hostile: len(l.Hostile)}
	if o := l.Outcome; o != nil {
		s.Result, s.Expect, s.OK, s.Why = o.Result, o.Expect, o.OK, o.Why
		s.Time, s.Distance, s.ToGoal, s.GoalTime, s.Optimal = o.Time, o.Distance, o.DistanceToGoal, o.GoalTime, o.Optimal
		s.Replans, s.Status, s.Statuses, s.RepairP50, s.RepairP99, s.Malformed = o.Replans, o.Status, o.Statuses, o.RepairP50, o.RepairP99, o.Malformed
	} else {
		s.Expect, s.Time = l.Mission.Expect, lastTime(l)
		for i := 1; i < len(l.Poses); i++ {
			s.Distance += dist(l.Poses[i-1].P, l.Poses[i].P)
		}
		s.ToGoal = s.Distance
		if n := len(l.Goals); n > 0 {
			s.GoalTime, s.ToGoal = l.Goals[n-1].T, 0
			for i := 1; i < len(l.Poses); i++ {
				if l.Poses[i-1].T >= s.GoalTime {
					s.ToGoal += dist(l.Poses[i-1].P, l.Poses[i].P)
				}
			}
		}
	}
	if n := len(l.Statuses); n > 0 {
		st := l.Statuses[n-1]
		s.Replans, s.Status, s.RepairP50, s.RepairP99, s.Malformed = st.Replans, st.Status, st.RepairP50, st.RepairP99, st.Malformed
	}
	for _, h := range l.Hostile {
		if !slices.Contains(s.HostileKinds, h.Kind) {
			s.HostileKinds = append(s.HostileKinds, h.Kind)
		}
	}
	s.planDev = make([]float64, len(l.Plans))
	for i := range l.Plans {
		s.planDev[i] = math.NaN()
		if i > 0 {
			s.planDev[i] = strays(l.Plans[i].Poses, l.Plans[i-1].Poses, math.Inf(1))
		}
	}
	s.events(l)
	return s
}

// events groups the obstacle records into events and times the plans
// that came after each.
func (s *summary) events(l *sim.Log) {
	open := map[string]int{} // id → its motion in s.Events
	for _, r := range l.Obstacles {
		if i, ok := open[r.ID]; ok && r.Action == sim.Move && r.T-s.Events[i].T1 <= moveGap {
			e := &s.Events[i]
			e.T1, e.Shape = r.T, r.Shape
			e.Updates++
			s.MoveUpdates++
			continue
		}
		delete(open, r.ID)
		switch r.Action {
		case sim.Add:
			s.Added++
		case sim.Delete:
			s.Deleted++
		case sim.Move:
			s.Moved++
			s.MoveUpdates++
			open[r.ID] = len(s.Events)
		}
		s.Events = append(s.Events, event{T0: r.T, T1: r.T, ID: r.ID, Action: r.Action, Updates: 1, Shape: r.Shape})
	}
	// A plan logged at the time of an event came after it: navsim logs a
	// step's events and publishes them, then logs the plans received in
	// the meantime at the start of its next tick, with that step's time.
	after := func(t float64) int { return sort.Search(len(l.Plans), func(i int) bool { return l.Plans[i].T >= t }) }
	for i := range s.Events {
		e := &s.Events[i]
		e.Plan, e.Deviation, e.React = after(e.T0), math.NaN(), -1
		if e.Plan == len(l.Plans) {
			e.Plan = -1
			continue
		}
		e.Latency = l.Plans[e.Plan].T - e.T0
		last := min(after(e.T1), len(l.Plans)-1)
		for j := e.Plan; j <= last; j++ {
			if d := s.planDev[j]; !math.IsNaN(d) && !(d <= e.Deviation) {
				e.Deviation = d
			}
		}
		if e.Plan == 0 {
			continue
		}
		was := l.Plans[e.Plan-1].Poses
		for j := e.Plan; j < len(l.Plans) && l.Plans[j].T <= e.T1+reactWindow; j++ {
			if strays(l.Plans[j].Poses, was, changeTol) > changeTol {
				e.React, e.ReactDev = l.Plans[j].T-e.T0, strays(l.Plans[j].Poses, was, math.Inf(1))
				break
			}
		}
	}
}

// print writes the summary table and the obstacle events.
func (s *summary) print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(name, format string, a ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{name}, a...)...) }
	expect := "no expectation"
	switch {
	case s.Expect != "" && s.OK:
		expect = "expected " + s.Expect + ": ok"
	case s.Expect != "" && s.Why != "":
		expect = "NOT as expected: " + s.Why
	case s.Expect != "":
		expect = "expected " + s.Expect
	}
	row("outcome", "%s (%s)", s.Result, expect)
	row("time", "%.2f s", s.Time)
	row("distance", "%.2f m travelled, %.2f m since the final goal came at %.2f s", s.Distance, s.ToGoal, s.GoalTime)
	if s.Optimal != nil {
		ratio := "-"
		if *s.Optimal > 0 {
			ratio = fmt.Sprintf("%.3f", s.ToGoal / *s.Optimal)
		}
		row("optimal path", "%.2f m in the final world; travelled/optimal %s", *s.Optimal, ratio)
	} else {
		row("optimal path", "none (no path, or no goal)")
	}
	row("plans received", "%d", s.Plans)
	row("replans", "%d (navnode's last status: %s; reported %s)", s.Replans, orDash(s.Status), orDash(strings.Join(s.Statuses, ", ")))
	row("repair time", "p50 %.3g ms, p99 %.3g ms", s.RepairP50, s.RepairP99)
	moved := fmt.Sprintf("%d moved", s.Moved)
	if s.MoveUpdates > s.Moved {
		moved += fmt.Sprintf(" (%d updates)", s.MoveUpdates)
	}
	row("obstacles", "%d added, %s, %d deleted", s.Added, moved, s.Deleted)
	row("collisions", "%d", s.Collisions)
	row("hostile inputs", "%d (%s); malformed inputs counted by navnode: %d", s.Hostile, orDash(strings.Join(s.HostileKinds, ", ")), s.Malformed)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.Events) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nobstacle events (next plan: when the next /plan came, to navsim's step, and how far it strays from the plan before: changed beyond %g m;\n"+
		"course change: when the first plan that strays beyond %[1]g m from the plan in force at the event came, within %g s)\n", changeTol, reactWindow)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "t (s)\tobstacle\taction\tshape\tnext plan\tplan change\tcourse change")
	for i := range s.Events {
		e := &s.Events[i]
		t, action := fmt.Sprintf("%.2f", e.T0), e.Action
		if e.T1 > e.T0 {
			t, action = fmt.Sprintf("%.2f–%.2f", e.T0, e.T1), fmt.Sprintf("move ×%d", e.Updates)
		}
		next, change, react := "none came", "-", "-"
		if e.React >= 0 {
			react = fmt.Sprintf("+%.2f s (%.2f m)", e.React, e.ReactDev)
		} else if e.Plan > 0 {
			react = "none"
		}
		if e.Plan >= 0 {
			next = fmt.Sprintf("+%.2f s", e.Latency)
			change = "no plan before"
			if !math.IsNaN(e.Deviation) {
				change = fmt.Sprintf("no (%.2f m)", e.Deviation)
				if e.Changed() {
					change = fmt.Sprintf("changed (%.2f m)", e.Deviation)
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, e.ID, action, describe(e.Action, e.Shape), next, change, react)
	}
	return tw.Flush()
}

// describe writes a shape in a few words.
func describe(action string, r *sim.ShapeRecord) string {
	if r == nil {
		return "-"
	}
	at := fmt.Sprintf("(%.4g, %.4g, %.4g)", r.Center[0], r.Center[1], r.Center[2])
	if action == sim.Move {
		return "to " + at
	}
	switch {
	case r.Kind == sim.KindBox && r.Size != nil:
		return fmt.Sprintf("box %.3g×%.3g×%.3g at %s", r.Size[0], r.Size[1], r.Size[2], at)
	case r.Kind == sim.KindCylinder:
		return fmt.Sprintf("cylinder r %.3g h %.3g at %s", r.Radius, r.Height, at)
	}
	return fmt.Sprintf("%s r %.3g at %s", r.Kind, r.Radius, at)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// lastTime returns the latest time in the log, seconds: each type's
// records are in time order.
func lastTime(l *sim.Log) float64 {
	return max(lastT(l.Poses, func(r sim.PoseRecord) float64 { return r.T }),
		lastT(l.Plans, func(r sim.PlanRecord) float64 { return r.T }),
		lastT(l.Obstacles, func(r sim.ObstacleRecord) float64 { return r.T }),
		lastT(l.Statuses, func(r sim.StatusRecord) float64 { return r.T }),
		lastT(l.Goals, func(r sim.GoalRecord) float64 { return r.T }))
}

// lastT returns the time of the last of rs, 0 if none.
func lastT[T any](rs []T, at func(T) float64) float64 {
	if len(rs) == 0 {
		return 0
	}
	return at(rs[len(rs)-1])
}

// strays returns how far plan a strays from plan b: the largest distance
// from a point of a (its vertices and points every changeTol/2 along its
// segments) to the polyline b, metres; +Inf when b is empty and a is not,
// 0 when a is empty. With a finite limit it only tells whether that
// distance exceeds limit: what it returns exceeds limit if and only if
// the distance does.
func strays(a, b [][3]float64, limit float64) float64 {
	if len(a) == 0 {
		return 0
	}
	if len(b) == 0 {
		return math.Inf(1)
	}
	worst, hint := 0.0, 0
	// near raises worst to p's distance from b, looking from the segment
	// the point before was nearest first.
	near := func(p [3]float64) {
		d, enough := math.Inf(1), worst
		if limit < math.Inf(1) {
			enough = max(worst, limit)
		}
		for k := range b {
			j := (hint + k) % len(b)
			if j+1 < len(b) {
				d = min(d, segDist(p, b[j], b[j+1]))
			} else {
				d = min(d, dist(p, b[j]))
			}
			if d <= enough {
				hint = j
				return // cannot raise worst (past the limit)
			}
		}
		worst = d
	}
	const step = changeTol / 2
	for i := range a {
		near(a[i])
		if i+1 < len(a) {
			n := int(math.Ceil(dist(a[i], a[i+1]) / step))
			for k := 1; k < n && k < 10000; k++ {
				near(lerp(a[i], a[i+1], float64(k)/float64(n)))
			}
		}
		if worst > limit {
			break
		}
	}
	return worst
}

func dist(a, b [3]float64) float64 { return math.Sqrt(sq(a[0]-b[0]) + sq(a[1]-b[1]) + sq(a[2]-b[2])) }

func sq(v float64) float64 { return v * v }

func lerp(a, b [3]float64, f float64) [3]float64 {
	return [3]float64{a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1]), a[2] + f*(b[2]-a[2])}
}

// segDist returns the distance from p to the segment ab.
func segDist(p, a, b [3]float64) float64 {
	var ab, ap [3]float64
	den := 0.0
	for i := range 3 {
		ab[i], ap[i] = b[i]-a[i], p[i]-a[i]
		den += ab[i] * ab[i]
	}
	if den == 0 {
		return dist(p, a)
	}
	f := (ap[0]*ab[0] + ap[1]*ab[1] + ap[2]*ab[2]) / den
	return dist(p, lerp(a, b, max(0, min(1, f))))
}
