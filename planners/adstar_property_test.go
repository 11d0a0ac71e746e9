package planners

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireADStarResult checks one path AD* returned or published for start →
// goal: it starts at start and ends at goal, every step is a lattice move
// (pathCost fails otherwise), its reported cost is the sum of its edges,
// ε ≥ 1, and its cost is at most the reported ε times A*'s optimum.
func requireADStarResult(t *testing.T, l *Lattice, r Result, start, goal NodeID, optimum float64, what string) {
	t.Helper()
	require.NotEmpty(t, r.Path, what)
	require.Equal(t, start, r.Path[0], "%s: path does not start at the robot", what)
	require.Equal(t, goal, r.Path[len(r.Path)-1], "%s: path does not end at the goal", what)
	sum := pathCost(t, l, r.Path)
	require.InDelta(t, sum, r.Cost, 1e-9*max(1, sum), "%s: reported cost %v, edges sum to %v", what, r.Cost, sum)
	require.GreaterOrEqual(t, r.Stats.Epsilon, 1.0, what)
	require.LessOrEqual(t, r.Cost, r.Stats.Epsilon*optimum*(1+1e-9)+1e-9,
		"%s: cost %v > ε %v × optimum %v", what, r.Cost, r.Stats.Epsilon, optimum)
}

// TestADStarDeadlineBoundProperty is the property the package promises for
// AD* under a time budget: on random lattices that change while the robot
// walks its path (and the goal sometimes moves), with random schedules and
// deadlines that cut passes midway (a context that expires after 1 to 5
// checks), every path Plan returns or OnImprove publishes is legal, runs
// start → goal, costs the sum of its edges, and costs at most its ε times
// A*'s optimum from scratch; ErrNoPath only when A* finds none; and every
// few steps an unbounded Plan finishes at ε = 1 with A*'s cost.
func TestADStarDeadlineBoundProperty(t *testing.T) {
	cases := []struct {
		name     string
		w, h, d  int
		planar   bool
		weighted bool
		generic  bool
		runs     int
		steps    int
		density  float64
	}{
		{"2D-small", 40, 30, 1, true, false, false, 12, 40, 0.2},
		{"2D-weighted-small", 30, 30, 1, true, true, false, 12, 40, 0.15},
		{"2D-generic", 30, 30, 1, true, true, true, 8, 40, 0.15},
		{"3D-weighted", 14, 12, 8, false, true, false, 8, 30, 0.2},
		{"2D-large", 160, 120, 1, true, true, false, 4, 40, 0.1},
		{"3D-large", 50, 40, 10, false, true, false, 3, 30, 0.15},
	}
	cut, bounded, published, nopath, inflated, length := 0, 0, 0, 0, 0, 0
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for run := range c.runs {
				rng := rand.New(rand.NewPCG(uint64(run), uint64(100+ci)))
				l := changingLattice(t, rng, c.w, c.h, c.d, c.planar, c.density, c.weighted)
				var g Graph = l
				if c.generic {
					g = graphOnly{l}
				}
				a := NewAStar(l)
				ad := NewADStar(g)
				ad.Epsilon0 = 1 + 3*rng.Float64()
				ad.EpsilonStep = 0.1 + 0.8*rng.Float64()
				ad.LargeChange = 1 + rng.IntN(80)
				w := &world{l: l, rng: rng}
				start, goal := randomFree(rng, l), randomFree(rng, l)
				path := []NodeID{start}
				for i := range c.steps {
					what := fmt.Sprintf("run %d step %d (ε₀ %.3f, step %.3f)", run, i, ad.Epsilon0, ad.EpsilonStep)
					if i > 0 {
						start, goal, _ = w.step(path, start, goal, start)
						require.NoError(t, ad.Update(w.changed), what)
						if len(path) < 3 { // arrived or stuck: a new goal
							goal = randomFree(rng, l)
						}
					}
					want, werr := a.Plan(context.Background(), start, goal, nil)
					ad.OnImprove = func(r Result) {
						published++
						require.NoError(t, werr, "%s: AD* published a path A* did not find", what)
						requireADStarResult(t, l, r, start, goal, want.Cost, what+" (published)")
					}
					ctx := &stopAfter{Context: context.Background(), n: 1 + rng.IntN(5)}
					r, err := ad.Plan(ctx, start, goal, nil)
					switch {
					case errors.Is(err, ErrTimeout):
						cut++
						require.True(t, r.Stats.Partial, what)
						path = []NodeID{start}
					case werr != nil:
						nopath++
						require.ErrorIs(t, err, ErrNoPath, "%s: A* found no path", what)
						path = []NodeID{start}
					default:
						require.NoError(t, err, what)
						requireADStarResult(t, l, r, start, goal, want.Cost, what)
						bounded++
						if r.Stats.Epsilon > 1 {
							inflated++
						}
						length += len(r.Path)
						path = append([]NodeID(nil), r.Path...)
					}
					if i%5 == 4 && werr == nil {
						ad.OnImprove = nil
						r, err := ad.Plan(context.Background(), start, goal, nil)
						require.NoError(t, err, what+" (to the end)")
						require.Equal(t, 1.0, r.Stats.Epsilon, what+" (to the end)")
						requireADStarResult(t, l, r, start, goal, want.Cost, what+" (to the end)")
						require.InDelta(t, want.Cost, r.Cost, 1e-9*want.Cost, what+" (to the end)")
						path = append([]NodeID(nil), r.Path...)
					}
				}
			}
		})
	}
	t.Logf("%d plans cut before a path, %d bounded paths checked (%d at ε > 1, mean length %d), %d published, %d without a path",
		cut, bounded, inflated, length/max(1, bounded), published, nopath)
	require.Positive(t, cut)
	require.Greater(t, bounded, 200)
}

// TestADStarSecondPassCutProperty: a Plan whose first pass (at ε₀) completes
// and whose second pass is cut midway returns the first pass's path with
// ε₀, and a later Plan from a new start (the robot moved along the path,
// nothing changed) resumes at the lowered ε and never reports an ε its
// path does not meet.
func TestADStarSecondPassCutProperty(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 77))
		l := changingLattice(t, rng, 120, 100, 1, true, 0.25, true)
		a := NewAStar(l)
		ad := NewADStar(l)
		ad.Epsilon0, ad.EpsilonStep = 3, 0.25
		start, goal := randomFree(rng, l), randomFree(rng, l)
		want, werr := a.Plan(context.Background(), start, goal, nil)
		if werr != nil {
			continue
		}
		for k := range 12 {
			what := fmt.Sprintf("seed %d move %d", seed, k)
			r, err := ad.Plan(&stopAfter{Context: context.Background(), n: 2 + rng.IntN(3)}, start, goal, nil)
			if errors.Is(err, ErrTimeout) {
				continue
			}
			require.NoError(t, err, what)
			requireADStarResult(t, l, r, start, goal, want.Cost, what)
			if len(r.Path) < 3 {
				break
			}
			start = r.Path[1+rng.IntN(min(3, len(r.Path)-2))]
			want, werr = a.Plan(context.Background(), start, goal, nil)
			require.NoError(t, werr)
		}
	}
}
