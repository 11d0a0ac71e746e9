package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/sim"
)

// syntheticLog is a mission in a 10 m × 6 m × 3 m world: the robot flies
// along y = 3 from x 1 to 9; a crate added at 2 s makes navnode detour
// by 1.5 m, a drone crosses below, the crate goes at 4 s. Five plans:
// 0 straight, 1 the same from further on, 2 the detour, 3 the detour from
// further on, 4 a new straight line once the crate is gone.
const syntheticLog = `{"type":"world","name":"test.yaml","bounds":{"min":[0,0,0],"max":[10,6,3]},"shapes":[` +
	`{"kind":"box","center":[3,1,1.5],"size":[1,2,3],"yaw":0.3},{"kind":"cylinder","center":[7,5,1],"radius":0.3,"height":2},{"kind":"sphere","center":[5,0.8,2.5],"radius":0.4}]}
{"type":"mission","scenario":"scenarios/te--st.yaml","robot":{"type":"aerial","radius":0.3,"max_speed":1.5,"max_accel":2,"max_yaw_rate":2},"start":[1,3,1],"timeout":30,"goal_tolerance":0.3,"expect":"reached"}
{"type":"pose","t":0.1,"p":[1,3,1],"yaw":0,"speed":0}
{"type":"goal","t":0.5,"p":[9,3,1]}
{"type":"plan","t":0.6,"poses":[[1,3,1],[9,3,1]]}
{"type":"status","t":0.6,"status":"planning","replans":1,"repair_p50_ms":0.5,"repair_p99_ms":1,"malformed":0}
{"type":"obstacle","t":1,"id":"drone","action":"add","shape":{"kind":"sphere","center":[7,0.5,1.5],"radius":0.3}}
{"type":"plan","t":1,"poses":[[1.5,3,1],[9,3,1]]}
{"type":"pose","t":1.1,"p":[1.5,3,1],"yaw":0,"speed":1}
{"type":"obstacle","t":1.2,"id":"drone","action":"move","shape":{"kind":"sphere","center":[7,0.7,1.5],"radius":0.3}}
{"type":"obstacle","t":1.4,"id":"drone","action":"move","shape":{"kind":"sphere","center":[7,0.9,1.5],"radius":0.3}}
{"type":"obstacle","t":1.6,"id":"drone","action":"move","shape":{"kind":"sphere","center":[7,1.1,1.5],"radius":0.3}}
{"type":"obstacle","t":1.8,"id":"drone","action":"move","shape":{"kind":"sphere","center":[7,1.3,1.5],"radius":0.3}}
{"type":"obstacle","t":2,"id":"crate","action":"add","shape":{"kind":"box","center":[5,3,1],"size":[1,1,1],"yaw":0.5}}
{"type":"obstacle","t":2,"id":"drone","action":"move","shape":{"kind":"sphere","center":[7,1.5,1.5],"radius":0.3}}
{"type":"pose","t":2.1,"p":[2.5,3,1],"yaw":0,"speed":1}
{"type":"plan","t":2.3,"poses":[[2.5,3,1],[5,4.5,1],[9,3,1]]}
{"type":"status","t":2.3,"status":"following","replans":3,"repair_p50_ms":0.8,"repair_p99_ms":4.5,"malformed":1}
{"type":"plan","t":3,"poses":[[3.5,3.6,1],[5,4.5,1],[9,3,1]]}
{"type":"hostile","t":3,"kind":"garbage_obstacles"}
{"type":"pose","t":3.1,"p":[3.5,3.6,1],"yaw":0.5,"speed":1}
{"type":"collision","t":3.5,"p":[4,3.9,1],"with":"crate"}
{"type":"obstacle","t":4,"id":"crate","action":"delete"}
{"type":"pose","t":4.1,"p":[5,4.5,1],"yaw":0.5,"speed":1}
{"type":"plan","t":4.2,"poses":[[5,4.5,1],[6,3,1],[9,3,1]]}
{"type":"pose","t":6.1,"p":[6,3,1],"yaw":0,"speed":1}
{"type":"pose","t":8.1,"p":[9,3,1],"yaw":0,"speed":0}
{"type":"from_a_later_version","t":8.1}
{"type":"outcome","result":"reached","time":8.1,"distance":9.2,"optimal":8,"goal":[9,3,1],"goal_time":0.5,"distance_to_goal":9,"replans":3,"collisions":1,"plans":5,"status":"reached","statuses":["planning","following","reached"],"repair_p50_ms":0.8,"repair_p99_ms":4.5,"malformed":1,"expect":"reached","ok":true}
`

