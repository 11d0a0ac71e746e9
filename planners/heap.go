package planners

// openList is a 4-ary min-heap of nodes keyed by float64, with
// decrease-key through a position index kept in the search state. Four
// children a node halve the depth of a binary heap; sifting moves a hole
// instead of swapping.
type openList struct {
	items []heapItem
	// slack, when > 0, orders keys whose first parts differ by no more
	// than it by their second part, as if equal: incremental planners need
	// it (see keySlack).
	slack float64
}

type heapItem struct {
	key float64
	tie float64 // second key: smaller first (A*: larger g first, via -g)
	id  NodeID
}

func (h *openList) less(a, b int) bool {
	x, y := &h.items[a], &h.items[b]
	return h.before(x.key, x.tie, y.key, y.tie)
}

// before orders two-part keys lexicographically, first keys within the
// list's slack counting as equal.
func (h *openList) before(a1, a2, b1, b2 float64) bool {
	return keyBit(a1, a2, b1, b2, h.slack) != 0
}

// keyBit is before as 1 or 0, computed without branches: the heap's
// comparisons of near-equal keys are unpredictable. With slack 0 it is
// plain lexicographic order, a1 < b1 || a1 == b1 && a2 < b2.
func keyBit(a1, a2, b1, b2, slack float64) int {
	d := a1 - b1
	tie := b2i(a2 < b2) | b2i(a2 == b2)&b2i(d < 0)
	return b2i(d < -slack) | tie&^b2i(d > slack)
}

// b2i is 1 for true and 0 for false (a SETcc, no branch).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// push adds an item and returns nothing; pos[id] tracks its slot.
func (h *openList) push(it heapItem, pos []int32) {
	h.items = append(h.items, it)
	pos[it.id] = int32(len(h.items) - 1)
	h.up(len(h.items)-1, pos)
}

// update changes the keys of the item at slot i.
func (h *openList) update(i int, key, tie float64, pos []int32) {
	old := h.items[i]
	h.items[i].key, h.items[i].tie = key, tie
	if h.before(key, tie, old.key, old.tie) {
		h.up(i, pos)
	} else {
		h.down(i, pos)
	}
}

// pop removes and returns the minimum.
func (h *openList) pop(pos []int32) heapItem {
	top := h.items[0]
	last := len(h.items) - 1
	h.swap(0, last, pos)
	h.items = h.items[:last]
	if last > 0 {
		h.down(0, pos)
	}
	pos[top.id] = -1
	return top
}

// remove takes the item at slot i out of the list.
func (h *openList) remove(i int, pos []int32) {
	id := h.items[i].id
	last := len(h.items) - 1
	if i != last {
		h.swap(i, last, pos)
		h.items = h.items[:last]
		h.fix(i, pos)
	} else {
		h.items = h.items[:last]
	}
	pos[id] = -1
}

// fix restores the heap order around slot i after its keys changed.
func (h *openList) fix(i int, pos []int32) {
	if i > 0 && h.less(i, (i-1)/arity) {
		h.up(i, pos)
	} else {
		h.down(i, pos)
	}
}

// top returns the minimum without removing it; the list must not be empty.
func (h *openList) top() heapItem { return h.items[0] }

func (h *openList) swap(a, b int, pos []int32) {
	h.items[a], h.items[b] = h.items[b], h.items[a]
	pos[h.items[a].id] = int32(a)
	pos[h.items[b].id] = int32(b)
}

// arity is how many children a heap node has.
const arity = 4

// up moves the item at slot i toward the root until its parent is not
// after it.
func (h *openList) up(i int, pos []int32) {
	it := h.items[i]
	for i > 0 {
		p := (i - 1) / arity
		q := &h.items[p]
		if !h.before(it.key, it.tie, q.key, q.tie) {
			break
		}
		h.items[i] = *q
		pos[q.id] = int32(i)
		i = p
	}
	h.items[i] = it
	pos[it.id] = int32(i)
}

// down moves the item at slot i toward the leaves until no child is
// before it. The least of four children is found by a tournament of
// branch-free comparisons; of equal children the first wins, as in a
// scan, so with slack 0 (a total order) the heap moves exactly as a
// scanning one does.
func (h *openList) down(i int, pos []int32) {
	items, slack := h.items, h.slack
	n := len(items)
	it := items[i]
	for {
		c := arity*i + 1
		if c+arity <= n {
			ch := items[c : c+arity : c+arity]
			a := keyBit(ch[1].key, ch[1].tie, ch[0].key, ch[0].tie, slack)
			b := 2 + keyBit(ch[3].key, ch[3].tie, ch[2].key, ch[2].tie, slack)
			c += a + (b-a)*keyBit(ch[b].key, ch[b].tie, ch[a].key, ch[a].tie, slack)
		} else {
			if c >= n {
				break
			}
			m := c
			for k := c + 1; k < n; k++ {
				if keyBit(items[k].key, items[k].tie, items[m].key, items[m].tie, slack) != 0 {
					m = k
				}
			}
			c = m
		}
		q := &items[c]
		if keyBit(q.key, q.tie, it.key, it.tie, slack) == 0 {
			break
		}
		items[i] = *q
		pos[q.id] = int32(i)
		i = c
	}
	items[i] = it
	pos[it.id] = int32(i)
}

// heapify restores the heap order of the whole list.
func (h *openList) heapify(pos []int32) {
	if len(h.items) < 2 {
		return
	}
	for i := (len(h.items) - 2) / arity; i >= 0; i-- {
		h.down(i, pos)
	}
}
