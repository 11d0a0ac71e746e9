package navmesh

import (
	"errors"
	"fmt"

	"github.com/navnode/navnode/costmap/voxel"
)

// ErrConfig is a Config no mesh can have.
var ErrConfig = errors.New("navmesh: invalid configuration")

// Mode is the kind of robot the mesh is for.
type Mode uint8

const (
	// Ground: a robot that stands on surfaces (2.5D). A cell is walkable
	// when its voxel is passable, the voxel below it is occupied (or it is
	// on Config.Bounds' bottom layer with ImplicitFloor), and the Headroom
	// voxels from it upwards are not occupied. Regions are rectangles of
	// walkable cells on one level; neighbouring cells connect when their
	// levels differ by at most MaxStep.
	Ground Mode = iota
	// Aerial: a robot that flies. Every passable voxel is a cell; regions
	// are boxes of them.
	Aerial
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case Ground:
		return "ground"
	case Aerial:
		return "aerial"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Config sets up a Mesh.
type Config struct {
	Mode Mode
	// Bounds are the voxels the mesh covers, inclusive. Ground tiles are
	// whole columns of it; aerial tiles are cubes.
	Bounds voxel.Box
	// Tile is a tile's edge, voxels (x and y; z too for Aerial). Regions
	// never cross tiles, and an update rebuilds whole tiles. 0 means 16.
	Tile int32
	// MaxCost is the highest passable cost. 0 means 252: everything but
	// Inscribed, Lethal and Unknown.
	MaxCost voxel.Cost
	// Bands split passable costs into this many equal ranges, 1..16;
	// a region holds cells of one band and costs Weight per unit length,
	// from the band's highest cost. 0 means 1 (one band, weight 1).
	Bands int
	// Penalty scales band weights: Weight = 1 + Penalty·(band's highest
	// cost)/252. 0: every region has weight 1.
	Penalty float64

	// Ground only.
	Headroom      int32 // voxels from the base upwards that must not be occupied (the robot's height); 0 means 1
	MaxStep       int32 // voxels two neighbouring cells' levels may differ by (a ramp's climb per cell); 0 means none
	ImplicitFloor bool  // cells on Bounds.Min.Z stand on an implicit floor (maps extruded from 2D grids)
}

// maxTileVoxels bounds a tile's size so that per-tile scratch stays small.
const maxTileVoxels = 1 << 22

func (c *Config) setDefaults() {
	if c.Tile == 0 {
		c.Tile = 16
	}
	if c.MaxCost == 0 {
		c.MaxCost = 252
	}
	if c.Bands == 0 {
		c.Bands = 1
	}
	if c.Headroom == 0 {
		c.Headroom = 1
	}
}

func (c *Config) validate() error {
	b := c.Bounds
	switch {
	case c.Mode != Ground && c.Mode != Aerial:
		return fmt.Errorf("%w: unknown mode %d", ErrConfig, c.Mode)
	case b.Empty():
		return fmt.Errorf("%w: empty bounds %v", ErrConfig, b)
	case c.Tile < 2 || c.Tile > 256:
		return fmt.Errorf("%w: tile edge %d voxels: want 2..256", ErrConfig, c.Tile)
	case c.MaxCost >= voxel.Lethal:
		return fmt.Errorf("%w: MaxCost %d would make obstacles passable", ErrConfig, c.MaxCost)
	case c.Bands < 1 || c.Bands > 16:
		return fmt.Errorf("%w: %d cost bands: want 1..16", ErrConfig, c.Bands)
	case !(c.Penalty >= 0 && c.Penalty <= 1e6):
		return fmt.Errorf("%w: penalty %v: want 0..1e6", ErrConfig, c.Penalty)
	case c.Headroom < 1 || c.Headroom > 1024 || c.MaxStep < 0 || c.MaxStep > 1024:
		return fmt.Errorf("%w: headroom %d, max step %d voxels", ErrConfig, c.Headroom, c.MaxStep)
	}
	n := int64(c.Tile) * int64(c.Tile)
	if c.Mode == Aerial {
		n *= int64(c.Tile)
	} else {
		n *= int64(b.Max.Z) - int64(b.Min.Z) + 1
	}
	if n > maxTileVoxels {
		return fmt.Errorf("%w: a tile of %d voxels is more than %d", ErrConfig, n, maxTileVoxels)
	}
	return nil
}

// band returns the band of a passable cost.
func (c *Config) band(cost voxel.Cost) uint8 {
	return uint8(int(cost) * c.Bands / (int(c.MaxCost) + 1))
}

// weight returns the cost per unit length in band b.
func (c *Config) weight(b uint8) float64 {
	hi := ((int(b)+1)*(int(c.MaxCost)+1)+c.Bands-1)/c.Bands - 1 // the band's highest cost
	return 1 + c.Penalty*float64(hi)/252
}