func writeLog(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mission.log")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestSummary(t *testing.T) {
	l, err := sim.ReadLog(strings.NewReader(syntheticLog))
	require.NoError(t, err)
	s := summarize(l)
	require.Equal(t, "reached", s.Result)
	require.True(t, s.OK)
	require.InDelta(t, 8.1, s.Time, 1e-9)
	require.InDelta(t, 9.2, s.Distance, 1e-9)
	require.InDelta(t, 8, *s.Optimal, 1e-9)
	require.Equal(t, 5, s.Plans)
	require.Equal(t, 3, s.Replans, "from the last status line")
	require.InDelta(t, 0.8, s.RepairP50, 1e-9)
	require.InDelta(t, 4.5, s.RepairP99, 1e-9)
	require.Equal(t, [4]int{2, 1, 5, 1}, [4]int{s.Added, s.Moved, s.MoveUpdates, s.Deleted})
	require.Equal(t, 1, s.Collisions)
	require.Equal(t, []string{"garbage_obstacles"}, s.HostileKinds)

	require.True(t, math.IsNaN(s.planDev[0]))
	require.InDelta(t, 0, s.planDev[1], 1e-9, "the same line from further on")
	require.InDelta(t, 1.5, s.planDev[2], 1e-9, "the detour's corner")
	require.InDelta(t, 0, s.planDev[3], 1e-9)
	require.Greater(t, s.planDev[4], changeTol)

	type row struct {
		id, action string
		t0, t1     float64
		plan       int
		latency    float64
		changed    bool
	}
	var got []row
	for _, e := range s.Events {
		got = append(got, row{e.ID, e.Action, e.T0, e.T1, e.Plan, math.Round(e.Latency*1e6) / 1e6, e.Changed()})
	}
	require.Equal(t, []row{
		{"drone", "add", 1, 1, 1, 0, false}, // the plan logged at 1 s came after
		{"drone", "move", 1.2, 2, 2, 1.1, true},
		{"crate", "add", 2, 2, 2, 0.3, true},
		{"crate", "delete", 4, 4, 4, 0.2, true},
	}, got)
	var react []float64
	for _, e := range s.Events {
		react = append(react, math.Round(e.React*1e6)/1e6)
	}
	// The drone's add is blamed for the crate's detour, which came within
	// reactWindow of it.
	require.Equal(t, []float64{1.3, 1.1, 0.3, 0.2}, react)
	require.Equal(t, 5, s.Events[1].Updates)
	require.InDelta(t, 1.5, s.Events[2].Deviation, 1e-9)

	// Without an outcome line, the distance comes from the poses.
	cut := syntheticLog[:strings.Index(syntheticLog, `{"type":"outcome"`)]
	l, err = sim.ReadLog(strings.NewReader(cut))
	require.NoError(t, err)
	s = summarize(l)
	require.Equal(t, "unfinished", s.Result)
	require.InDelta(t, 8.1, s.Time, 1e-9)
	want := 0.5 + 1 + math.Hypot(1, 0.6) + math.Hypot(1.5, 0.9) + math.Hypot(1, 1.5) + 3
	require.InDelta(t, want, s.Distance, 1e-9)
}

