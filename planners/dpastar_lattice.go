package planners

import (
	"context"
	"fmt"
	"math/bits"
	"time"
)

// searchLattice is search on a *Lattice (the concrete type, as A*'s fast
// path): it reads a node's moves straight from the lattice's bitmap and
// move table and computes the heuristic from the goal's cell, with no
// []Edge, interface call or division per edge. It relaxes the moves in
// the order Successors lists them, with the same costs and keys, so it
// expands the same nodes in the same order and finds the same path.
func (d *DPAStar) searchLattice(ctx context.Context, l *Lattice, mode dpaMode, start, goal NodeID, dst []NodeID, began time.Time) (Result, error) {
	st := &d.st
	weights := l.weight
	gx, gy, gz := l.Cell(goal)
	x, y, z := l.Cell(start)
	h0 := octile(x-gx, y-gy, z-gz)
	d.begin(start, h0)
	stats := Stats{Touched: 1, Epsilon: 1}
	best, bestH := start, h0
	for len(d.open.items) > 0 { // A1 6, A2 8
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			return d.cutOff(mode, best, dst, stats, began)
		}
		u := d.open.pop(st.pos).id // A1 7–8, A2 9–10
		st.pos[u] = closed
		if u == goal { // A1 9–10, A2 11–12
			return d.found(goal, dst, stats, began), nil
		}
		stats.Expansions++
		x, y, z = l.Cell(u)
		if mode == dpaPlain { // the pruned modes return no partial path
			if h := octile(x-gx, y-gy, z-gz); h < bestH {
				best, bestH = u, h
			}
		}
		gu := st.g[u]
		next, prune := d.prune(mode, u, gu)
		if prune {
			continue
		}
		var legal uint32
		switch {
		case next >= 0:
			legal = 1 // A1 12–13, A2 25–27: only the old step, below
		case !l.Blocked(u): // a blocked cell has no moves (Successors)
			legal = l.legalMoves(int32(u), x, y, z) // A1 11, A2 25
		}
		for ; legal != 0; legal &= legal - 1 {
			var v NodeID
			var c float64
			var dx, dy, dz int32 // v's cell less u's
			if next >= 0 {
				// The old step, at its cost: unchanged, since both ends
				// are outside R.
				v, c = d.old[next], d.stepC[next-1]
				vx, vy, vz := l.Cell(v)
				dx, dy, dz = vx-x, vy-y, vz-z
			} else {
				m := bits.TrailingZeros32(legal)
				mv := &latticeMoves[m]
				v, c, dx, dy, dz = u+NodeID(l.step[m]), mv.length, mv.dx, mv.dy, mv.dz
				if weights != nil {
					c *= (float64(weights[u]) + float64(weights[v])) / 2
				}
			}
			if mode == dpaInsertion && d.beforeA(u, v) {
				continue
			}
			// A1 16–19, A2 28–31: offer v the path through u.
			if st.touch(v) {
				stats.Touched++
			}
			ng := gu + c
			if st.pos[v] == closed || ng >= st.g[v] {
				continue // consistent heuristic: closed nodes are final
			}
			st.g[v], st.parent[v] = ng, u
			f := ng + octile(x+dx-gx, y+dy-gy, z+dz-gz)
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
