package planners

import "math"

// D* Lite's open list outlives its searches: after the first one it holds
// that search's whole frontier, thousands of nodes, and every repair adds
// to it. A repair pops only the few hundred whose keys lie below the
// start's, a few moves' costs above the top; but each of its heap
// operations sifts through all of them, and most repair pops are nodes
// re-keyed at the top (a raise's stale neighbours, whose keys were lower
// bounds), each a sift from the root down to the leaves.
//
// So nodes whose first keys lie above a ceiling wait unordered in a cold
// list, and the heap holds the rest: the search's working set, in cache
// and two levels shallower. The heap's top is the least open key while it
// lies below the ceiling; when it does not (or the heap is empty), the
// search either ends, the start's key being below the ceiling too, or
// raises the ceiling and moves the cold nodes under it into the heap
// (thaw). The ceiling is set a little above the start's key when the
// heap's keys are refreshed after the start moved (refreshKeys goes
// through the heap anyway), and its band doubles with each thaw, so a
// search thaws a logarithmic number of times. Cold keys are refreshed
// only when a thaw takes them in.
//
// How far above the start's key is "a little" depends on the map, and is
// counted in nodes, not in cost: octile costs tie by the thousand. After
// a first search on DA1, a cave map, about 100,000 of its 118,000 open
// keys lie within 1% of the start's (a few moves), and a band of 1% had
// every repair refresh and heapify them all: 2 ms of a repair that
// expanded a hundred nodes. With a narrow band those repairs never thaw.
// On Complex a repair's keys rise a few moves, and a band much under 1%
// made each search thaw four or five times, each a scan of the whole
// cold list. So the band starts narrow (coldBand) and widens to half of
// how far the last search had to raise the ceiling: on DA1 it stays
// narrow, on Complex a search thaws about once.
//
// AD* keeps everything in the heap (its coldFloor is 0, its ceiling +∞):
// its keys change with ε and its INCONS list has its own rules. LPA*'s
// start never moves, so its keys are never refreshed and nothing goes
// cold.

// A node's slot (incState.pos) is its index in the heap or in the cold
// list, whichever holds it: it is in the heap when the heap's item at
// that index is its own (inHeap). So a node that goes cold, or comes
// back, keeps its slot when its index does not change, and most do not:
// when a refresh leaves nearly the whole heap cold, as after a first
// search (about 118,000 nodes on DA1), the heap's array becomes the cold
// list and only the few nodes that stay hot move; and a thaw takes nodes
// out of the cold list by moving its last node into the hole. Writing a
// slot is a random write into a map-sized array, a cache and TLB miss
// each: writing all of them made a walk's first repair on DA1 take 3–7
// ms (77 ms the first time, the cold list growing into fresh memory).

// inHeap reports whether open node n, at slot i, is in the heap (else it
// is cold).
func (p *lpa) inHeap(n NodeID, i int32) bool {
	return int(i) < len(p.open.items) && p.open.items[i].id == n
}

// coldBand is the narrowest band above the start's key under which open
// nodes stay in the heap, relative to that key: a small part of one move
// on the maps we plan on (0.017 on Complex, 0.047 on DA1).
const coldBand = 1e-4

// minColdHeap: below this many open nodes D* Lite's heap keeps them all
// (lpa.coldFloor).
const minColdHeap = 512

// hotLeads reports whether the heap's top is the least key of the open
// list: the heap is not empty and its top lies below the ceiling by more
// than the list's slack (cold keys are above the ceiling).
func (p *lpa) hotLeads() bool {
	h := &p.open
	return len(h.items) > 0 && (len(p.cold) == 0 || h.items[0].key < p.ceil-h.slack)
}

// belowCold reports whether a first key k comes before every cold key.
func (p *lpa) belowCold(k float64) bool { return k < p.ceil-p.open.slack }

// openLen is how many nodes are open, in the heap and cold.
func (p *lpa) openLen() int { return len(p.open.items) + len(p.cold) }

// push queues an item, cold when its first key is above the ceiling.
func (p *lpa) push(it heapItem) {
	if it.key > p.ceil {
		p.st.pos[it.id] = int32(len(p.cold))
		p.cold = append(p.cold, it)
		return
	}
	p.open.push(it, p.st.pos)
}

// queueCold is queue for a node in the cold list at index i, with keys
// k1, k2: the same rules, and into the heap if its key fell under the
// ceiling.
func (p *lpa) queueCold(i int, k1, k2 float64) {
	it := &p.cold[i]
	it.key, it.tie = p.requeued(*it, k1, k2)
	if it.key <= p.ceil {
		moved := *it
		p.dropCold(i)
		p.open.push(moved, p.st.pos)
	}
}