func TestRun(t *testing.T) {
	path := writeLog(t, syntheticLog)
	out := filepath.Join(t.TempDir(), "mission.svg")
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"-log", path, "-svg", out, "-title", "A <test> & more"}, &stdout))
	text := stdout.String()
	for _, want := range []string{"outcome", "reached (expected reached: ok)", "plans received  5", "travelled/optimal 1.125",
		"p50 0.8 ms, p99 4.5 ms", "2 added, 1 moved (5 updates), 1 deleted", "1.20–2.00", "move ×5", "+1.10 s", "changed (1.50 m)",
		"+0.20 s", "+0.30 s (1.50 m)", "3 of 5 plans drawn"} {
		require.Contains(t, text, want)
	}

	svg, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Less(t, len(svg), 500<<10)
	var chars strings.Builder
	counts := map[string]int{}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			counts[tok.Name.Local]++
			for _, a := range tok.Attr {
				if a.Name.Local == "class" {
					counts["class "+a.Value]++
				}
			}
		case xml.CharData:
			chars.Write(tok)
		}
	}
	require.Equal(t, 1, counts["svg"])
	require.Equal(t, 2*2, counts["class plan"], "two plans each view")
	require.Equal(t, 2, counts["class plan final"])
	require.Equal(t, 2, counts["class trajectory"])
	words := chars.String()
	for _, want := range []string{topTitle, sideTitle(0), "A <test> & more", "crate t 2–4 s", "drone t 1 s–end, moving 1.2–2 s",
		"collision with crate at t 3.5 s", "Outcome: reached in 8.1 s"} {
		require.Contains(t, words, want)
	}
}

// TestRunMap draws a world with a map_server map, found through -root,
// and one whose map is missing; a robot travelling along y is seen from
// the side along y.
func TestRunMap(t *testing.T) {
	dir := t.TempDir()
	// A 4×3 map of 1 m cells, two walls: 0 is black (occupied).
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.pgm"), append([]byte("P5 4 3 255\n"),
		0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.yaml"),
		[]byte("image: m.pgm\nresolution: 1\norigin: [0, 0, 0]\noccupied_thresh: 0.65\nfree_thresh: 0.2\nnegate: 0\n"), 0o644))
	log := `{"type":"world","name":"w","bounds":{"min":[0,0,0],"max":[4,3,2]},"map":"m.yaml","wall_height":2,"shapes":[]}
{"type":"pose","t":0.1,"p":[1.5,0.5,0]}
{"type":"pose","t":0.2,"p":[1.5,2.5,0]}
`
	path := writeLog(t, log)
	out := filepath.Join(t.TempDir(), "m.svg")
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"-log", path, "-svg", out, "-root", dir}, &stdout))
	require.NotContains(t, stdout.String(), "note:")
	svg, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(svg), "walls of m.yaml")
	require.Contains(t, string(svg), sideTitle(1))
	require.Contains(t, string(svg), "The mission did not end")

	stdout.Reset()
	require.NoError(t, run([]string{"-log", path, "-svg", out, "-root", t.TempDir()}, &stdout))
	require.Contains(t, stdout.String(), "note: map m.yaml not found")
	svg, err = os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(svg), "map m.yaml not found")
}

func TestRunErrors(t *testing.T) {
	good := writeLog(t, syntheticLog)
	for _, args := range [][]string{
		{},
		{"-nosuchflag"},
		{"-log", good, "extra"},
		{"-log", filepath.Join(t.TempDir(), "absent.log")},
		{"-log", good, "-svg", filepath.Join(t.TempDir(), "no", "such", "dir.svg")},
	} {
		require.Error(t, run(args, io.Discard), "%q", args)
	}
	for _, text := range []string{
		"not json\n",
		`{"type":"pose","t":` + "\n",
		`{"type":"plan","t":1,"poses":"many"}` + "\n",
		syntheticLog + "\n",                                    // an empty line
		strings.Replace(syntheticLog, `"t":3,`, `"t":"3",`, 1), // a time that is a string
	} {
		err := run([]string{"-log", writeLog(t, text)}, io.Discard)
		require.ErrorIs(t, err, sim.ErrLog)
	}
	for _, text := range []string{"", `{"type":"from_a_later_version"}` + "\n"} {
		err := run([]string{"-log", writeLog(t, text)}, io.Discard)
		require.ErrorIs(t, err, errEmptyLog)
		require.Contains(t, err.Error(), "empty mission log")
	}
}

