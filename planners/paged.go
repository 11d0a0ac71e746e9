package planners

// brickState is per-cell search data for a query on a Lattice, paged by
// bricks of 4096 cells (16×16×16 in 3D, 64×64 on a planar map): a brick
// gets a page when the query first touches one of its cells, and every
// page goes back to the pool when the next query starts. Memory follows
// what one query touches, not the map: 16 B per cell of the touched
// bricks and a closed bit (1.7 KB a page with its padding), instead of
// 20 B per node up front (1.3 GB for BC1's 67 M voxels). On BC1 that was
// 4 MB for the median of 500 queries and 78 MB for the largest before
// the closed bits, which add 2.3%. The pool keeps as many pages as the largest query took, so a
// steady stream of queries allocates nothing. Bricks keep
// a search's ball of cells on few pages, where pages of consecutive ids
// would cut it into thin slabs: 2 to 9 times the memory on BC1 and DA1.
//
// A cell is named in a query by its handle, slot<<brickCellBits | its
// place in its brick, slot being its page's place in the pool.
type brickState struct {
	index []int32      // by brick: 1 + the slot of its page in this query, 0 for none [len = number of bricks]
	pages []*brickPage // the pool, by slot; slots [0, used) serve this query
	slots []brickSlot  // by slot: the brick it serves
	used  int32        // slots taken by this query

	// The brick shape: 2^sx × 2^sy × 2^sz cells, sx + sy + sz ≤
	// brickCellBits (less only on a lattice smaller than a page); a cell's
	// place in its brick is x + 2^sx·(y + 2^sy·z) in brick coordinates.
	sx, sy, sz uint8
	bx, bxy    int32     // bricks along x, per z layer of bricks
	step       [27]int32 // each move's change of handle inside a brick, by move index
}

// brickSlot is the brick a page of the pool serves.
type brickSlot struct {
	brick      int32 // index of the brick in brickState.index
	x0, y0, z0 int32 // the brick's lowest cell
}

// brickCellBits is the number of bits of a cell's place in its brick.
const brickCellBits = 12

// maxBricks bounds the bricks of a lattice the paged state serves: slots
// and places share a uint32 handle.
const maxBricks = 1 << (32 - brickCellBits)

// brickPage holds a brick's cells, by their place in the brick, and a
// bit per cell, set once the search has closed it: the closed cells of a
// cell's neighbourhood in the brick are read from a few words of it (see
// closedAround) rather than from a record each.
type brickPage struct {
	cells  [brickCells]cellState
	closed [closedWords]uint64 // bit closedPad + place: closed
}

// closedPad is the number of bits before a page's first closed bit, and
// after its last: enough that the rows of any place's neighbourhood,
// three bits each, can be read inside the array. They reach 2^(sx+sy) +
// 2^sx + 1 places away: 273 in 16×16×16 bricks, at most 4,097 in the
// flat bricks of a lattice two cells thick (2^11 + 2^11 + 1; a brick one
// cell thick has only its middle layer read).
const (
	closedPad   = brickCells + 1
	closedWords = (brickCells + 2*closedPad + 64) / 64
)

// brickCells is the number of cells of a brick.
const brickCells = 1 << brickCellBits

// cellState is one cell's search data; all zero until the query touches
// it.
type cellState struct {
	g    float64 // cost from the start
	meta uint32  // cellSeen | cellClosed | the move index from the parent (noMove at the start)
	pos  uint32  // slot in the open list while seen and not closed
}

// cellState.meta bits.
const (
	cellMove   = 1<<5 - 1 // the move index
	cellClosed = 1 << 5   // expanded
	cellSeen   = 1 << 6   // touched by this query
)

// reset starts a query on l: it gives back the pages of the last query
// and shapes the bricks for l. It reports false when l has too many
// bricks for handles (more than 2^20: a planar map of over 4·10^9
// cells).
func (s *brickState) reset(l *Lattice) bool {
	for _, sl := range s.slots[:s.used] {
		s.index[sl.brick] = 0
	}
	s.used = 0
	// 4 bits per axis, less along an axis the lattice is thinner than a
	// brick, the rest to the others: a planar map gets 64×64×1 bricks.
	dims := [3]int32{l.W, l.H, l.D}
	var shift, room [3]uint8
	left := uint8(brickCellBits)
	for i, d := range dims {
		for room[i] = 0; int32(1)<<room[i] < d && room[i] < brickCellBits; room[i]++ {
		}
		shift[i] = min(4, room[i])
		left -= shift[i]
	}
	for left > 0 && shift != room {
		for i := range shift {
			if left > 0 && shift[i] < room[i] {
				shift[i]++
				left--
			}
		}
	}
	bx := (l.W-1)>>shift[0] + 1
	by := (l.H-1)>>shift[1] + 1
	bz := (l.D-1)>>shift[2] + 1
	if int64(bx)*int64(by)*int64(bz) > maxBricks {
		return false
	}
	if n := int(bx) * int(by) * int(bz); n != len(s.index) {
		s.index = make([]int32, n)
	}
	if s.sx != shift[0] || s.sy != shift[1] || s.sz != shift[2] || s.bx != bx || s.bxy != bx*by {
		s.sx, s.sy, s.sz, s.bx, s.bxy = shift[0], shift[1], shift[2], bx, bx*by
		for m, mv := range latticeMoves {
			s.step[m] = mv.dx + mv.dy<<s.sx + mv.dz<<(s.sx+s.sy)
		}
	}
	return true
}

