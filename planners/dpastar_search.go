package planners

import (
	"context"
	"fmt"
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
// pruning rules of mode. The numbers in comments are the lines of the
// paper's Algorithm 1 (A1) and Algorithm 2 (A2).
//
// [TA]⁻ and [BG]⁻ are the nodes strictly before A and strictly after B,
// so that they are empty when A = T and B = G, as the paper says: every
// step between two of them joins two nodes outside R and is unchanged.
func (d *DPAStar) search(ctx context.Context, mode dpaMode, start, goal NodeID, dst []NodeID, began time.Time) (Result, error) {
	g, st := d.g, &d.st
	d.open.items = d.open.items[:0]
	st.touch(start) // A1 4–5, A2 5–7; A2 6's flags come from the parent at expansion
	st.g[start] = 0
	h0 := g.Heuristic(start, goal)
	d.open.push(heapItem{key: h0, tie: 0, id: start}, st.pos)
	stats := Stats{Touched: 1, Epsilon: 1}
	best, bestH := start, h0
	last := len(d.old) - 1
	for len(d.open.items) > 0 { // A1 6, A2 8
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			stats.Elapsed, stats.Partial = time.Since(began), true
			if mode != dpaPlain {
				// Replan's dst may share the old path's storage: keep it,
				// the robot still follows it.
				return Result{Stats: stats}, ErrTimeout
			}
			return Result{Path: st.pathTo(best, dst), Cost: st.g[best], Stats: stats}, ErrTimeout
		}
		u := d.open.pop(st.pos).id // A1 7–8, A2 9–10
		st.pos[u] = closed
		if u == goal { // A1 9–10, A2 11–12
			path := st.pathTo(goal, dst)
			d.memo = append(d.memo[:0], path...)
			d.memoG = d.memoG[:0]
			for _, v := range path {
				d.memoG = append(d.memoG, st.g[v])
			}
			stats.Elapsed = time.Since(began)
			return Result{Path: path, Cost: st.g[goal], Stats: stats}, nil
		}
		stats.Expansions++
		if mode == dpaPlain { // the pruned modes return no partial path
			if h := g.Heuristic(u, goal); h < bestH {
				best, bestH = u, h
			}
		}
		gu := st.g[u]

		// Which edges of u to explore: all, or only the old path's next
		// step (next ≥ 0 is its index), or none.
		next := -1
		switch mode {
		case dpaInsertion:
			// A1 12–13: from a node of [BG]⁻ (G aside), the rest of the
			// old path is still optimal: follow only its next step.
			if i := st.index(u); i > d.lastR && i < last {
				next = i + 1
			}
		case dpaDeletion:
			i := st.index(u)
			inBG := i > d.lastR
			var fl uint8
			if par := st.parent[u]; par != None {
				fl = st.flags[par] // A2 13–14: inherit visitedR and rworse
			}
			if inBG || fl&dpaVisitedR == 0 { // else A2 15–16: explore all
				dist := d.distToR(u)
				if dist == 0 { // u is in R
					fl |= dpaVisitedR // A2 13
				}
				if inBG || fl&dpaVisitedR == 0 { // A2 15–17
					// A2 18: u is R-worse when even reaching R from u and
					// then G costs more than the old path.
					if fl&dpaRWorse == 0 && gu+dist+d.goalToR > d.bound {
						fl |= dpaRWorse
					}
					switch {
					case fl&dpaRWorse == 0: // A2 19–20: explore all
					case inBG: // A2 21–22: [VG]⁻ is still optimal; follow it
						next = i + 1
					default: // A2 23–24: no better path via u at all
						st.flags[u] = fl
						continue
					}
				}
			}
			st.flags[u] = fl
		}

		if next >= 0 {
			// A1 12–13, A2 25–27 with only the successor left: the old
			// step, at its cost, unchanged since both ends are outside R.
			d.edges = append(d.edges[:0], Edge{To: d.old[next], Cost: d.stepC[next-1]})
		} else {
			d.edges = g.Successors(u, d.edges[:0]) // A1 11, A2 25
		}
		for _, e := range d.edges {
			v := e.To
			if mode == dpaInsertion {
				// A1 14–15: a node of [TA]⁻ is reached optimally only
				// from its old predecessor (T from nowhere). (The old
				// step above leaves a node of [BG]⁻, after [TA]⁻.)
				if j := st.index(v); j >= d.at && j < d.firstR && (j == d.at || d.old[j-1] != u) {
					continue
				}
			}
			// A1 16–19, A2 28–31: offer v the path through u.
			if st.touch(v) {
				stats.Touched++
			}
			ng := gu + e.Cost
			if st.pos[v] == closed || ng >= st.g[v] {
				continue // consistent heuristic: closed nodes are final
			}
			st.g[v], st.parent[v] = ng, u
			f := ng + g.Heuristic(v, goal)
			if p := st.pos[v]; p >= 0 {
				d.open.update(int(p), f, -ng, st.pos)
			} else {
				d.open.push(heapItem{key: f, tie: -ng, id: v}, st.pos)
			}
		}
	}
	stats.Elapsed = time.Since(began)
	return Result{Stats: stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, start, goal, stats.Expansions)
}
