package planners

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

// BenchmarkIncrementalReplan is `navbench replan` in small: on Simple and
// Complex a robot walks ten scenarios' paths; every 5 steps a 5×5×5 block
// lands on the path 6–30 steps ahead, and D* Lite or AD* (ε₀ = 1) is told
// the changed nodes and re-plans from the robot (a block that cuts the
// goal off is taken away again, and that event not counted). It reports
// each planner's repair time (Update and Plan, thread CPU time) per
// expansion, to set against A*'s time per expansion
// (BenchmarkAStarMovingAI), on the lattice fast path ("Lattice") and
// through the Graph interface ("Graph"). "Lattice-cold" writes 64 MB
// before each repair, as the other planners navbench runs between
// repairs do, so that the search state is no longer in the caches.
func BenchmarkIncrementalReplan(b *testing.B) {
	for _, name := range []string{"Simple", "Complex"} {
		l, scen := movingAILattice(b, name)
		for _, pname := range []string{"DStarLite", "ADStar"} {
			for _, via := range []string{"Lattice", "Lattice-cold", "Graph"} {
				b.Run(name+"/"+pname+"/"+via, func(b *testing.B) {
					var g Graph = l
					if via == "Graph" {
						g = graphOnly{l}
					}
					evict := func() {}
					if via == "Lattice-cold" {
						buf := make([]uint64, 8<<20)
						evict = func() {
							for i := range buf {
								buf[i]++
							}
						}
					}
					var p incremental = NewDStarLite(g)
					if pname == "ADStar" {
						ad := NewADStar(g)
						ad.Epsilon0 = 1
						p = ad
					}
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					var took time.Duration
					expansions := 0
					var walks [10]walkLabels
					b.ReportAllocs()
					for b.Loop() {
						for i := range 10 {
							s := scen[len(scen)-1-i*len(scen)/10]
							e, d := replanWalk(b, l, p, s, uint64(i), evict, &walks[i])
							expansions, took = expansions+e, took+d
						}
					}
					b.ReportMetric(float64(took.Nanoseconds())/float64(max(expansions, 1)), "repair-ns/exp")
					b.ReportMetric(float64(expansions)/float64(b.N), "repair-exp/op")
				})
			}
		}
	}
}

// A CPU profile of BenchmarkIncrementalReplan (go test -cpuprofile, then
// pprof -tagfocus phase=repair) sees the counted repairs apart from the
// rest: the repairs after a block that cuts the goal off, where D* Lite
// and AD* search everything they can reach to find no path, and so take
// most of the time, and a walk's first run, before it is known which
// repairs those are. A walk's events are the same each run.
var (
	repairLabel = pprof.Labels("phase", "repair")
	noPathLabel = pprof.Labels("phase", "nopath")
	firstLabel  = pprof.Labels("phase", "first")
)

// walkEvents is how many obstacle events a replanWalk has.
const walkEvents = 20

// walkLabels records which of a walk's events found no path, once the
// walk has run.
type walkLabels struct {
	ran    bool
	noPath [walkEvents]bool
}

// label returns the profile label of event k.
func (w *walkLabels) label(k int) pprof.LabelSet {
	switch {
	case !w.ran:
		return firstLabel
	case w.noPath[k]:
		return noPathLabel
	}
	return repairLabel
}

// now is the thread's CPU time, or the wall clock where that cannot be
// read; the caller locks itself to its thread.
func now() time.Duration {
	if t, ok := threadCPU(); ok {
		return t
	}
	return time.Duration(time.Now().UnixNano())
}

// replanWalk walks scenario s with planner p and returns the repairs'
// expansions and time; it calls evict before each repair, and leaves the
// lattice as it found it. It labels the repairs for a CPU profile with
// labels and records there which found no path.
func replanWalk(b testing.TB, l *Lattice, p incremental, s Scenario, seed uint64, evict func(), labels *walkLabels) (int, time.Duration) {
	rng := rand.New(rand.NewPCG(seed, 1))
	ctx := context.Background()
	start, goal := l.ID(s.Start[0], s.Start[1], s.Start[2]), l.ID(s.Goal[0], s.Goal[1], s.Goal[2])
	r, err := p.Plan(ctx, start, goal, nil)
	if err != nil {
		b.Fatal(err)
	}
	path := append([]NodeID(nil), r.Path...)
	var blocks [][]NodeID
	var changed []NodeID
	seen := make(map[NodeID]bool)
	touch := func(n NodeID) {
		for _, v := range l.Around(n, nil) {
			if !seen[v] {
				seen[v] = true
				changed = append(changed, v)
			}
		}
	}
	setBlock := func(cells []NodeID, blocked bool) {
		changed = changed[:0]
		clear(seen)
		for _, n := range cells {
			l.SetBlocked(n, blocked)
			touch(n)
		}
	}
	defer func() {
		for _, cells := range blocks {
			for _, n := range cells {
				l.SetBlocked(n, false)
			}
		}
	}()
	expansions, took, at := 0, time.Duration(0), 0
	defer func() { labels.ran = true }()
	for k := range walkEvents {
		at = min(at+5, len(path)-1)
		robot := path[at]
		lo, hi := at+6, min(at+30, len(path)-2)
		if lo > hi {
			break
		}
		x, y, z := l.Cell(path[lo+rng.IntN(hi-lo+1)])
		var cells []NodeID
		for dz := int32(-2); dz <= 2; dz++ {
			for dy := int32(-2); dy <= 2; dy++ {
				for dx := int32(-2); dx <= 2; dx++ {
					if n := l.ID(x+dx, y+dy, z+dz); n != None && n != robot && n != goal && !l.Blocked(n) {
						cells = append(cells, n)
					}
				}
			}
		}
		setBlock(cells, true)
		evict()
		var d time.Duration
		pprof.Do(ctx, labels.label(k), func(ctx context.Context) {
			began := now()
			if err = p.Update(changed); err == nil {
				r, err = p.Plan(ctx, robot, goal, nil)
			}
			d = now() - began
		})
		switch {
		case errors.Is(err, ErrNoPath):
			labels.noPath[k] = true
			setBlock(cells, false)
			if err := p.Update(changed); err != nil {
				b.Fatal(err)
			}
			if r, err = p.Plan(ctx, robot, goal, nil); err != nil {
				b.Fatal(err)
			}
		case err != nil:
			b.Fatal(err)
		default:
			blocks = append(blocks, cells)
			took, expansions = took+d, expansions+r.Stats.Expansions
		}
		path, at = append(path[:0], r.Path...), 0
	}
	return expansions, took
}
