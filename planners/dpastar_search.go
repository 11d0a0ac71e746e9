package planners

import (
	"context"
	"fmt"
	"math"
	"time"
)

// dpaState is DPA*'s per-node data: A*'s searchState (flat slices,
// reset in O(1) by a generation stamp) and, valid only when onPath[n] is
// the current stamp, the node's index on the old path.
type dpaState struct {
	searchState
	flags   []uint8  // dpaVisitedR, dpaRWorse: written when the node is expanded
	onPath  []uint32 // stamp of the query whose old path holds the node
	pathIdx []int32  // index of the node on the old path
}

// reset starts a new query over n nodes.
func (s *dpaState) reset(n int) {
	fresh := len(s.flags) != n
	if fresh {
		s.flags = make([]uint8, n)
		s.onPath = make([]uint32, n)
		s.pathIdx = make([]int32, n)
	}
	s.searchState.reset(n)
	if s.cur == 1 && !fresh { // a wrapped stamp: old marks must not match it
		clear(s.onPath)
	}
}

// index returns n's index on the old path, or −1 off it.
func (s *dpaState) index(n NodeID) int {
	if s.onPath[n] != s.cur {
		return -1
	}
	return int(s.pathIdx[n])
}

// search is A* from start to goal with a closed list (safe with the
// graph's consistent heuristic, as in the paper's Section V) and the
// pruning rules of mode. Where those rules would follow the old path to
// G node by node, it takes that path's known cost instead and goes on
// only while an open node could still beat it. The numbers in comments
// are the lines of the paper's Algorithm 1 (A1) and Algorithm 2 (A2).
func (d *DPAStar) search(ctx context.Context, mode dpaMode, start, goal NodeID, dst []NodeID, began time.Time) (Result, error) {
	g, st := d.g, &d.st
	h0 := g.Heuristic(start, goal)
	d.begin(start, h0)
	stats := Stats{Touched: 1, Epsilon: 1}
	best, bestH := start, h0
	// The cheapest path found so far that joins the old path where the
	// pruning rules would only follow it: its cost and where it joins.
	inc, join := math.Inf(1), -1
	for len(d.open.items) > 0 { // A1 6, A2 8
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			return d.cutOff(mode, best, dst, stats, began)
		}
		if d.open.items[0].key >= inc {
			break // no open node leads to a path cheaper than inc
		}
		u := d.open.pop(st.pos).id // A1 7–8, A2 9–10
		st.pos[u] = closed
		if u == goal { // A1 9–10, A2 11–12
			return d.found(goal, dst, stats, began), nil
		}
		stats.Expansions++
		if mode == dpaPlain { // the pruned modes return no partial path
			if h := g.Heuristic(u, goal); h < bestH {
				best, bestH = u, h
			}
		}
		gu := st.g[u]
		next, prune := d.prune(mode, u, gu)
		if prune {
			continue
		}
		if next >= 0 {
			// A1 12–13, A2 21–22: the search would follow only the old
			// path from u to G, one node at a time, each step unchanged
			// since both its ends are outside R. Its cost is known, so
			// the search keeps it as a path found instead, and stops once
			// no open node can beat it.
			if c := gu + d.rest[next-1]; c < inc {
				inc, join = c, next-1
			}
			continue
		}
		d.edges = g.Successors(u, d.edges[:0]) // A1 11, A2 25
		for _, e := range d.edges {
			v := e.To
			if mode == dpaInsertion && d.beforeA(u, v) {
				continue
			}
			// A1 16–19, A2 28–31: offer v the path through u.
			if st.touch(v) {
				stats.Touched++
			}
			ng := gu + e.Cost
			if st.pos[v] == closed || ng >= st.g[v] {
				continue // consistent heuristic: closed nodes are final
			}
			if join >= 0 && d.joinsSooner(v, ng, inc, join) {
				continue
			}
			f := ng + g.Heuristic(v, goal)
			if f >= inc {
				continue // popped only after the search stops
			}
			st.g[v], st.parent[v] = ng, u
			if p := st.pos[v]; p >= 0 {
				d.open.update(int(p), f, -ng, st.pos)
			} else {
				d.open.push(heapItem{key: f, tie: -ng, id: v}, st.pos)
			}
		}
	}
	if join >= 0 {
		return d.joined(join, dst, stats, began), nil
	}
	stats.Elapsed = time.Since(began)
	return Result{Stats: stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, stats.Expansions)
}

// joinsSooner reports whether the path found, which follows the old path
// from old[join], already reaches v, a node of the old path at or after
// old[join], for no more than ng: the path through v at ng is then no
// better, since both go on to G as the old path does.
func (d *DPAStar) joinsSooner(v NodeID, ng, inc float64, join int) bool {
	j := d.st.index(v)
	return j >= join && ng+d.rest[j] >= inc
}

