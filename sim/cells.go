package sim

import (
	"math"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/voxel"
)

// columns is an occupancy grid extruded to walls: every cell at
// occupancy 100 (Nav2's lethal value, what navnode's static layer takes
// for an obstacle) is a wall from zmin to zmax. Other cells, unknown ones
// included, are free: the simulated sensors see only the walls.
type columns struct {
	origin     r3.Vector // map-frame position of cell (0, 0)'s outer corner
	cos, sin   float64   // of the grid's yaw
	res        float64   // cell edge, metres
	w, h       int32     // cells
	wall       bitset    // [len = w·h], x fastest
	below      []int32   // [len = (w+1)·(h+1)]: walls in [0, x) × [0, y) at x + y·(w+1)
	zmin, zmax float64   // metres
}

func newColumns(g *voxel.Grid, zmin, zmax float64) *columns {
	c := &columns{origin: g.Origin, cos: math.Cos(g.Yaw), sin: math.Sin(g.Yaw), res: g.Resolution,
		w: int32(g.Width), h: int32(g.Height), wall: newBitset(g.Width * g.Height), zmin: zmin, zmax: zmax}
	c.origin.Z = 0
	for i, v := range g.Cells {
		if v >= 100 {
			c.wall.set(i)
		}
	}
	c.countWalls()
	return c
}

// countWalls fills below, a summed-area table of the walls: most bodies
// touch none, and anyWall tells so at four reads.
func (c *columns) countWalls() {
	stride := c.w + 1
	c.below = make([]int32, int(stride)*int(c.h+1))
	for y := range c.h {
		row := int32(0)
		for x := range c.w {
			if c.wall.get(int(x + y*c.w)) {
				row++
			}
			c.below[(x+1)+(y+1)*stride] = c.below[(x+1)+y*stride] + row
		}
	}
}

// anyWall reports whether a cell of [x0, x1] × [y0, y1] is a wall; the
// range must lie in the grid.
func (c *columns) anyWall(x0, y0, x1, y1 int32) bool {
	stride := c.w + 1
	at := func(x, y int32) int32 { return c.below[x+y*stride] }
	return at(x1+1, y1+1)-at(x0, y1+1)-at(x1+1, y0)+at(x0, y0) > 0
}

// local returns p in the grid's frame: cell (x, y) spans [x·res, (x+1)·res)
// × [y·res, (y+1)·res).
func (c *columns) local(p r3.Vector) r3.Vector {
	d := p.Sub(c.origin)
	return r3.Vector{X: c.cos*d.X + c.sin*d.Y, Y: -c.sin*d.X + c.cos*d.Y, Z: p.Z}
}

func (c *columns) isWall(x, y int32) bool {
	return x >= 0 && y >= 0 && x < c.w && y < c.h && c.wall.get(int(x+y*c.w))
}

// cell returns the box of wall cell (x, y) in the grid's frame.
func (c *columns) cell(x, y int32) (lo, hi r3.Vector) {
	lo = r3.Vector{X: float64(x) * c.res, Y: float64(y) * c.res, Z: c.zmin}
	return lo, r3.Vector{X: lo.X + c.res, Y: lo.Y + c.res, Z: c.zmax}
}

// raycast walks the cells under the ray's shadow on the floor in order (a
// 2D DDA, voxel.Frame.Ray) and returns where the ray enters the first
// wall it meets within its height.
func (c *columns) raycast(o, d r3.Vector, tmax float64) (float64, bool) {
	lo3, dl := c.local(o), r3.Vector{X: c.cos*d.X + c.sin*d.Y, Y: -c.sin*d.X + c.cos*d.Y, Z: d.Z}
	// Only the part of the ray within the walls' height can hit one.
	t0, t1 := 0.0, tmax
	if !clipSlab(lo3.Z, dl.Z, c.zmin, c.zmax, &t0, &t1) {
		return 0, false
	}
	a, b := lo3.Add(dl.Mul(t0)), lo3.Add(dl.Mul(t1))
	a.Z, b.Z = 0, 0
	hit, found := 0.0, false
	f := voxel.Frame{Resolution: c.res}
	f.Ray(a, b, func(k voxel.Key) bool {
		if !c.isWall(k.X, k.Y) {
			u := besideExit(f, k, a, b, 2, func(k voxel.Key) bool { return c.isWall(k.X, k.Y) })
			hit, found = t0+u*(t1-t0), u >= 0
			return !found
		}
		lo, hi := c.cell(k.X, k.Y)
		hit, found = slab(lo3, dl, lo, hi, tmax)
		return !found
	})
	return hit, found
}

