package planners

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// SpatialGraph is a Graph whose nodes have positions, what DPA* needs to
// estimate the cost from a node to the affected region of a change.
// Positions are in the units of edge costs: the Euclidean distance between
// two nodes' positions is at most the cost of any path between them.
type SpatialGraph interface {
	Graph
	// Position returns where node n is. A node's position never changes:
	// a removed node keeps answering with where it was (DPA* keeps
	// distances to R by node between re-plans).
	Position(n NodeID) [3]float64
}

// Position implements SpatialGraph: the cell coordinates (x, y, z). Moves
// cost at least their length (weights are ≥ 1), so the Euclidean distance
// between cells never exceeds the cost of a path between them.
func (l *Lattice) Position(n NodeID) [3]float64 {
	x, y, z := l.Cell(n)
	return [3]float64{float64(x), float64(y), float64(z)}
}

// ChangedRegion returns the affected region of blocking, freeing or
// reweighting the cells of the box [lo, hi] (cell coordinates, inclusive):
// the box grown by one cell, clamped to the lattice, since every move whose
// cost depends on a cell starts and ends within one cell of it.
func (l *Lattice) ChangedRegion(lo, hi [3]int32) Region {
	size := [3]int32{l.W, l.H, l.D}
	var r Region
	for i := range 3 {
		r.Min[i] = float64(max(lo[i]-1, 0))
		r.Max[i] = float64(min(hi[i]+1, size[i]-1))
	}
	return r
}

var _ SpatialGraph = (*Lattice)(nil)

// Change is the kind of dynamic event DPA* re-plans after.
type Change int

const (
	// ObstacleInserted: costs in the affected region rose or its nodes
	// and edges vanished; nothing became cheaper.
	ObstacleInserted Change = iota + 1
	// ObstacleDeleted: costs in the affected region fell or nodes and
	// edges appeared there; nothing became dearer.
	ObstacleDeleted
)

// String names the change.
func (c Change) String() string {
	switch c {
	case ObstacleInserted:
		return "insertion"
	case ObstacleDeleted:
		return "deletion"
	}
	return fmt.Sprintf("Change(%d)", int(c))
}

// Region is an axis-aligned box in a SpatialGraph's coordinates, bounds
// included: DPA*'s affected region R. It must hold the position of every
// node that appeared or vanished and of both ends of every edge that
// appeared, vanished or changed cost.
type Region struct {
	Min, Max [3]float64
	// Toll, after a deletion, is a lower bound on what a path made
	// cheaper by the change pays between its first and its last node in
	// R; 0 when nothing better is known. In Scenario 3 Algorithm 2's
	// R-worse test (line 18) adds it to h(V, R) + h(R, G). A navigation
	// mesh whose regions were rebuilt knows one: a cheaper path must
	// cross between two regions that the change brought closer.
	Toll float64
}

// Contains reports whether p lies in the box.
func (r Region) Contains(p [3]float64) bool {
	return p[0] >= r.Min[0] && p[0] <= r.Max[0] &&
		p[1] >= r.Min[1] && p[1] <= r.Max[1] &&
		p[2] >= r.Min[2] && p[2] <= r.Max[2]
}

// Distance returns the Euclidean distance from p to the box, 0 inside:
// the paper's h(V, R) (Section IV, Scenario 3; Section V uses the
// bounding box of the affected vertices, as here).
func (r Region) Distance(p [3]float64) float64 {
	s := 0.0
	for i := range 3 {
		if d := r.Min[i] - p[i]; d > 0 {
			s += d * d
		} else if d := p[i] - r.Max[i]; d > 0 {
			s += d * d
		}
	}
	return math.Sqrt(s)
}

func (r Region) valid() bool {
	if !(r.Toll >= 0) { // false for NaN too
		return false
	}
	for i := range 3 {
		if !(r.Min[i] <= r.Max[i]) { // false for NaN too
			return false
		}
	}
	return true
}

// DPAScenario is one of the paper's four re-planning scenarios (Section
// III-C): the kind of change times whether the old path [TG]⁻ from the
// robot's node T to the goal G runs through the affected region.
type DPAScenario int

const (
	// NoScenario: a first plan, not a re-plan.
	NoScenario DPAScenario = iota
	// InsertionUnaffected is Scenario 1: the old path is still optimal
	// and is returned as it is.
	InsertionUnaffected
	// InsertionAffected is Scenario 2: A* that follows the old path after
	// its last node in R and reaches its nodes before its first node in R
	// only from their old predecessors.
	InsertionAffected
	// DeletionUnaffected is Scenario 3: A* that follows the old path, and
	// drops other nodes, from where R is too far to lead to a better path.
	DeletionUnaffected
	// DeletionAffected is Scenario 4: as Scenario 3 with the part of the
	// old path after its last node in R.
	DeletionAffected
)

