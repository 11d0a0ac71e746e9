package replanner

import (
	"fmt"
	"math"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
)

// Mode is how the robot moves through the voxels.
type Mode int

const (
	// Aerial plans in 3D over every voxel of Config.Volume, 26-connected:
	// the Volume's z range is the altitude limit.
	Aerial Mode = iota
	// Ground plans on one layer, Config.Volume.Min.Z (the voxel the
	// robot's base is in), 8-connected. The robot's height is checked by
	// the costmap: with a Cylinder robot a floor voxel is inflated by every
	// obstacle between the base and the top of the robot.
	Ground
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case Aerial:
		return "aerial"
	case Ground:
		return "ground"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Strategy is the search the loop repairs its path with.
type Strategy int

const (
	// Auto is D* Lite, or AD* when Config.Budget is set.
	Auto Strategy = iota
	// DStarLite repairs an optimal path from change sets and follows the
	// robot as a moving start (planners.DStarLite).
	DStarLite
	// ADStar publishes an ε-suboptimal path within the Budget and improves
	// it on later ticks, repairing after changes (planners.ADStar).
	ADStar
	// AStar plans from scratch whenever a plan is needed
	// (planners.AStar): the baseline to compare the others with.
	AStar
	// DPAStar re-plans after changes with Dynamically Pruned A*
	// (planners.DPAStar): an A* search pruned by the old path and the
	// box the changes since it fall in, exact like A*. It keeps no search
	// between Ticks: under a Budget, A* from the goal finishes a search
	// the Budget cut off (see Budget).
	DPAStar
	// Tunnel plans on a navigation mesh of the lattice's passable cells
	// (costmap/navmesh, kept in step with the change sets tile by tile),
	// then runs A* on the lattice confined to the cells within
	// Config.TunnelWidth of the straightened mesh route (Kapadia et al.'s
	// multi-domain tunnel); when the tunnel holds no path its width
	// doubles, up to the whole lattice. Every search starts afresh after
	// a change; one a deadline cut off goes on at the next Tick (see
	// Budget). Its paths are legal but not always optimal
	// (Output.Epsilon +Inf) unless the search took the whole lattice.
	Tunnel
)

// String names the strategy.
func (s Strategy) String() string {
	switch s {
	case Auto:
		return "auto"
	case DStarLite:
		return "D* Lite"
	case ADStar:
		return "AD*"
	case AStar:
		return "A*"
	case DPAStar:
		return "DPA*"
	case Tunnel:
		return "tunnel"
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// Status is what the loop can say about the robot's way to its goal.
type Status int

const (
	// Idle: no goal (none set yet, or cancelled).
	Idle Status = iota
	// Planning: a goal is set but no path is out yet: no pose has come,
	// or the search did not finish within the tick's time.
	Planning
	// Following: a path to the goal is published.
	Following
	// Blocked: the robot's voxel is not passable and no passable voxel is
	// within Config.StartTolerance (or the robot is that far outside the
	// Volume). No path.
	Blocked
	// Unreachable: no passable voxel within Config.GoalTolerance of the
	// goal, or no path to it. The loop tries again after the costmap
	// changes or the robot moves.
	Unreachable
	// Reached: the robot came within Config.ReachedTolerance of the goal.
	// It stays so until the next SetGoal or Cancel.
	Reached
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Idle:
		return "idle"
	case Planning:
		return "planning"
	case Following:
		return "following"
	case Blocked:
		return "blocked"
	case Unreachable:
		return "unreachable"
	case Reached:
		return "reached"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Config sets up a Loop. The zero values of the numeric fields select the
// defaults given with each.
type Config struct {
	Mode     Mode
	Strategy Strategy
	// Volume is the box of voxels the planning lattice covers, both
	// corners included. Ground: only the layer Volume.Min.Z is used (the
	// floor layer: the voxel the robot's base is in). At most MaxCells
	// cells.
	Volume voxel.Box
	// Budget is the planning time per Tick (0: none, plan to the end).
	// Planners check their deadline every 1024 expansions, the first time
	// before expanding anything; that first check is not held to the
	// Budget, so every Tick expands at least 1024 nodes and a budget
	// shorter than a planner's set-up still makes progress. Under a
	// deadline (a Budget, or one on the context Tick is given), A* and the
	// Tunnel search from the goal and go on at the next Tick with a search
	// the deadline cut off, as long as the lattice has not changed (the
	// robot may move), so their searches end however short the Budget;
	// so does DPA*'s, which that A* finishes.
	Budget time.Duration
	// RepairBudget, for D* Lite without a Budget (under one it does
	// nothing: the Budget bounds every Tick), bounds the search of a
	// Tick after a change that crossed the remaining path (0: none). When
	// the repair runs out of it and the old path is no longer legal, the
	// Tick publishes a detour instead: weighted A* (w = 2) on the lattice
	// from a few nodes before the blocked part round it to the old path
	// beyond it (the rest of the old path is kept), with Epsilon +Inf;
	// the detour's search gets up to RepairBudget again. Later Ticks
	// finish the repair, RepairBudget at a time, and then publish the
	// optimal path. It bounds how long a robot waits for a path that
	// avoids a new obstacle (to about twice RepairBudget).
	RepairBudget time.Duration
	// SwitchDelay holds the robot to its path when costs fall away from
	// it (an obstacle beside the route cleared) and a search finds a
	// cheaper path while the current one stays legal: the cheaper path
	// replaces it only once the searches have kept finding one for this
	// long (0: at once). Meanwhile each Tick searches again, keeps the
	// current path (Output.Held) and bounds it in Output.Epsilon (its cost
	// over the new optimum). A passage that sensor noise opens and closes from one
	// scan to the next then does not swing the robot between two routes.
	// A change across the path, a new goal and the robot off its path are
	// answered at once, and a path no dearer than the new optimum is kept
	// (settled, Epsilon 1 when both are optimal).
	SwitchDelay time.Duration
	// Now is the clock SwitchDelay runs on (nil: time.Now).
	Now func() time.Time
	// Epsilon0 and EpsilonStep are AD*'s schedule: the first inflation
	// (≥ 1, default 2.5) and how much ε falls per improvement (> 0,
	// default 0.5).
	Epsilon0, EpsilonStep float64
	// MaxCost is the highest passable cost, ≤ 254 (0 means 252: Inscribed
	// and Lethal block).
	MaxCost voxel.Cost
	// UnknownIsFree makes Unknown (255) voxels passable, weighing as if
	// they cost UnknownCost; otherwise they block.
	UnknownIsFree bool
	// UnknownCost, 0 to 252, is the cost an Unknown voxel weighs as with
	// UnknownIsFree (navnode's parameter unknown_cost, 252 by default).
	// 0 plans through unobserved space as through free space. Above 0
	// paths keep to observed free space where they can (Nav2's planners
	// weigh unknown cells near 252), but every search through unobserved
	// space spreads wider: the heuristic may count on a weight of 1 only,
	// so where most of the volume is unobserved, as for a drone setting
	// out, it sees half the real cost at 252 and A* expands the nodes of
	// an ellipsoid round the route instead of the route (a 16 m first
	// plan across an unobserved 20 × 20 × 4 m volume at 0.1 m: 160
	// expansions at 0, 455,513 at 252).
	UnknownCost float64
	// CostWeight sets a passable voxel's lattice weight to 1 +
	// CostWeight·cost/252: moves cost their length in voxels times the
	// average weight of their two ends. 0 means 1; a negative value means
	// 0 (every passable voxel weighs 1, costs only decide passability).
	CostWeight float64
	// GoalTolerance, metres: a goal whose voxel is not passable moves to
	// the nearest passable voxel within it (0: the goal never moves).
	GoalTolerance float64
	// ReachedTolerance, metres: the robot within it of the goal has
	// Reached it (Ground: distance in the x-y plane). 0 means the map's
	// resolution.
	ReachedTolerance float64
	// StartTolerance, metres: a robot whose voxel is not passable (inside
	// an inflated obstacle) plans from the nearest passable voxel within
	// it; with none it is Blocked. 0 means 1 m.
	StartTolerance float64
	// TunnelWidth, metres, for the Tunnel strategy: a cell whose centre
	// lies within it of the mesh route's centre line is in the tunnel. 0
	// means five voxels.
	TunnelWidth float64
}

// MaxCells bounds a planning lattice: with the incremental planners'
// state a cell takes about 50 bytes.
const MaxCells = 1 << 26

// MaxToleranceVoxels bounds GoalTolerance and StartTolerance in voxels:
// the radius of a search for the nearest passable voxel
// (voxel.Map.NearestFree's bound).
const MaxToleranceVoxels = 250

// withDefaults fills the defaults in and checks what remains; res is the
// map's resolution.
func (c Config) withDefaults(res float64) (Config, error) {
	if c.Epsilon0 == 0 {
		c.Epsilon0 = 2.5
	}
	if c.EpsilonStep == 0 {
		c.EpsilonStep = 0.5
	}
	if c.MaxCost == 0 {
		c.MaxCost = 252
	}
	switch {
	case c.CostWeight == 0:
		c.CostWeight = 1
	case c.CostWeight < 0:
		c.CostWeight = 0
	}
	if c.ReachedTolerance == 0 {
		c.ReachedTolerance = res
	}
	if c.StartTolerance == 0 {
		c.StartTolerance = 1
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.TunnelWidth == 0 {
		c.TunnelWidth = 5 * res
	}
	if c.Strategy == Auto {
		c.Strategy = DStarLite
		if c.Budget > 0 {
			c.Strategy = ADStar
		}
	}
	switch {
	case c.Mode != Aerial && c.Mode != Ground:
		return c, fmt.Errorf("%w: unknown mode %d", ErrConfig, c.Mode)
	case c.Strategy < DStarLite || c.Strategy > Tunnel:
		return c, fmt.Errorf("%w: unknown strategy %d", ErrConfig, c.Strategy)
	case c.Budget < 0:
		return c, fmt.Errorf("%w: negative budget %v", ErrConfig, c.Budget)
	case c.RepairBudget < 0:
		return c, fmt.Errorf("%w: negative repair budget %v", ErrConfig, c.RepairBudget)
	case c.SwitchDelay < 0:
		return c, fmt.Errorf("%w: negative switch delay %v", ErrConfig, c.SwitchDelay)
	case !(c.Epsilon0 >= 1) || math.IsInf(c.Epsilon0, 0):
		return c, fmt.Errorf("%w: AD* ε₀ %v: want finite and ≥ 1", ErrConfig, c.Epsilon0)
	case !(c.EpsilonStep > 0) || math.IsInf(c.EpsilonStep, 0):
		return c, fmt.Errorf("%w: AD* ε step %v: want finite and > 0", ErrConfig, c.EpsilonStep)
	case c.MaxCost >= voxel.Unknown:
		return c, fmt.Errorf("%w: max cost %d: want ≤ %d (UnknownIsFree passes unknown voxels)", ErrConfig, c.MaxCost, voxel.Lethal)
	case math.IsNaN(c.CostWeight) || math.IsInf(c.CostWeight, 0) || c.CostWeight > 1e6:
		return c, fmt.Errorf("%w: cost weight %v", ErrConfig, c.CostWeight)
	case !(c.UnknownCost >= 0 && c.UnknownCost <= float64(voxel.Inscribed-1)):
		return c, fmt.Errorf("%w: unknown cost %v: want 0 to %d", ErrConfig, c.UnknownCost, voxel.Inscribed-1)
	}
	for _, t := range []struct {
		name     string
		v        float64
		searched bool // a radius of the search for the nearest passable voxel
	}{{"goal", c.GoalTolerance, true}, {"reached", c.ReachedTolerance, false}, {"start", c.StartTolerance, true}, {"tunnel width", c.TunnelWidth, false}} {
		switch {
		case !(t.v >= 0) || math.IsInf(t.v, 0):
			return c, fmt.Errorf("%w: %s tolerance %v m: want finite and ≥ 0", ErrConfig, t.name, t.v)
		case t.searched && t.v > MaxToleranceVoxels*res:
			// It would be searched only this far: refused rather than
			// cut short without a word.
			return c, fmt.Errorf("%w: %s tolerance %v m is more than %d voxels of %v m", ErrConfig, t.name, t.v, MaxToleranceVoxels, res)
		}
	}
	return c, nil
}

// latticeBox returns the box of voxels the lattice covers: Volume, or its
// floor layer in ground mode.
func (c *Config) latticeBox() (voxel.Box, error) {
	b := c.Volume
	if c.Mode == Ground {
		b.Max.Z = b.Min.Z
	}
	lim := int32(voxel.MaxCoord)
	for _, k := range []voxel.Key{b.Min, b.Max} {
		if k.X < -lim || k.X > lim || k.Y < -lim || k.Y > lim || k.Z < -lim || k.Z > lim {
			return b, fmt.Errorf("%w: volume corner %v is outside the map's world", ErrConfig, k)
		}
	}
	if b.Empty() || b.Volume() > MaxCells {
		return b, fmt.Errorf("%w: volume %v..%v holds %d cells: want 1 to %d", ErrConfig, b.Min, b.Max, b.Volume(), MaxCells)
	}
	return b, nil
}
