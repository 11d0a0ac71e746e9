package node

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/sim"
)

// TestMissions are the closed-loop missions: navsim and navnode over DDS
// on loopback, started together from launch/navnode_sim.launch.xml as
// `make demo` and users start them. navsim flies or drives the robot
// along navnode's plan through the scenario and exits with status 0 when
// the outcome is what the scenario expects; the test reads its mission
// log and checks the rest. depot_box runs again with planners dpastar
// and tunnel (ground), and city_aerial with planner tunnel (aerial).
func TestMissions(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: closed-loop missions take about two minutes")
	}
	for i, c := range []struct {
		scenario string
		check    func(t require.TestingT, l *sim.Log)
		planner  string  // "": the scenario's parameters'
		budgetMS float64 // budget_ms; 0: the scenario's
	}{
		{"depot_box", checkRepaired, "", 0},
		{"depot_box", checkRepaired, "dpastar", 0},
		{"depot_box", checkRepaired, "tunnel", 0},
		{"depot_box", checkRepaired, "astar", 1}, // the robot stops (an empty plan) until the search round the box ends
		{"city_aerial", checkAppearAndGo, "", 0},
		{"city_aerial", checkAppearAndGo, "tunnel", 0},
		{"city_aerial", checkAppearAndGo, "tunnel", 1}, // searches far longer than 1 ms go on from tick to tick
		{"city_aerial", checkAppearAndGo, "dpastar", 1},
		{"unreachable", checkUnreachable, "", 0},
		{"goal_change", checkGoalChange, "", 0},
		{"hostile", checkHostile, "", 0},
	} {
		name := c.scenario
		if c.planner != "" {
			name += "/" + c.planner
		}
		var extra []string
		if c.planner != "" {
			extra = append(extra, "planner: "+c.planner)
		}
		if c.budgetMS > 0 {
			name += fmt.Sprintf("-budget-%gms", c.budgetMS)
			extra = append(extra, fmt.Sprintf("budget_ms: %g", c.budgetMS))
		}
		t.Run(name, func(t *testing.T) {
			// 215–225: cmd/navnode's tests, which go test runs at the same
			// time in the same network namespace, use 171–178 and 201–214.
			l := runMission(t, domainBase+65+uint32(i), c.scenario, extra...)
			o := l.Outcome
			require.NotNil(t, o, "the mission did not end")
			require.Equal(t, "reached", o.Result, "%s", o.Why)
			require.Zero(t, o.Collisions, "the robot touched an obstacle")
			require.Empty(t, l.Collisions)
			require.NotNil(t, o.Optimal)
			t.Logf("%s: %s in %.1f s, %.2f m travelled since the final goal (optimal %.2f m), %d replans, repair p99 %.2f ms",
				c.scenario, o.Result, o.Time, o.DistanceToGoal, *o.Optimal, o.Replans, o.RepairP99)
			c.check(t, l)
		})
	}
}

// withParams writes a copy of the parameter file params with the
// parameter lines extra ("name: value") added, in a temporary directory
// of tb's, and returns its path.
func withParams(tb testing.TB, params string, extra ...string) string {
	tb.Helper()
	text, err := os.ReadFile(params)
	require.NoError(tb, err)
	for _, e := range extra {
		text = append(text, "    "+e+"\n"...)
	}
	out := filepath.Join(tb.TempDir(), "params.yaml")
	require.NoError(tb, os.WriteFile(out, text, 0o644))
	return out
}

// runMission runs scenarios/NAME.yaml with config/sim_NAME.yaml, plus
// the parameter lines extra, and returns its log.
func runMission(t *testing.T, domain uint32, name string, extra ...string) *sim.Log {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "mission.log")
	params := filepath.Join(repoRoot, "config", "sim_"+name+".yaml")
	if len(extra) > 0 {
		params = withParams(t, params, extra...)
	}
	nav := launchFile(t, domain, []string{"NAVSIM_LOG=" + logPath}, []string{"-exit-on-first"}, "navnode_sim.launch.xml",
		"scenario:="+filepath.Join(repoRoot, "scenarios", name+".yaml"),
		"robot_params_file:="+params)
	require.NoError(t, nav.wait(3*time.Minute), "navlaunch:\n%s", nav.out.String())
	f, err := os.Open(logPath)
	require.NoError(t, err)
	defer f.Close()
	l, err := sim.ReadLog(f)
	require.NoError(t, err)
	return l
}