// String names the scenario as the paper does.
func (s DPAScenario) String() string {
	switch s {
	case NoScenario:
		return "no re-planning scenario"
	case InsertionUnaffected:
		return "insertion, old path unaffected"
	case InsertionAffected:
		return "insertion, old path affected"
	case DeletionUnaffected:
		return "deletion, old path unaffected"
	case DeletionAffected:
		return "deletion, old path affected"
	}
	return fmt.Sprintf("DPAScenario(%d)", int(s))
}

// ErrOldPath: the old path given to DPAStar.Replan does not fit the graph
// and the affected region: a step outside the region is not an edge, a
// node repeats, or the path does not end at the goal. Plan afresh.
var ErrOldPath = errors.New("planners: old path does not fit the graph")

// DPAStar is Dynamically Pruned A* (van Toll and Geraerts, "Dynamically
// Pruned A* for Re-planning in Navigation Meshes", IROS 2015): after an
// obstacle is inserted or deleted, it re-plans an optimal path from the
// robot's node on its old path to the goal by A* with pruning rules that
// use only the old path and the affected region R (Section IV). Between
// calls it keeps no search state, only the path it returned last, so the
// graph may gain and lose nodes and edges freely. One DPAStar serves many
// queries on its graph and allocates its per-node state once (again when
// NumNodes changes).
type DPAStar struct {
	g     SpatialGraph
	st    dpaState
	open  openList
	edges []Edge

	// Per Replan: the old path and its parts, indices into old.
	old     []NodeID
	at      int       // T = old[at]
	firstR  int       // A = old[firstR], len(old) when [TG]⁻ avoids R: [TA]⁻ is old[at:firstR]
	lastR   int       // B = old[lastR], at−1 when [BG]⁻ is all of [TG]⁻: [BG]⁻ is old[lastR+1:]
	stepC   []float64 // stepC[i]: cost of old[i] → old[i+1], for the steps the call needs
	rest    []float64 // rest[i]: cost of old[i:] by the old path, for i > lastR
	tail    []NodeID  // scratch: the old path's rest when a path joins it
	region  Region
	bound   float64 // cost([TG]⁻) with slack for rounding; +Inf when unknown
	goalToR float64 // h(G, R) plus R's toll
	near    rDistances

	// The path the last call returned, and the cost from its first node
	// to each node. The paper's agents remember only their paths; with
	// the costs of their steps, a re-plan on the same path needs no graph
	// calls to find cost([TG]⁻) or to follow [BG]⁻.
	memo  []NodeID
	memoG []float64 // [len = len(memo)]
}

// NewDPAStar returns a DPA* planner over g.
func NewDPAStar(g SpatialGraph) *DPAStar { return &DPAStar{g: g} }

// dpaMode selects the pruning rules of a search.
type dpaMode uint8

const (
	dpaPlain     dpaMode = iota // A*
	dpaInsertion                // Algorithm 1
	dpaDeletion                 // Algorithm 2
)

// Flags of an expanded node in Algorithm 2.
const (
	dpaVisitedR uint8 = 1 << iota // the path to the node passed through R (V.visitedR)
	dpaRWorse                     // a better path via R cannot pass the node (V.rworse)
)

// boundSlack widens the R-worse test (Algorithm 2 line 18) by a relative
// 1e-9 so that rounding never prunes a node whose exact value ties with
// cost([TG]⁻): pruning less is always safe.
const boundSlack = 1e-9

// Plan searches from start to goal by A* (no pruning: there is no old
// path yet) and writes the path into dst's storage. When ctx ends first it
// returns ErrTimeout with a partial path to the expanded node nearest the
// goal by the heuristic.
func (d *DPAStar) Plan(ctx context.Context, start, goal NodeID, dst []NodeID) (Result, error) {
	began := time.Now()
	if err := checkEnds(d.g, start, goal); err != nil {
		return Result{}, err
	}
	d.st.reset(d.g.NumNodes())
	d.old, d.memo = nil, d.memo[:0]
	return d.search(ctx, dpaPlain, start, goal, dst, began)
}

