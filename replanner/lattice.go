package replanner

import (
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// lattice is the planning graph over the Volume: a planners.Lattice whose
// node ids are voxel keys relative to box.Min (id = x + W·(y + H·z)),
// with the cost each cell was last set from, so that a change can be told
// from a repeat and a rise from a fall.
type lattice struct {
	*planners.Lattice
	box           voxel.Box    // the voxels covered, Min ↦ node 0 (Ground: one layer)
	cost          []voxel.Cost // per node: the cost its state was set from [len = NumNodes]
	maxCost       voxel.Cost   // highest passable known cost
	unknownIsFree bool
	unknownCost   float64 // the cost an Unknown voxel weighs as
	costWeight    float64
	weighted      bool // some weight ≠ 1 was set; until then every cell weighs 1
}

// newLattice builds the lattice over box from m's current costs.
func newLattice(m *voxel.Map, box voxel.Box, cfg *Config) (*lattice, error) {
	w, h, d := box.Max.X-box.Min.X+1, box.Max.Y-box.Min.Y+1, box.Max.Z-box.Min.Z+1
	pl, err := planners.NewLattice(int(w), int(h), int(d), d == 1)
	if err != nil {
		return nil, err
	}
	g := &lattice{Lattice: pl, box: box, cost: make([]voxel.Cost, pl.NumNodes()),
		maxCost: cfg.MaxCost, unknownIsFree: cfg.UnknownIsFree, unknownCost: cfg.UnknownCost, costWeight: cfg.CostWeight}
	// Every cell starts free at cost 0 (weight 1); set reads the rest.
	for n := range planners.NodeID(pl.NumNodes()) {
		g.set(n, m.Cost(g.key(n)))
	}
	return g, nil
}

// id returns the node of voxel k, or planners.None outside the box.
func (g *lattice) id(k voxel.Key) planners.NodeID {
	if !g.box.Contains(k) {
		return planners.None
	}
	return g.ID(k.X-g.box.Min.X, k.Y-g.box.Min.Y, k.Z-g.box.Min.Z)
}

// key returns the voxel of node n.
func (g *lattice) key(n planners.NodeID) voxel.Key {
	x, y, z := g.Cell(n)
	return g.box.Min.Add(x, y, z)
}

// passable reports whether a voxel of cost c is a lattice cell a path
// may use.
func (g *lattice) passable(c voxel.Cost) bool {
	if c == voxel.Unknown {
		return g.unknownIsFree
	}
	return c <= g.maxCost
}

// weight is the lattice weight of a passable voxel of cost c: 1 +
// CostWeight·c/252, Unknown weighing as UnknownCost.
func (g *lattice) weight(c voxel.Cost) float32 {
	cost := float64(c)
	if c == voxel.Unknown {
		cost = g.unknownCost
	}
	return float32(1 + g.costWeight*cost/float64(voxel.Inscribed-1))
}

// set gives node n the state of cost c. It reports whether n's edges
// changed, and whether they became cheaper or appeared (fell): a cheaper
// path may then exist.
func (g *lattice) set(n planners.NodeID, c voxel.Cost) (changed, fell bool) {
	old := g.cost[n]
	if old == c {
		return false, false
	}
	g.cost[n] = c
	was, is := g.passable(old), g.passable(c)
	ow, nw := g.weight(old), g.weight(c)
	if nw != ow && (g.weighted || nw != 1) {
		g.SetWeight(n, nw) // kept for blocked cells too, so a freed cell has its weight
		g.weighted = true
	}
	if was != is {
		g.SetBlocked(n, !is)
		return true, is
	}
	if !is || nw == ow {
		return false, false
	}
	return true, nw < ow
}

// nearest returns the passable cell nearest to voxel k within radius
// metres (res metres per voxel), and false if there is none. It orders
// candidates as voxel.Map.NearestFree does (distance between voxel
// centres, ties by key order z, y, x) but searches the lattice, so that
// the answer is inside the Volume (on the floor layer in ground mode) and
// passable by the lattice's rule (MaxCost, UnknownIsFree).
func (g *lattice) nearest(k voxel.Key, radius, res float64) (planners.NodeID, bool) {
	if !(radius >= 0) {
		return planners.None, false
	}
	r, r2 := voxel.RadiusVoxels(radius, res, MaxToleranceVoxels)
	// k relative to the box; both within ±MaxCoord, so this fits int32.
	cx, cy, cz := k.X-g.box.Min.X, k.Y-g.box.Min.Y, k.Z-g.box.Min.Z
	// Shells nearer than the box's Chebyshev distance hold no cell of it.
	near := max(outside(cx, g.W), outside(cy, g.H), outside(cz, g.D))
	best, bestD2, found := planners.None, int32(0), false
	for s := near; s <= r; s++ {
		// Only the shell's layers inside the box. In a box one layer
		// thick that is one layer, which an aerial robot off it reaches
		// at dz ≠ 0 (ground mode moves k onto the floor layer first).
		for dz := max(-s, -cz); dz <= min(s, g.D-1-cz); dz++ {
			z := cz + dz
			for dy := -s; dy <= s; dy++ {
				y := cy + dy
				if y < 0 || y >= g.H {
					continue
				}
				step := 2 * s // inside the shell: only its two x faces
				if abs32(dz) == s || abs32(dy) == s || s == 0 {
					step = 1
				}
				for dx := -s; dx <= s; dx += step {
					x := cx + dx
					if x < 0 || x >= g.W {
						continue
					}
					d2 := dx*dx + dy*dy + dz*dz
					if float64(d2) > r2 || (found && d2 > bestD2) {
						continue
					}
					n := g.ID(x, y, z)
					if found && d2 == bestD2 && n > best {
						continue // node order is key order: z, then y, then x
					}
					if g.Passable(n) {
						best, bestD2, found = n, d2, true
					}
				}
			}
		}
		if found && bestD2 < (s+1)*(s+1) {
			break
		}
	}
	return best, found
}

// outside returns how far coordinate c is outside [0, n).
func outside(c, n int32) int32 {
	switch {
	case c < 0:
		return -c
	case c >= n:
		return c - n + 1
	}
	return 0
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