// checkRepaired: the box dropped on the path changed the plan, and navnode
// reported the repair in its diagnostics. A record stamped with the box's
// time came after it: the mission adds the box in the step that brings
// its clock to that time, and stamps what navnode sends between steps
// with the clock of the last step taken.
func checkRepaired(t require.TestingT, l *sim.Log) {
	require.NotEmpty(t, l.Obstacles)
	at := l.Obstacles[0].T
	before, after := -1, -1
	for _, s := range l.Statuses {
		if s.T < at {
			before = s.Replans
		} else if after < 0 || s.Replans > after {
			after = s.Replans
		}
	}
	require.Greater(t, after, before, "no repair reported in diagnostics after the box at %.1f s", at)
	require.True(t, planChangedAfter(l, at), "no plan changed after the box")
}

// checkAppearAndGo: obstacles appeared and went during the flight.
func checkAppearAndGo(t require.TestingT, l *sim.Log) {
	added, deleted := 0, 0
	for _, o := range l.Obstacles {
		switch o.Action {
		case "add":
			added++
		case "delete":
			deleted++
		}
	}
	require.Positive(t, added)
	require.Positive(t, deleted)
	require.Equal(t, "aerial", l.Mission.Robot.Type)
}

// checkUnreachable: navnode said unreachable, the robot stayed put
// meanwhile, and the next goal was reached.
func checkUnreachable(t require.TestingT, l *sim.Log) {
	from, to := -1.0, -1.0
	for _, s := range l.Statuses {
		if s.Status == "unreachable" && from < 0 {
			from = s.T
		}
	}
	require.GreaterOrEqual(t, from, 0.0, "navnode never reported unreachable")
	require.GreaterOrEqual(t, len(l.Goals), 2)
	to = l.Goals[1].T
	moved, poses := 0.0, 0
	var prev *sim.PoseRecord
	for i := range l.Poses {
		p := &l.Poses[i]
		if p.T > from+1 && p.T < to && prev != nil && prev.T > from+1 {
			moved += dist3(p.P, prev.P)
			poses++
		}
		prev = p
	}
	require.GreaterOrEqual(t, to-from-1, 1.0, "navnode said unreachable at %.1f s, too late to watch the robot stand before the next goal at %.1f s", from, to)
	require.Positive(t, poses)
	require.Less(t, moved, 0.05, "the robot moved %.2f m while its goal was unreachable", moved)
}

// checkGoalChange: the final goal is the second one, reached.
func checkGoalChange(t require.TestingT, l *sim.Log) {
	require.GreaterOrEqual(t, len(l.Goals), 2)
	last := l.Goals[len(l.Goals)-1]
	require.NotNil(t, l.Outcome.Goal)
	require.Equal(t, last.P, *l.Outcome.Goal)
	require.True(t, planChangedAfter(l, last.T), "no new plan after the goal changed")
}

// checkHostile: garbage went in, navnode counted it and went on.
func checkHostile(t require.TestingT, l *sim.Log) {
	require.NotEmpty(t, l.Hostile)
	require.Positive(t, l.Outcome.Malformed, "navnode counted no malformed input")
}

// planChangedAfter reports whether a plan received after t differs from
// the last one before it by more than 0.2 m somewhere. An empty plan after
// t is the robot told to stop while navnode searches (a search a budget
// cuts off, the path blocked): not a route, so the plans after it count.
func planChangedAfter(l *sim.Log, t float64) bool {
	var last [][3]float64
	for _, p := range l.Plans {
		switch {
		case p.T < t: // at t: after the change (checkRepaired)
			last = p.Poses
		case len(p.Poses) == 0:
		case len(last) == 0:
			return true
		default:
			for _, q := range p.Poses {
				if nearest(q, last) > 0.2 {
					return true
				}
			}
		}
	}
	return false
}

// nearest returns the distance from q to the nearest point of the
// polyline pts.
func nearest(q [3]float64, pts [][3]float64) float64 {
	best := dist3(q, pts[0])
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		var ab, aq [3]float64
		l2 := 0.0
		for k := range 3 {
			ab[k], aq[k] = b[k]-a[k], q[k]-a[k]
			l2 += ab[k] * ab[k]
		}
		f := 0.0
		if l2 > 0 {
			f = (ab[0]*aq[0] + ab[1]*aq[1] + ab[2]*aq[2]) / l2
			f = min(1, max(0, f))
		}
		best = min(best, dist3(q, [3]float64{a[0] + f*ab[0], a[1] + f*ab[1], a[2] + f*ab[2]}))
	}
	return best
}

func dist3(a, b [3]float64) float64 {
	dx, dy, dz := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}