// Replan re-plans after one change to the graph, already applied. old is
// the path the robot follows, optimal on the graph before the change (as
// Plan or Replan returned it), ending at goal; at is the index in old of
// the robot's node T; r is the affected region and c the kind of change.
// It returns an optimal path from old[at] to goal on the changed graph,
// written into dst's storage (which may be old's), and the scenario that
// applied. Several changes need one Replan each, in order, or a Plan:
// Replan remembers the path it last returned with the costs of its steps,
// and when old is that path again it takes cost([TG]⁻) and the costs of
// [BG]⁻'s steps from there instead of asking the graph. When ctx ends
// first it returns ErrTimeout and no path, leaving dst (and so old, if
// they share storage) untouched.
func (d *DPAStar) Replan(ctx context.Context, old []NodeID, at int, goal NodeID, r Region, c Change, dst []NodeID) (Result, DPAScenario, error) {
	began := time.Now()
	switch {
	case c != ObstacleInserted && c != ObstacleDeleted:
		return Result{}, NoScenario, fmt.Errorf("planners: DPA*: change %v: want ObstacleInserted or ObstacleDeleted", c)
	case !r.valid():
		return Result{}, NoScenario, fmt.Errorf("planners: DPA*: affected region %v to %v, toll %v, is not a box with a toll ≥ 0", r.Min, r.Max, r.Toll)
	case at < 0 || at >= len(old):
		return Result{}, NoScenario, fmt.Errorf("%w: position %d on a path of %d nodes", ErrOldPath, at, len(old))
	}
	g := d.g
	n := NodeID(g.NumNodes())
	for _, v := range old[at:] {
		if v < 0 || v >= n {
			return Result{}, NoScenario, fmt.Errorf("%w: node %d, graph of %d nodes", ErrNodeRange, v, n)
		}
	}
	if err := checkEnds(g, old[at], goal); err != nil {
		return Result{}, NoScenario, err
	}
	if old[len(old)-1] != goal {
		return Result{}, NoScenario, fmt.Errorf("%w: it ends at %d, the goal is %d", ErrOldPath, old[len(old)-1], goal)
	}

	// Section III-C: A and B are the first and last nodes of [TG]⁻ in R.
	// A removed node counts as in R whatever its position.
	d.old, d.at, d.region = old, at, r
	d.near.use(r, int(n))
	d.firstR, d.lastR = len(old), at-1
	for i := at; i < len(old); i++ {
		if d.inR(old[i]) {
			if d.firstR == len(old) {
				d.firstR = i
			}
			d.lastR = i
		}
	}
	affected := d.lastR >= at

	known := d.remembers(old, at)
	d.memo = d.memo[:0] // forgotten unless this call succeeds
	if cap(d.stepC) < len(old) {
		d.stepC = make([]float64, len(old))
	}
	d.stepC = d.stepC[:len(old)]

	d.st.reset(int(n))
	if err := d.markOld(); err != nil {
		return Result{}, NoScenario, err
	}
	if c == ObstacleInserted && !affected {
		// Scenario 1, Algorithm 1 lines 1–2: costs rose only in R, which
		// [TG]⁻ avoids, so [TG]⁻ is still optimal.
		cost, err := d.stepCosts(at, len(old)-1, known, false)
		if err != nil {
			return Result{}, InsertionUnaffected, err
		}
		dst = append(dst[:0], old[at:]...) // memmove: dst may be old's storage
		d.remember(dst, d.stepC[at:])
		return Result{Path: dst, Cost: cost, Stats: Stats{Elapsed: time.Since(began), Epsilon: 1}}, InsertionUnaffected, nil
	}

	var scen DPAScenario
	var mode dpaMode
	switch {
	case c == ObstacleInserted:
		// Scenario 2, Algorithm 1 line 3: [TA]⁻ is old[at:firstR] and
		// [BG]⁻ is old[lastR+1:]. The costs of [BG]⁻'s steps are needed
		// (the search follows them without listing successors); those of
		// [TA]⁻ are only checked to be edges, since Algorithm 1 reaches
		// a node of [TA]⁻ only from its old predecessor (lines 14–15).
		scen, mode = InsertionAffected, dpaInsertion
		if _, err := d.stepCosts(d.lastR+1, len(old)-1, known, false); err != nil {
			return Result{}, scen, err
		}
		if _, err := d.stepCosts(at, d.firstR-1, known, false); err != nil {
			return Result{}, scen, err
		}
	default:
		// Algorithm 2 lines 1–4: Scenario 4 uses [BG]⁻ = old[lastR+1:],
		// Scenario 3 all of [TG]⁻ (lastR is at−1). The R-worse test (line
		// 18) compares with cost([TG]⁻), on the changed graph or, from
		// the memo, on the graph before the deletion: any value between
		// the two keeps the search optimal, and costs only fell. When a
		// step inside R is gone (regions of a mesh merged), the bound is
		// unknown and the test never prunes.
		scen, mode = DeletionUnaffected, dpaDeletion
		if affected {
			scen = DeletionAffected
		}
		total, err := d.stepCosts(at, len(old)-1, known, true)
		if err != nil {
			return Result{}, scen, err
		}
		d.bound = total + boundSlack*total
		d.goalToR = r.Distance(g.Position(goal))
		if !affected {
			// Scenario 3: the old path avoids R, so the search only looks
			// for a cheaper path, which pays the toll. (In Scenario 4 it
			// must also find the old path through R, which may not.)
			d.goalToR += r.Toll
		}
	}
	d.fillRest()
	res, err := d.search(ctx, mode, old[at], goal, dst, began)
	return res, scen, err
}