// besideExit looks at where the segment from a to b leaves voxel k of
// frame f, on its first dims axes. Where it leaves through an edge or a
// corner, Frame.Ray steps to the voxel across it and skips the others
// that share that edge or corner with k, which the segment touches there:
// a beam would slip between two walls that meet at a corner. besideExit
// returns the fraction of the way from a to b where the segment leaves k
// if one of those voxels is blocked, else −1.
func besideExit(f voxel.Frame, k voxel.Key, a, b r3.Vector, dims int, blocked func(voxel.Key) bool) float64 {
	const tie = 1e-9 // voxels along the segment
	pa, pb := a.Sub(f.Origin).Mul(1/f.Resolution), b.Sub(f.Origin).Mul(1/f.Resolution)
	at, d := [3]float64{pa.X, pa.Y, pa.Z}, [3]float64{pb.X - pa.X, pb.Y - pa.Y, pb.Z - pa.Z}
	cell := [3]int32{k.X, k.Y, k.Z}
	var u [3]float64
	exit := math.Inf(1)
	for i := range dims {
		u[i] = math.Inf(1)
		switch {
		case d[i] > 0:
			u[i] = (float64(cell[i]+1) - at[i]) / d[i]
		case d[i] < 0:
			u[i] = (float64(cell[i]) - at[i]) / d[i]
		}
		exit = min(exit, u[i])
	}
	if exit > 1 {
		return -1 // the segment ends in k
	}
	length := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	var step [3]int32 // by axis: where the segment leaves through that face, ±1
	crossed := 0      // bit i: it leaves through a face across axis i
	for i := range dims {
		if (u[i]-exit)*length <= tie {
			step[i] = 1
			if d[i] < 0 {
				step[i] = -1
			}
			crossed |= 1 << i
		}
	}
	// Every voxel k + the steps of some of the crossed axes, but not none
	// and not all (the walk's next voxel): none when only one is crossed.
	for sub := (crossed - 1) & crossed; sub > 0; sub = (sub - 1) & crossed {
		n := k
		for i, p := range [3]*int32{&n.X, &n.Y, &n.Z} {
			if sub&(1<<i) != 0 {
				*p += step[i]
			}
		}
		if blocked(n) {
			return max(exit, 0)
		}
	}
	return -1
}

// touches reports whether body b at pos touches a wall.
func (c *columns) touches(b Body, pos r3.Vector) bool {
	p := c.local(pos)
	lo, hi := b.reach()
	if p.Z-lo.Z > c.zmax || p.Z+hi.Z < c.zmin {
		return false
	}
	x0, x1 := int32(math.Floor((p.X-b.Radius)/c.res)), int32(math.Floor((p.X+b.Radius)/c.res))
	y0, y1 := int32(math.Floor((p.Y-b.Radius)/c.res)), int32(math.Floor((p.Y+b.Radius)/c.res))
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, c.w-1), min(y1, c.h-1)
	if x0 > x1 || y0 > y1 || !c.anyWall(x0, y0, x1, y1) {
		return false
	}
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if c.isWall(x, y) {
				if lo, hi := c.cell(x, y); b.touchesBox(p, lo, hi) {
					return true
				}
			}
		}
	}
	return false
}

// voxels is a 3D occupancy map (a Moving AI .3dmap): voxel (x, y, z)
// spans origin + [x, x+1)·res × [y, y+1)·res × [z, z+1)·res.
type voxels struct {
	frame   voxel.Frame
	w, h, d int32
	blocked bitset // [len = w·h·d], x fastest
}

func newVoxels(s *voxel.StaticVoxels, origin r3.Vector, res float64) *voxels {
	v := &voxels{frame: voxel.Frame{Origin: origin, Resolution: res},
		w: s.Box.Max.X + 1, h: s.Box.Max.Y + 1, d: s.Box.Max.Z + 1}
	v.blocked = newBitset(int(v.w) * int(v.h) * int(v.d))
	for _, k := range s.Blocked {
		v.blocked.set(v.index(k))
	}
	return v
}

func (v *voxels) index(k voxel.Key) int { return int(k.X) + int(v.w)*(int(k.Y)+int(v.h)*int(k.Z)) }

func (v *voxels) isBlocked(k voxel.Key) bool {
	return k.X >= 0 && k.Y >= 0 && k.Z >= 0 && k.X < v.w && k.Y < v.h && k.Z < v.d && v.blocked.get(v.index(k))
}

// raycast walks the voxels the ray crosses in order (voxel.Frame.Ray)
// and returns where it enters the first blocked one.
func (v *voxels) raycast(o, d r3.Vector, tmax float64) (float64, bool) {
	hit, found := 0.0, false
	end := o.Add(d.Mul(tmax))
	v.frame.Ray(o, end, func(k voxel.Key) bool {
		if !v.isBlocked(k) {
			u := besideExit(v.frame, k, o, end, 3, v.isBlocked)
			hit, found = u*tmax, u >= 0
			return !found
		}
		lo := v.frame.Corner(k)
		r := v.frame.Resolution
		hit, found = slab(o, d, lo, lo.Add(r3.Vector{X: r, Y: r, Z: r}), tmax)
		return !found
	})
	return hit, found
}

// touches reports whether body b at pos touches a blocked voxel.
func (v *voxels) touches(b Body, pos r3.Vector) bool {
	bb := b.bounds(pos)
	lo, ok1 := v.frame.KeyOf(bb.Min)
	hi, ok2 := v.frame.KeyOf(bb.Max)
	if !ok1 || !ok2 {
		return false
	}
	lo = voxel.Key{X: max(lo.X, 0), Y: max(lo.Y, 0), Z: max(lo.Z, 0)}
	hi = voxel.Key{X: min(hi.X, v.w-1), Y: min(hi.Y, v.h-1), Z: min(hi.Z, v.d-1)}
	r := v.frame.Resolution
	for z := lo.Z; z <= hi.Z; z++ {
		for y := lo.Y; y <= hi.Y; y++ {
			for x := lo.X; x <= hi.X; x++ {
				k := voxel.Key{X: x, Y: y, Z: z}
				if !v.blocked.get(v.index(k)) {
					continue
				}
				c := v.frame.Corner(k)
				if b.touchesBox(pos, c, c.Add(r3.Vector{X: r, Y: r, Z: r})) {
					return true
				}
			}
		}
	}
	return false
}

// bitset is a fixed set of small integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int)      { b[i>>6] |= 1 << (i & 63) }
func (b bitset) get(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
