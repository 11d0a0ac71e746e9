package planners

import (
	"context"
	"fmt"
	"math/bits"
	"time"
)

// A* takes a fast path when its graph is a *Lattice itself (the concrete
// type, not a type embedding one: a wrapper that changes costs must be
// searched through its own methods), or a *Masked over one, whose allowed
// set it reads itself. It checks once per query and then expands cells
// straight from the lattice's bitmap (legalMoves), computes the heuristic
// from the cached goal cell, and keeps its state in brick pages
// (brickState): no interface call, division or full-map allocation per
// expansion. The incremental planners use the same test to compute the
// heuristic from cached cells.

// latticeOf returns the lattice g searches, and the allowed set of a
// *Masked over it (nil for a *Lattice), or false when g is neither.
func latticeOf(g Graph) (*Lattice, []uint64, bool) {
	switch g := g.(type) {
	case *Lattice:
		return g, nil, true
	case *Masked:
		l, ok := g.G.(*Lattice)
		return l, g.Allowed, ok
	}
	return nil, nil, false
}

// searchLattice is the search of the run Plan set up on a lattice
// (with the run's allowed set not nil, only through the nodes it holds;
// see Masked). It finds the same costs as the generic search; only the
// order among nodes of equal f can differ.
func (a *AStar) searchLattice(ctx context.Context, stats Stats, began time.Time, dst []NodeID) (Result, error) {
	st, open, r := &a.cells, &a.cellOpen, &a.run
	l, allowed, goal, w := r.lattice, r.allowed, r.goal, r.w
	W, H := l.W, l.H
	weights := l.weight
	gx, gy, gz := l.Cell(r.target) // the keys' heuristic aims here; the search stops at goal
	for len(open.items) > 0 {
		if checkDue(stats.Expansions) && ctx.Err() != nil {
			stats.Elapsed, stats.Partial = time.Since(began), true
			r.cut = true
			return Result{Path: st.pathTo(l, r.best, dst), Cost: st.cell(st.handle(l.Cell(r.best))).g, Stats: stats}, ErrTimeout
		}
		top := open.pop(st)
		hu := top.handle()
		page, place := st.pages[hu>>brickCellBits], hu&(brickCells-1)
		cu := &page.cells[place]
		cu.meta |= cellClosed
		page.close(place)
		x, y, z := st.coords(hu)
		u := NodeID(x + W*(y+H*z))
		if u == goal {
			stats.Elapsed = time.Since(began)
			return Result{Path: st.pathTo(l, goal, dst), Cost: cu.g, Stats: stats}, nil
		}
		stats.Expansions++
		if h := octile(x-gx, y-gy, z-gz); h < r.bestH {
			r.best, r.bestH = u, h
		}
		gu := cu.g
		// Most neighbours share the cell's brick, and so its page: their
		// handles follow from its handle.
		inBrick := st.movesInBrick(hu)
		legal := l.legalMoves(int32(u), x, y, z)
		// Closed neighbours in the brick are dropped in one go, from the
		// page's closed bits: most neighbours are closed, and reading
		// each one's record cost a load and a mispredicted branch.
		legal &^= st.closedAround(page, place) & inBrick
		for ; legal != 0; legal &= legal - 1 {
			m := bits.TrailingZeros32(legal)
			if allowed != nil && !inSet(allowed, u+NodeID(l.step[m])) {
				continue
			}
			mv := &latticeMoves[m]
			c := mv.length
			if weights != nil {
				c *= (float64(weights[u]) + float64(weights[u+NodeID(l.step[m])])) / 2
			}
			ng := gu + c
			var hv uint32
			var cv *cellState
			if inBrick&(1<<m) != 0 {
				hv = hu + uint32(st.step[m])
				cv = &page.cells[hv&(1<<brickCellBits-1)]
			} else {
				hv = st.handle(x+mv.dx, y+mv.dy, z+mv.dz)
				cv = st.cell(hv)
			}
			meta := cv.meta
			if meta&cellClosed != 0 || meta != 0 && ng >= cv.g {
				continue // consistent heuristic: closed nodes are final (weighted: not reopened)
			}
			cv.g, cv.meta = ng, cellSeen|uint32(m)
			f := ng + w*octile(x+mv.dx-gx, y+mv.dy-gy, z+mv.dz-gz)
			if meta == 0 {
				stats.Touched++
				open.push(makeCellItem(f, ng, hv), st)
			} else {
				open.decrease(cv.pos, makeCellItem(f, ng, hv), st)
			}
		}
	}
	stats.Elapsed = time.Since(began)
	return Result{Stats: stats}, fmt.Errorf("%w: from %d to %d after %d expansions", ErrNoPath, r.from, goal, stats.Expansions)
}

// pathTo writes the path from the query's start to n into dst, following
// each cell's move from its parent back.
func (s *brickState) pathTo(l *Lattice, n NodeID, dst []NodeID) []NodeID {
	dst = dst[:0]
	x, y, z := l.Cell(n)
	for {
		dst = append(dst, n)
		m := s.cell(s.handle(x, y, z)).meta & cellMove
		if m == noMove {
			break
		}
		mv := &latticeMoves[m]
		x, y, z = x-mv.dx, y-mv.dy, z-mv.dz
		n -= NodeID(l.step[m])
	}
	for i, j := 0, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}