// fillRest sets rest[i], the cost of the old path from old[i] to G, for
// the nodes after B, whose steps stepCosts has filled.
func (d *DPAStar) fillRest() {
	n := len(d.old)
	if cap(d.rest) < n {
		d.rest = make([]float64, n)
	}
	d.rest = d.rest[:n]
	d.rest[n-1] = 0
	for i := n - 2; i > d.lastR; i-- {
		d.rest[i] = d.rest[i+1] + d.stepC[i]
	}
}

// stepCosts fills stepC[from:to] with the costs of the old path's steps
// (step i joins old[i] and old[i+1]) and returns their sum. When the old
// path is the one last returned it reads them from the memo (costs before
// the change, equal to today's outside R); otherwise it asks the graph. A
// step that is no edge is an ErrOldPath unless inROK and an end of it is
// in R; it then costs +Inf.
func (d *DPAStar) stepCosts(from, to int, known, inROK bool) (float64, error) {
	old := d.old
	total := 0.0
	for i := from; i < to; i++ {
		if known {
			d.stepC[i] = d.memoG[i+1] - d.memoG[i]
			total += d.stepC[i]
			continue
		}
		c, ok := d.edgeCost(old[i], old[i+1])
		if !ok {
			if !inROK || !d.inR(old[i]) && !d.inR(old[i+1]) {
				return 0, fmt.Errorf("%w: step %d → %d outside the affected region is not an edge", ErrOldPath, old[i], old[i+1])
			}
			c = math.Inf(1)
		}
		d.stepC[i] = c
		total += c
	}
	return total, nil
}

// Forget drops the remembered path, so that the next Replan measures the
// old path on the graph: for a planner that robots share, or after the
// graph changed without a Replan.
func (d *DPAStar) Forget() { d.memo = d.memo[:0] }

// Recall sets the remembered path to path, with cum[i] the cost of
// path[:i+1] on the graph before the change, as if the last Replan had
// returned it: for a planner that robots share, each robot keeping its own
// path and the costs of its steps (as the paper's agents keep their
// paths). The next Replan on that path then reads cost([TG]⁻) and the
// steps of [BG]⁻ from cum instead of asking the graph. cum must hold the
// graph's costs from before the change: outside R they are today's. A
// cum that does not fit path (another length, a cost not finite) is
// dropped, as by Forget.
func (d *DPAStar) Recall(path []NodeID, cum []float64) {
	d.memo = d.memo[:0]
	if len(cum) != len(path) {
		return
	}
	for _, c := range cum {
		if math.IsInf(c, 0) || math.IsNaN(c) {
			return
		}
	}
	d.memo = append(d.memo, path...)
	d.memoG = append(d.memoG[:0], cum...)
}

// remembers reports whether old[at:] is the memo's path from at on.
func (d *DPAStar) remembers(old []NodeID, at int) bool {
	if len(old) != len(d.memo) {
		return false
	}
	for i := at; i < len(old); i++ {
		if old[i] != d.memo[i] {
			return false
		}
	}
	return true
}

// remember keeps a copy of the path just returned and the running sum of
// its step costs.
func (d *DPAStar) remember(path []NodeID, steps []float64) {
	d.memo = append(d.memo[:0], path...)
	d.memoG = append(d.memoG[:0], 0)
	for i := range len(path) - 1 {
		d.memoG = append(d.memoG, d.memoG[i]+steps[i])
	}
}

// inR reports whether node v is in the affected region: removed, or
// positioned inside the box.
func (d *DPAStar) inR(v NodeID) bool {
	return !d.g.Passable(v) || d.region.Contains(d.g.Position(v))
}

// edgeCost returns the cost of the edge u → v, if there is one.
func (d *DPAStar) edgeCost(u, v NodeID) (float64, bool) {
	d.edges = d.g.Successors(u, d.edges[:0])
	for _, e := range d.edges {
		if e.To == v {
			return e.Cost, true
		}
	}
	return 0, false
}

// markOld records each node's index on old[at:] for this search.
func (d *DPAStar) markOld() error {
	st := &d.st
	for i := d.at; i < len(d.old); i++ {
		v := d.old[i]
		if st.onPath[v] == st.cur {
			return fmt.Errorf("%w: node %d repeats", ErrOldPath, v)
		}
		st.onPath[v], st.pathIdx[v] = st.cur, int32(i)
	}
	return nil
}
