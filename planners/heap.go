package planners

// openList is a binary min-heap of nodes keyed by float64, with
// decrease-key through a position index kept in the search state.
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

// before orders two keys.
func (h *openList) before(a1, a2, b1, b2 float64) bool {
	if h.slack > 0 {
		return keyBefore(a1, a2, b1, b2, h.slack)
	}
	return a1 < b1 || a1 == b1 && a2 < b2
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
	if i > 0 && h.less(i, (i-1)/2) {
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

func (h *openList) up(i int, pos []int32) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p, pos)
		i = p
	}
}

func (h *openList) down(i int, pos []int32) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.swap(i, m, pos)
		i = m
	}
}
