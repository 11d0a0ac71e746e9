package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golang/geo/r3"
)

// Outcome is how a mission ended: the log's last line.
type Outcome struct {
	Type     string  `json:"type"`     // "outcome"
	Result   string  `json:"result"`   // Reached, Timeout, Collision, Unreachable or Stopped
	Time     float64 `json:"time"`     // seconds from the start
	Distance float64 `json:"distance"` // travelled, metres
	// Optimal is the length of the shortest collision-free path from where
	// the robot was when the final goal came to that goal, in the final
	// world (Space.Path, any-angle, at the scenario's resolution), metres;
	// null when there is none or no goal.
	Optimal     *float64    `json:"optimal"`
	OptimalFrom *[3]float64 `json:"optimal_from,omitempty"`
	Goal        *[3]float64 `json:"goal,omitempty"`      // the final goal
	GoalTime    float64     `json:"goal_time,omitempty"` // when it came, seconds
	// DistanceToGoal is the distance travelled since the final goal came,
	// metres: what compares with Optimal.
	DistanceToGoal float64  `json:"distance_to_goal"`
	Replans        int      `json:"replans"`    // navnode's count, from its last diagnostics
	Collisions     int      `json:"collisions"` // times the robot started touching an obstacle
	Plans          int      `json:"plans"`      // /plan messages received
	Status         string   `json:"status"`     // navnode's last status
	Statuses       []string `json:"statuses"`   // every status navnode reported, in order of first report
	RepairP50      float64  `json:"repair_p50_ms"`
	RepairP99      float64  `json:"repair_p99_ms"`
	Malformed      int      `json:"malformed"` // malformed inputs navnode counted
	Expect         string   `json:"expect"`
	OK             bool     `json:"ok"`            // the outcome meets the scenario's expectation
	Why            string   `json:"why,omitempty"` // why not
}

// finish ends the mission with result r.
func (m *Mission) finish(r string) {
	o := &Outcome{Type: "outcome", Result: r, Time: round4(m.t), Distance: round4(m.distance), Replans: m.nav.Replans,
		Collisions: m.collisions, Plans: m.plans, Status: m.nav.Status, Statuses: slices.Clone(m.statuses),
		RepairP50: round4(m.nav.RepairP50), RepairP99: round4(m.nav.RepairP99), Malformed: m.nav.Malformed,
		Expect: m.Scenario.Expect.Result}
	if o.Statuses == nil {
		o.Statuses = []string{}
	}
	if m.goal != nil {
		g, from := arr(*m.goal), arr(m.goalFrom)
		o.Goal, o.OptimalFrom, o.GoalTime = &g, &from, round4(m.goalAt)
		o.DistanceToGoal = round4(m.distance - m.goalDist)
		if l, _, err := m.path(m.goalFrom, *m.goal, true); err == nil {
			l = round4(max(0, l-m.Scenario.GoalTolerance)) // the mission ends within GoalTolerance of the goal
			o.Optimal = &l
		}
	}
	o.OK, o.Why = m.Scenario.Expect.Check(o)
	m.outcome = o
	// The robot stays at rest where the mission ended.
	st := &m.robot.State
	st.Vel, st.YawRate, st.Speed = r3.Vector{}, 0, 0
	m.log.Write(o)
}

// Check reports whether outcome o meets the expectation, and if not why.
func (e Expect) Check(o *Outcome) (bool, string) {
	var why []string
	switch {
	case e.Result == Collision && o.Collisions > 0:
	case o.Result != e.Result:
		why = append(why, fmt.Sprintf("result %s, expected %s", o.Result, e.Result))
	}
	if o.Collisions > 0 && e.Result != Collision && o.Result != Collision {
		why = append(why, fmt.Sprintf("%d collisions", o.Collisions))
	}
	for _, s := range e.SawStatus {
		if !slices.Contains(o.Statuses, s) {
			why = append(why, fmt.Sprintf("navnode never reported %s", s))
		}
	}
	if o.Replans < e.MinReplans {
		why = append(why, fmt.Sprintf("%d replans, expected at least %d", o.Replans, e.MinReplans))
	}
	return len(why) == 0, strings.Join(why, "; ")
}

// Summary is the outcome in one line, for people.
func (o *Outcome) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %.1f s, %.2f m travelled", o.Result, o.Time, o.Distance)
	if o.Optimal != nil {
		fmt.Fprintf(&b, " (%.2f m since the final goal, optimal %.2f m", o.DistanceToGoal, *o.Optimal)
		if *o.Optimal > 0 {
			fmt.Fprintf(&b, ", ×%.2f", o.DistanceToGoal / *o.Optimal)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, ", %d replans, %d collisions, navnode %s", o.Replans, o.Collisions, orNone(o.Status))
	if o.OK {
		b.WriteString(": as expected")
	} else {
		fmt.Fprintf(&b, ": NOT as expected (%s)", o.Why)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "silent"
	}
	return s
}
