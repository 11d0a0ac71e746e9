package planners

// rDistances keeps h(V, R), the distance from a node's position to R's
// box, for the nodes whose distance a search has computed, while re-plans
// keep coming with the same R. After one change every robot that shares
// a planner re-plans with the same R, as the agents of the paper's crowds
// do (Section I), and their searches expand many of the same nodes. The
// memory is the planner's, not each robot's. A node's position never
// changes (SpatialGraph), so a distance holds until R does. A planner
// that re-plans one robot once per change sees a new R each time: it
// computes the distances as it goes and allocates nothing. The entries
// sit in pages of consecutive ids, allocated when a search first needs
// one, so memory follows what the searches touch, not the graph.
type rDistances struct {
	r     Region   // the last Replan's R
	on    bool     // the last two Replans had the same R: pages serve
	cur   uint32   // stamp of the entries computed for r
	pages []*rPage // by id >> rPageBits; nil until needed
}

// rPageBits is the number of bits of a node's place in its page.
const rPageBits = 10

// rPage holds the entries of 2^rPageBits consecutive ids.
type rPage [1 << rPageBits]rDist

// rDist is one node's entry, valid when stamp is rDistances.cur.
type rDist struct {
	d     float64
	stamp uint32
}

// use sets R for the next search over n nodes.
func (c *rDistances) use(r Region, n int) {
	if r != c.r {
		c.r, c.on = r, false
		return
	}
	if want := (n + 1<<rPageBits - 1) >> rPageBits; want > len(c.pages) {
		c.pages = append(c.pages, make([]*rPage, want-len(c.pages))...)
	}
	if c.on {
		return
	}
	c.on = true
	if c.cur++; c.cur == 0 { // wrapped: old stamps could match
		for _, p := range c.pages {
			if p != nil {
				*p = rPage{}
			}
		}
		c.cur = 1
	}
}

// distToR returns h(v, R): the Euclidean distance from v's position to R,
// 0 exactly when it lies in R (bounds included).
func (d *DPAStar) distToR(v NodeID) float64 {
	c := &d.near
	if !c.on {
		return d.region.Distance(d.g.Position(v))
	}
	p := c.pages[v>>rPageBits]
	if p == nil {
		p = new(rPage)
		c.pages[v>>rPageBits] = p
	}
	e := &p[v&(1<<rPageBits-1)]
	if e.stamp != c.cur {
		*e = rDist{d: d.region.Distance(d.g.Position(v)), stamp: c.cur}
	}
	return e.d
}
