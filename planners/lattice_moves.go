package planners

import "math"

// A lattice move is named by its move index m = (dx+1) + 3·(dy+1) +
// 9·(dz+1) ∈ [0, 27): the position of its target in the 3×3×3
// neighbourhood of the cell it leaves. Index 13, the cell itself, is no
// move. Sets of moves and of neighbourhood cells are 27-bit masks with bit
// m for index m.
const (
	noMove    = 13       // the centre of the neighbourhood: no move
	planeMask = 1<<9 - 1 // the nine cells of one z layer of the neighbourhood
	planeMid  = 4        // the centre of a 3×3 layer: bit (dx+1) + 3·(dy+1) at dx = dy = 0
)

// latticeMove is the geometry of one move index.
type latticeMove struct {
	dx, dy, dz int32
	length     float64 // 1, √2 or √3 (0 for noMove)
}

// latticeMoves lists the moves by move index.
var latticeMoves = func() (t [27]latticeMove) {
	for m := range t {
		dx, dy, dz := int32(m%3-1), int32(m/3%3-1), int32(m/9-1)
		t[m] = latticeMove{dx: dx, dy: dy, dz: dz, length: math.Sqrt(float64(dx*dx + dy*dy + dz*dz))}
	}
	return t
}()

// rectFree maps the free cells of one 3×3 layer of a neighbourhood (a
// 9-bit mask, bit (dx+1) + 3·(dy+1)) to the rectangles of that layer that
// are wholly free: bit (dx+1) + 3·(dy+1) is set when every cell from the
// layer's centre to (dx, dy), both included, is free. A move (dx, dy, dz)
// is legal when its bounding box is free, that is when rectangle (dx, dy)
// is free in layer 0 and in layer dz.
var rectFree = func() (t [1 << 9]uint16) {
	for free := range t {
		for r := range 9 {
			dx, dy := r%3-1, r/3-1
			ok := true
			for by := min(0, dy); by <= max(0, dy); by++ {
				for bx := min(0, dx); bx <= max(0, dx); bx++ {
					ok = ok && free&(1<<((bx+1)+3*(by+1))) != 0
				}
			}
			if ok {
				t[free] |= 1 << r
			}
		}
	}
	return t
}()

// legalMoves returns the mask of legal moves from node i at (x, y, z). The
// node itself counts as free: its own state does not restrict its moves.
func (l *Lattice) legalMoves(i, x, y, z int32) uint32 {
	var lo, mid, hi uint32 // free cells of the layers dz = -1, 0, 1
	if uint32(x-1) < uint32(l.W-2) && uint32(y-1) < uint32(l.H-2) {
		// Every row of the neighbourhood is inside the box: read each as
		// three bits of the bitmap, no per-cell bounds.
		mid = l.freeLayer(i - 1)
		if uint32(z-1) < uint32(l.D-2) {
			lo = l.freeLayer(i - 1 - l.W*l.H)
			hi = l.freeLayer(i - 1 + l.W*l.H)
		} else {
			lo, hi = l.freeLayerChecked(x, y, z-1), l.freeLayerChecked(x, y, z+1)
		}
	} else {
		lo, mid, hi = l.freeLayerChecked(x, y, z-1), l.freeLayerChecked(x, y, z), l.freeLayerChecked(x, y, z+1)
	}
	r0 := uint32(rectFree[mid|1<<planeMid])
	legal := (r0 &^ (1 << planeMid)) << 9
	if !l.planar {
		legal |= r0&uint32(rectFree[lo]) | (r0&uint32(rectFree[hi]))<<18
	}
	return legal
}

// freeLayer returns the free cells of the 3×3 layer whose row dy = -1
// starts at node j (x-1, y-1 in the layer), all nine inside the box.
func (l *Lattice) freeLayer(j int32) uint32 {
	blocked := l.row3(j-l.W) | l.row3(j)<<3 | l.row3(j+l.W)<<6
	return ^blocked & planeMask
}

// row3 returns the blocked bits of nodes j, j+1 and j+2.
func (l *Lattice) row3(j int32) uint32 { return threeBits(l.blocked, uint32(j)) }

// threeBits returns bits j, j+1 and j+2 of the bit array words, which
// must hold bit j+2 and one word more.
func threeBits(words []uint64, j uint32) uint32 {
	k, s := j>>6, j&63
	return uint32((words[k]>>s | words[k+1]<<(64-s)) & 7) // a shift by 64 gives 0
}

// freeLayerChecked returns the free cells of the 3×3 layer of cells
// around (x, y) at height z, cells outside the box counting as blocked.
func (l *Lattice) freeLayerChecked(x, y, z int32) uint32 {
	if z < 0 || z >= l.D {
		return 0
	}
	free := uint32(0)
	for dy := int32(-1); dy <= 1; dy++ {
		for dx := int32(-1); dx <= 1; dx++ {
			if n := l.ID(x+dx, y+dy, z); n != None && !l.Blocked(n) {
				free |= 1 << ((dx + 1) + 3*(dy+1))
			}
		}
	}
	return free
}