// begin empties the open list and queues start at g = 0 with key h0.
func (d *DPAStar) begin(start NodeID, h0 float64) {
	st := &d.st
	d.open.items = d.open.items[:0]
	st.touch(start) // A1 4–5, A2 5–7; A2 6's flags come from the parent at expansion
	st.g[start] = 0
	d.open.push(heapItem{key: h0, tie: 0, id: start}, st.pos)
}

// found returns the path the search reached n by (the goal, or the node
// where joined takes the old path on), and remembers it with the cost to
// each of its nodes.
func (d *DPAStar) found(n NodeID, dst []NodeID, stats Stats, began time.Time) Result {
	st := &d.st
	path := st.pathTo(n, dst)
	d.memo = append(d.memo[:0], path...)
	d.memoG = d.memoG[:0]
	for _, v := range path {
		d.memoG = append(d.memoG, st.g[v])
	}
	stats.Elapsed = time.Since(began)
	return Result{Path: path, Cost: st.g[n], Stats: stats}
}

// joined returns the path the search found to old[join], followed by
// the old path from there to G, and remembers it with the cost to each
// of its nodes, summed step by step as a search along it would.
func (d *DPAStar) joined(join int, dst []NodeID, stats Stats, began time.Time) Result {
	d.tail = append(d.tail[:0], d.old[join+1:]...) // dst may be old's storage
	res := d.found(d.old[join], dst, stats, began)
	for k, v := range d.tail {
		res.Cost += d.stepC[join+k]
		res.Path = append(res.Path, v)
		d.memo = append(d.memo, v)
		d.memoG = append(d.memoG, res.Cost)
	}
	return res
}

// cutOff ends a search whose context ended: a plain search returns its
// partial path to best, a pruned one no path.
func (d *DPAStar) cutOff(mode dpaMode, best NodeID, dst []NodeID, stats Stats, began time.Time) (Result, error) {
	stats.Elapsed, stats.Partial = time.Since(began), true
	if mode != dpaPlain {
		// Replan's dst may share the old path's storage: keep it, the
		// robot still follows it.
		return Result{Stats: stats}, ErrTimeout
	}
	return Result{Path: d.st.pathTo(best, dst), Cost: d.st.g[best], Stats: stats}, ErrTimeout
}

// beforeA reports whether Algorithm 1 (lines 14–15) keeps the search from
// reaching v from u: a node of [TA]⁻ is reached optimally only from its
// old predecessor (T from nowhere). (The old step from a node of [BG]⁻
// comes after [TA]⁻.)
//
// [TA]⁻ and [BG]⁻ are the nodes strictly before A and strictly after B,
// so that they are empty when A = T and B = G, as the paper says: every
// step between two of them joins two nodes outside R and is unchanged.
func (d *DPAStar) beforeA(u, v NodeID) bool {
	j := d.st.index(v)
	return j >= d.at && j < d.firstR && (j == d.at || d.old[j-1] != u)
}

// prune applies mode's rules to the expanded node u, reached at cost gu:
// it reports whether to explore none of u's edges (prune), or only the
// old path's next step (next ≥ 0, its index), or all of them (next −1).
func (d *DPAStar) prune(mode dpaMode, u NodeID, gu float64) (next int, prune bool) {
	switch mode {
	case dpaInsertion:
		// A1 12–13: from a node of [BG]⁻ (G aside), the rest of the old
		// path is still optimal: follow only its next step.
		if i := d.st.index(u); i > d.lastR && i < len(d.old)-1 {
			return i + 1, false
		}
	case dpaDeletion:
		return d.pruneDeletion(u, gu)
	}
	return -1, false
}

// pruneDeletion is Algorithm 2's lines 13–24 for u, and records u's flags.
func (d *DPAStar) pruneDeletion(u NodeID, gu float64) (next int, prune bool) {
	st := &d.st
	i := st.index(u)
	inBG := i > d.lastR
	var fl uint8
	if par := st.parent[u]; par != None {
		fl = st.flags[par] // A2 13–14: inherit visitedR and rworse
	}
	next = -1
	if inBG || fl&dpaVisitedR == 0 { // else A2 15–16: explore all
		dist := d.distToR(u)
		if dist == 0 { // u is in R
			fl |= dpaVisitedR // A2 13
		}
		if inBG || fl&dpaVisitedR == 0 { // A2 15–17
			// A2 18: u is R-worse when even reaching R from u, paying
			// R's toll and then reaching G costs more than the old path.
			if fl&dpaRWorse == 0 && gu+dist+d.goalToR > d.bound {
				fl |= dpaRWorse
			}
			switch {
			case fl&dpaRWorse == 0: // A2 19–20: explore all
			case inBG: // A2 21–22: [VG]⁻ is still optimal; follow it
				next = i + 1
			default: // A2 23–24: no better path via u at all
				prune = true
			}
		}
	}
	st.flags[u] = fl
	return next, prune
}
