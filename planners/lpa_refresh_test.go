package planners

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDStarLiteRefreshKeys: after the start moves and the keys are
// refreshed (every other move here, by the next search otherwise), D*
// Lite's heap has slots that match the state's, every key is a lower
// bound of its node's key, and every node queued under its current
// second key has its current key, so the search re-keys none of them;
// cold nodes are above the ceiling, under lower bounds of their keys;
// every node a raise left stale is queued, with an rhs no more than its
// lookahead; the planner still finds A*'s costs.
func TestDStarLiteRefreshKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for run := range 8 {
		l := changingLattice(t, rng, 20, 18, 6, false, 0.2, run%2 == 1)
		var g Graph = l
		if run%4 >= 2 {
			g = graphOnly{l}
		}
		d, a := NewDStarLite(g), NewAStar(l)
		if run%3 != 0 {
			d.p.coldFloor = 1 // cold lists even on these small lattices
		}
		w := &world{l: l, rng: rng}
		start, goal := randomFree(rng, l), randomFree(rng, l)
		for i := range 40 {
			what := fmt.Sprintf("run %d step %d", run, i)
			path := requireSameAsAStar(t, "DStarLite", d, a, l, start, goal, what)
			moved, newGoal, _ := w.step(path, start, goal, start)
			require.NoError(t, d.Update(w.changed), what)
			if newGoal != goal {
				start, goal = moved, newGoal
				continue
			}
			if moved != start {
				d.moveTo(moved)
				require.True(t, d.p.refreshDue, what)
				if i%2 == 0 { // else the next search refreshes the keys
					d.p.refreshDue = false
					d.p.refreshKeys()
					requireOpenValid(t, &d.p, what)
					checked++
				}
			}
			start = moved
		}
	}
	require.Greater(t, checked, 50)
}

// requireOpenValid checks the open list of p after refreshKeys, and that
// every stale node is queued with an rhs no more than its lookahead.
func requireOpenValid(t *testing.T, p *lpa, what string) {
	t.Helper()
	h := &p.open
	var edges []Edge
	for n := range NodeID(len(p.st.nodes)) {
		if nd := &p.st.nodes[n]; nd.stamp == p.st.cur && nd.bp == stale {
			require.GreaterOrEqual(t, p.st.pos[n], int32(0), "%s: stale node %d not queued", what, n)
			best := math.Inf(1)
			edges = p.out(n, edges[:0])
			for _, e := range edges {
				best = min(best, e.Cost+p.st.gOf(e.To))
			}
			require.LessOrEqual(t, nd.rhs, best, "%s: stale node %d above its lookahead", what, n)
		}
	}
	for i, it := range p.cold {
		require.EqualValues(t, i, p.st.pos[it.id], "%s: cold slot of node %d", what, it.id)
		require.False(t, p.inHeap(it.id, int32(i)), "%s: cold node %d taken for a heap node", what, it.id)
		require.Greater(t, it.key, p.ceil, "%s: cold node %d under the ceiling", what, it.id)
		requireKeyBound(t, p, it, false, what)
	}
	for i, it := range h.items {
		require.EqualValues(t, i, p.st.pos[it.id], "%s: slot of node %d", what, it.id)
		if i > 0 {
			parent := &h.items[(i-1)/arity]
			require.False(t, h.before(it.key, it.tie, parent.key, parent.tie), "%s: slot %d before its parent", what, i)
		}
		requireKeyBound(t, p, it, true, what)
	}
}

// requireKeyBound checks that an open item's key is a lower bound of its
// node's key and, if refreshed (in the heap), its node's key when queued
// under its current second key.
func requireKeyBound(t *testing.T, p *lpa, it heapItem, refreshed bool, what string) {
	t.Helper()
	slack := p.open.slack
	// Keys are sums in floating point: equal ones may differ in their
	// last bits, which the open list's slack absorbs.
	k1, k2 := p.key(it.id)
	require.True(t, it.tie <= k2 && it.key <= k1+slack, "%s: node %d queued above its key [%v; %v]: [%v; %v]", what, it.id, k1, k2, it.key, it.tie)
	if nd := &p.st.nodes[it.id]; refreshed && min(nd.g, nd.rhs) == it.tie {
		require.InDelta(t, k1, it.key, slack, "%s: node %d left below its key", what, it.id)
	}
}

// TestColdBandFollowsReach: settle keeps in the heap the open nodes
// within coldBand of the start's key, or within half of how far the last
// search raised the ceiling above it if that is more, and moves the rest
// to the cold list; with no thaw the band shrinks back by half each time.
func TestColdBandFollowsReach(t *testing.T) {
	p := &lpa{g: emptyGraph{}, coldFloor: 1, ceil: math.Inf(1)} // h = 0: refreshing keeps keys
	p.st.fit(1000)
	for i := range 1000 {
		p.open.items = append(p.open.items, heapItem{key: 100 + float64(i)/100, tie: 100, id: NodeID(i)})
		p.st.pos[i] = int32(i)
	}
	hot := func() int {
		n := 0
		for i, it := range p.open.items {
			require.LessOrEqual(t, it.key, p.ceil)
			require.EqualValues(t, i, p.st.pos[it.id], "heap slot")
			n++
		}
		for i, it := range p.cold {
			require.Greater(t, it.key, p.ceil)
			require.EqualValues(t, i, p.st.pos[it.id], "cold slot")
			require.False(t, p.inHeap(it.id, int32(i)))
		}
		require.Equal(t, 1000, n+len(p.cold))
		return n
	}
	narrow := coldBand * 101
	p.settle(100)
	require.InDelta(t, 100+narrow, p.ceil, 1e-12, "first ceiling")
	require.Equal(t, 2, hot()) // keys 100 and 100.01
	// A search thaws up to 104.
	var cold []heapItem
	for _, it := range p.cold {
		if it.key <= 104 {
			p.st.pos[it.id] = int32(len(p.open.items))
			p.open.items = append(p.open.items, it)
		} else {
			p.st.pos[it.id] = int32(len(cold))
			cold = append(cold, it)
		}
	}
	p.cold, p.ceil = cold, 104
	for _, want := range []float64{102, 101, 100.5, 100.25} {
		p.settle(100)
		require.InDelta(t, want, p.ceil, 1e-12)
		require.Equal(t, int(math.Round((want-100)*100))+1, hot())
	}
	for range 20 {
		p.settle(100)
	}
	require.InDelta(t, 100+narrow, p.ceil, 1e-12, "back to coldBand")
}
