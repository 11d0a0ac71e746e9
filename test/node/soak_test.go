package node

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/navnode/navnode/sim"
)

// BenchmarkSoak is the soak run of the benchmark command (not CI): b.N
// randomized missions of scenarios/soak.yaml (a ground robot between a
// random start and goal in the depot, random obstacles dropped on and off
// its path, the goal kept reachable), seeds 1..b.N, two at a time. It
// reports the share reached, collisions, missions that ended otherwise,
// and the median over missions of navnode's median repair time:
//
//	scripts/netns go test -run '^$' -bench Soak -benchtime 200x -timeout 3h ./test/node/
//
// NAVNODE_SOAK_PLANNER=tunnel (or another planner parameter value) runs
// the missions with that planner instead of config/sim_soak.yaml's, and
// NAVNODE_SOAK_BUDGET_MS=1 with that budget_ms.
func BenchmarkSoak(b *testing.B) {
	const parallel = 2
	params := filepath.Join(repoRoot, "config", "sim_soak.yaml")
	var extra []string
	if p := os.Getenv("NAVNODE_SOAK_PLANNER"); p != "" {
		extra = append(extra, "planner: "+p)
	}
	if ms := os.Getenv("NAVNODE_SOAK_BUDGET_MS"); ms != "" {
		extra = append(extra, "budget_ms: "+ms)
	}
	if len(extra) > 0 {
		params = withParams(b, params, extra...)
	}
	binaries(b) // here, not in a worker: a failure there would stop only the worker
	seeds := make(chan int)
	dead := make(chan struct{}) // closed when a worker returns
	var once sync.Once
	var mu sync.Mutex
	var outcomes []*sim.Outcome
	var failures []string
	var wg sync.WaitGroup
	for w := range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer once.Do(func() { close(dead) })
			for seed := range seeds {
				o, err := soakMission(b, domainBase+40+uint32(w), seed, params)
				mu.Lock()
				if err != nil {
					failures = append(failures, fmt.Sprintf("seed %d: %v", seed, err))
				} else {
					outcomes = append(outcomes, o)
					if o.Result != "reached" || o.Collisions > 0 {
						failures = append(failures, fmt.Sprintf("seed %d: %s, %d collisions (%s)", seed, o.Result, o.Collisions, o.Why))
					}
				}
				mu.Unlock()
			}
		}()
	}
	seed, stopped := 0, false
	for !stopped && b.Loop() {
		seed++
		select {
		case seeds <- seed:
		case <-dead: // it failed the benchmark (a require in soakMission)
			stopped = true
		}
	}
	close(seeds)
	wg.Wait()
	if stopped {
		b.Fatalf("a soak worker stopped before seed %d", seed)
	}
	b.StopTimer()
	reached, collisions := 0, 0
	var repairs []float64
	for _, o := range outcomes {
		if o.Result == "reached" {
			reached++
		}
		collisions += o.Collisions
		repairs = append(repairs, o.RepairP50)
	}
	slices.Sort(repairs)
	for _, f := range failures {
		b.Log(f)
	}
	b.ReportMetric(float64(seed), "missions")
	b.ReportMetric(100*float64(reached)/float64(max(seed, 1)), "reached-%")
	b.ReportMetric(float64(collisions), "collisions")
	if len(repairs) > 0 {
		b.ReportMetric(repairs[len(repairs)/2], "median-repair-ms")
	}
	b.ReportMetric(0, "ns/op")
}

// soakMission runs one soak mission with seed and the robot's parameter
// file params, and returns its outcome.
func soakMission(b *testing.B, domain uint32, seed int, params string) (*sim.Outcome, error) {
	dir, err := os.MkdirTemp("", "soak-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	logPath := filepath.Join(dir, "mission.log")
	nav := launchFile(b, domain, []string{"NAVSIM_LOG=" + logPath, fmt.Sprintf("NAVSIM_SEED=%d", seed)}, []string{"-exit-on-first"},
		"navnode_sim.launch.xml", "scenario:="+filepath.Join(repoRoot, "scenarios", "soak.yaml"),
		"robot_params_file:="+params)
	werr := nav.wait(3 * time.Minute)
	if werr != nil {
		_ = nav.stop(b) // now, not when the benchmark ends: the next seed uses this domain
	}
	f, err := os.Open(logPath)
	if err != nil {
		return nil, fmt.Errorf("%v (navlaunch: %v)", err, werr)
	}
	defer f.Close()
	l, err := sim.ReadLog(f)
	if err != nil {
		return nil, err
	}
	if l.Outcome == nil {
		return nil, fmt.Errorf("no outcome (navlaunch: %v)", werr)
	}
	return l.Outcome, nil
}
