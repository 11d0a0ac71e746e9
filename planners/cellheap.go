package planners

import (
	"math"
	"math/bits"
)

// cellHeap is the lattice search's open list: a 4-ary min-heap of cell
// handles with decrease-key through cellState.pos. Items order by
// (f, larger g first, handle) as one 128-bit integer, so picking the
// least of four children is subtraction and no branch: on a lattice, most
// of A*'s time was mispredicted heap comparisons.
type cellHeap struct {
	items []cellItem
}

type cellItem struct {
	hi uint64 // the bits of f: f ≥ 0, so they order as f does
	lo uint64 // the complemented bits of float32(g) (larger g first), then the handle
}

// makeCellItem returns the item of the cell with handle h, cost g from the
// start and key f (both ≥ 0).
func makeCellItem(f, g float64, h uint32) cellItem {
	return cellItem{hi: math.Float64bits(f), lo: uint64(^math.Float32bits(float32(g)))<<32 | uint64(h)}
}

func (a *cellItem) handle() uint32 { return uint32(a.lo) }

// below returns 1 when a orders before b, else 0.
func below(a, b *cellItem) int {
	_, borrow := bits.Sub64(a.lo, b.lo, 0)
	_, borrow = bits.Sub64(a.hi, b.hi, borrow)
	return int(borrow)
}

// push adds an item for a cell not in the heap.
func (q *cellHeap) push(it cellItem, s *brickState) {
	q.items = append(q.items, it)
	q.up(len(q.items)-1, it, s)
}

// decrease lowers the key of the item in slot i to it's.
func (q *cellHeap) decrease(i uint32, it cellItem, s *brickState) {
	q.up(int(i), it, s)
}

// up moves it up from slot i to its place.
func (q *cellHeap) up(i int, it cellItem, s *brickState) {
	items := q.items
	for i > 0 {
		p := (i - 1) >> 2
		if below(&it, &items[p]) == 0 {
			break
		}
		items[i] = items[p]
		s.cell(items[i].handle()).pos = uint32(i)
		i = p
	}
	items[i] = it
	s.cell(it.handle()).pos = uint32(i)
}

// pop removes and returns the minimum; the heap must not be empty. It
// moves the hole at the root down to a leaf along the least children,
// then the last item up from there (Floyd): the last item, a leaf, rarely
// climbs, so this saves a comparison per level.
func (q *cellHeap) pop(s *brickState) cellItem {
	items := q.items
	top := items[0]
	n := len(items) - 1
	it := items[n]
	items = items[:n]
	q.items = items
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c+3 < n {
			// All four children: a tournament of branch-free comparisons.
			ch := items[c : c+4 : c+4]
			a := below(&ch[1], &ch[0])
			b := 2 + below(&ch[3], &ch[2])
			a += (b - a) * below(&ch[b], &ch[a])
			c += a
		} else {
			if c >= n {
				break
			}
			m := c
			for j := c + 1; j < n; j++ {
				if below(&items[j], &items[m]) != 0 {
					m = j
				}
			}
			c = m
		}
		items[i] = items[c]
		s.cell(items[i].handle()).pos = uint32(i)
		i = c
	}
	q.up(i, it, s)
	return top
}