// dropCold takes cold[i] out of the cold list, leaving its pos to the
// caller.
func (p *lpa) dropCold(i int) {
	last := len(p.cold) - 1
	if i != last {
		p.cold[i] = p.cold[last]
		p.st.pos[p.cold[i].id] = int32(i)
	}
	p.cold = p.cold[:last]
}

// park moves the heap's top, whose key was just raised to k1, k2 above the
// ceiling, to the cold list.
func (p *lpa) park(k1, k2 float64) {
	it := p.open.pop(p.st.pos)
	it.key, it.tie = k1, k2
	p.push(it)
}

// thaw raises the ceiling over the least cold key by the band, doubles
// the band, and pushes the cold nodes now under it onto the heap. Cold
// keys may be older than the last refresh (see settle): a node that comes
// under the ceiling is refreshed first, and stays cold if it rises above.
func (p *lpa) thaw() {
	least := math.Inf(1)
	for i := range p.cold {
		least = min(least, p.cold[i].key)
	}
	p.ceil = max(p.ceil, least) + p.band
	p.band *= 2
	p.takeUnderCeiling()
}

// takeUnderCeiling refreshes the cold keys under the ceiling and moves
// the nodes whose keys stay under it onto the heap.
func (p *lpa) takeUnderCeiling() {
	for i := 0; i < len(p.cold); {
		it := &p.cold[i]
		if it.key <= p.ceil {
			it.key = p.refreshed(*it)
		}
		if it.key > p.ceil {
			i++
			continue
		}
		p.open.push(*it, p.st.pos)
		p.dropCold(i) // the last cold node, if another, comes to i
	}
}

// refreshed is an open item's first key after the start moved, as
// refreshKeys makes it: built from its second key, the heuristic and k_m,
// and no lower than it was.
func (p *lpa) refreshed(it heapItem) float64 {
	return max(it.key, it.tie+p.h(it.id)+p.km)
}

// settle is refreshKeys' work once the start moved: it lowers the ceiling
// to a band above first key k (the start's), coldBand or half of how far
// above its key the last search raised the ceiling, whichever is more;
// it refreshes the heap's keys under the ceiling, moves its nodes above
// the ceiling to the cold list and rebuilds the heap. A key above the
// ceiling goes cold as it is: refreshing only raises keys, and a thaw
// refreshes what it takes in. The ceiling never rises here, since the
// cold list is left as it is: its keys, refreshed or not, are lower
// bounds of their nodes' keys (k_m sees to that) and above the ceiling,
// and most of them are never needed. With fewer open nodes than
// coldFloor, or none set (AD*), the heap takes them all.
func (p *lpa) settle(k float64) {
	pos := p.st.pos
	if p.coldFloor == 0 || p.openLen() < p.coldFloor {
		p.ceil = math.Inf(1)
		for _, it := range p.cold {
			it.key = p.refreshed(it)
			pos[it.id] = int32(len(p.open.items))
			p.open.items = append(p.open.items, it)
		}
		p.cold = p.cold[:0]
	} else {
		reach := 0.0
		if !math.IsInf(p.ceil, 1) {
			reach = (p.ceil - p.settledKey) / 2
		}
		p.band = max(coldBand*(1+math.Abs(k)), reach)
		p.ceil = min(p.ceil, k+p.band)
		p.band *= 2
	}
	p.settledKey = k
	if len(p.cold) == 0 && p.fewUnderCeiling() {
		p.coolAll() // pushes onto the heap: in order already
	} else {
		p.cool()
		p.open.heapify(pos)
	}
}

// fewUnderCeiling reports whether fewer than half the heap's keys lie
// under the ceiling, so that coolAll moves fewer nodes than cool.
func (p *lpa) fewUnderCeiling() bool {
	n := 0
	for i := range p.open.items {
		if p.open.items[i].key <= p.ceil {
			n++
		}
	}
	return 2*n < len(p.open.items)
}

// cool refreshes the heap's keys under the ceiling, moves its nodes above
// it to the end of the cold list and packs the rest at the front of the
// heap's array.
func (p *lpa) cool() {
	pos, hot, nh := p.st.pos, p.open.items, 0
	for i, it := range hot {
		if it.key <= p.ceil {
			it.key = p.refreshed(it)
		}
		if it.key > p.ceil {
			pos[it.id] = int32(len(p.cold))
			p.cold = append(p.cold, it)
			continue
		}
		if nh != i {
			pos[it.id] = int32(nh)
		}
		hot[nh] = it
		nh++
	}
	p.open.items = hot[:nh]
}

// coolAll is cool when the cold list is empty and most of the heap goes
// cold: the heap's array becomes the cold list, and the nodes under the
// ceiling move out of it to a new heap (in the cold list's old array).
// The cold nodes keep their slots, but for the ones moved into the holes.
func (p *lpa) coolAll() {
	p.open.items, p.cold = p.cold[:0], p.open.items
	p.takeUnderCeiling()
}
