package planners

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Scenario is one problem of a Moving AI 3D benchmark (.3dscen line):
// start and goal cells and the optimal cost with 26-connected moves
// costing 1, √2, √3 and no corner cutting.
type Scenario struct {
	Start, Goal [3]int32
	Optimal     float64
	Ratio       float64 // optimal cost over the heuristic, as the file gives it
}

// maxScenarios bounds what ReadScenarios reads.
const maxScenarios = 1 << 20

// ReadScenarios reads a .3dscen file: "version 1", the map's name, then
// one "sx sy sz gx gy gz cost ratio" line per scenario.
func ReadScenarios(r io.Reader) ([]Scenario, error) {
	sc := bufio.NewScanner(r)
	var out []Scenario
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case line == 1:
			if text != "version 1" {
				return nil, fmt.Errorf("planners: scenario file: line 1 is %q, want \"version 1\"", text)
			}
			continue
		case line == 2 || text == "":
			continue
		case len(out) >= maxScenarios:
			return nil, fmt.Errorf("planners: scenario file: more than %d scenarios", maxScenarios)
		}
		var s Scenario
		if _, err := fmt.Sscanf(text, "%d %d %d %d %d %d %g %g", &s.Start[0], &s.Start[1], &s.Start[2],
			&s.Goal[0], &s.Goal[1], &s.Goal[2], &s.Optimal, &s.Ratio); err != nil {
			return nil, fmt.Errorf("planners: scenario file: line %d: %v", line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}