// movesInBrick returns the mask of the moves from the cell with handle h
// that stay in its brick.
func (s *brickState) movesInBrick(h uint32) uint32 {
	c := h & (1<<brickCellBits - 1)
	x, y, z := c&(1<<s.sx-1), c>>s.sx&(1<<s.sy-1), c>>(s.sx+s.sy)
	in := uint32(1<<27 - 1)
	if x == 0 {
		in &^= movesAlong[0][0]
	}
	if x == 1<<s.sx-1 {
		in &^= movesAlong[0][1]
	}
	if y == 0 {
		in &^= movesAlong[1][0]
	}
	if y == 1<<s.sy-1 {
		in &^= movesAlong[1][1]
	}
	if z == 0 {
		in &^= movesAlong[2][0]
	}
	if z == 1<<s.sz-1 {
		in &^= movesAlong[2][1]
	}
	return in
}

// movesAlong[axis][0] is the mask of the moves that go down along the
// axis, [axis][1] of those that go up.
var movesAlong = func() (t [3][2]uint32) {
	for m, mv := range latticeMoves {
		for i, d := range [3]int32{mv.dx, mv.dy, mv.dz} {
			switch d {
			case -1:
				t[i][0] |= 1 << m
			case 1:
				t[i][1] |= 1 << m
			}
		}
	}
	return t
}()

// handle returns the handle of cell (x, y, z), taking a page for its
// brick when the query has not touched the brick yet.
func (s *brickState) handle(x, y, z int32) uint32 {
	b := z>>s.sz*s.bxy + y>>s.sy*s.bx + x>>s.sx
	slot := s.index[b] - 1
	if slot < 0 {
		slot = s.take(b, x, y, z)
	}
	mx, my, mz := int32(1)<<s.sx-1, int32(1)<<s.sy-1, int32(1)<<s.sz-1
	return uint32(slot)<<brickCellBits | uint32((z&mz)<<(s.sx+s.sy)|(y&my)<<s.sx|x&mx)
}

// cell returns the state of the cell with handle h.
func (s *brickState) cell(h uint32) *cellState {
	return &s.pages[h>>brickCellBits].cells[h&(1<<brickCellBits-1)]
}

// coords returns the cell with handle h.
func (s *brickState) coords(h uint32) (x, y, z int32) {
	sl := &s.slots[h>>brickCellBits]
	c := int32(h & (1<<brickCellBits - 1))
	return sl.x0 + c&(1<<s.sx-1), sl.y0 + c>>s.sx&(1<<s.sy-1), sl.z0 + c>>(s.sx+s.sy)
}

// take gives the brick b of cell (x, y, z) a cleared page and returns its
// slot.
func (s *brickState) take(b, x, y, z int32) int32 {
	slot := s.used
	if int(slot) == len(s.pages) {
		s.pages = append(s.pages, new(brickPage))
		s.slots = append(s.slots, brickSlot{})
	} else {
		*s.pages[slot] = brickPage{}
	}
	s.slots[slot] = brickSlot{brick: b, x0: x >> s.sx << s.sx, y0: y >> s.sy << s.sy, z0: z >> s.sz << s.sz}
	s.index[b] = slot + 1
	s.used++
	return slot
}

// close marks the cell at place c of page p closed.
func (p *brickPage) close(c uint32) {
	c += closedPad
	p.closed[c>>6] |= 1 << (c & 63)
}

// closedAround returns the mask of the closed cells among the 3×3×3
// neighbourhood of the cell at place c of page p, in the move index
// layout, bit (dx+1) + 3·(dy+1) + 9·(dz+1). Only the bits of moves that
// stay in the brick (movesInBrick) are right; the others read other
// places or the padding. Without moves along z (a brick one cell thick)
// only the middle layer is read.
func (s *brickState) closedAround(p *brickPage, c uint32) uint32 {
	dy, dz := uint32(1)<<s.sx, uint32(1)<<(s.sx+s.sy)
	c += closedPad
	layer := func(c uint32) uint32 {
		return p.closedRow(c-dy-1) | p.closedRow(c-1)<<3 | p.closedRow(c+dy-1)<<6
	}
	mask := layer(c) << 9
	if s.sz > 0 {
		mask |= layer(c-dz) | layer(c+dz)<<18
	}
	return mask
}

// closedRow returns bits c, c+1 and c+2 of p.closed: with c a place
// plus closedPad, the closed bits of that place and the next two.
func (p *brickPage) closedRow(c uint32) uint32 { return threeBits(p.closed[:], c) }