func TestStrays(t *testing.T) {
	inf := math.Inf(1)
	line := [][3]float64{{0, 0, 0}, {10, 0, 0}}
	require.Zero(t, strays(nil, line, inf))
	require.True(t, math.IsInf(strays(line, nil, inf), 1))
	require.InDelta(t, 0, strays([][3]float64{{2, 0, 0}, {8, 0, 0}}, line, inf), 1e-12)
	require.InDelta(t, 2, strays([][3]float64{{0, 0, 0}, {5, 0, 2}, {10, 0, 0}}, line, inf), 1e-12)
	// A straight line cutting across a detour strays in its middle.
	require.InDelta(t, 1, strays(line, [][3]float64{{0, 0, 0}, {0, 1, 0}, {10, 1, 0}, {10, 0, 0}}, inf), 0.05)
	// With a limit it stops past it.
	zig := [][3]float64{{0, 0, 0}, {1, 1, 0}, {2, 3, 0}, {3, 0, 0}}
	d := strays(zig, line, 0.5)
	require.Greater(t, d, 0.5)
	require.Less(t, d, 3.0)
}

func TestSimplify(t *testing.T) {
	pts := [][2]float64{{0, 0}, {1, 0.01}, {2, 0}, {3, 0}, {3, 5}, {3, 6}}
	require.Equal(t, [][2]float64{{0, 0}, {3, 0}, {3, 6}}, simplify(pts, 0.3))
}

// TestRunVoxels draws a world of Moving AI voxels, and a log of 300
// plans each far from the one before: the picture keeps maxPlans.
func TestRunVoxels(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "v.3dmap"), []byte("voxel 4 3 2\n0 0 0\n1 0 0\n1 0 1\n3 2 1\n"), 0o644))
	var b strings.Builder
	b.WriteString(`{"type":"world","name":"v","bounds":{"min":[1,1,0],"max":[3,2.5,1]},"movingai":"v.3dmap","resolution":0.5,"origin":[1,1,0],"shapes":[]}` + "\n")
	for i := range 300 {
		y := 1.2 + 1.1*float64(i%2)
		fmt.Fprintf(&b, `{"type":"plan","t":%g,"poses":[[1.2,%g,0.5],[2.8,%g,0.5]]}`+"\n", 0.1*float64(i), y, y)
	}
	path := writeLog(t, b.String())
	out := filepath.Join(dir, "v.svg")
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"-log", path, "-svg", out, "-root", dir}, &stdout))
	require.Contains(t, stdout.String(), "80 of 300 plans drawn")
	require.NotContains(t, stdout.String(), "note:")
	svg, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, 2*maxPlans, strings.Count(string(svg), `class="plan`))
	require.Contains(t, string(svg), "voxels of v.3dmap")
	require.Contains(t, string(svg), "thinned out evenly to 80")
}

func TestMergeRuns(t *testing.T) {
	grid := []string{
		"##..",
		"##.#",
		"...#",
	}
	got := mergeRuns(4, 3, func(x, y int) bool { return grid[y][x] == '#' })
	require.ElementsMatch(t, []cellRect{{0, 0, 1, 1}, {3, 1, 3, 2}}, got)
	require.Equal(t, [][2]float64{{0, 2}, {3, 4}}, mergeSpans([][2]float64{{3, 4}, {1, 2}, {0, 1}}))
}
