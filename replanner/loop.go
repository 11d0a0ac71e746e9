package replanner

import (
	"fmt"
	"math"
	"time"

	"github.com/golang/geo/r3"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// Loop is the robot's planning loop: poses, goals and costmap change sets
// go in, and each Tick decides what planning is due and returns the path
// to follow. It reads the voxel.Map it was built on (costs on change sets,
// line of sight for smoothing) and, like the map, belongs to one
// goroutine.
type Loop struct {
	m     *voxel.Map
	frame voxel.Frame
	cfg   Config // defaults filled in; Strategy resolved (never Auto)
	g     *lattice
	floor float64 // Ground: the z of the floor layer's voxel centres, metres

	// One planner, for cfg.Strategy.
	dstar   *planners.DStarLite
	adstar  *planners.ADStar
	astar   *planners.AStar // A*; with DPA*, what finishes a search a deadline cut off
	dpa     *planners.DPAStar
	tunnel  *tunnel
	detourA *planners.AStar // detours, with RepairBudget (detour.go)
	since   changesSince    // for DPA*: what changed since the path was last optimal

	pose    r3.Vector // metres; Ground: z on the floor layer
	hasPose bool
	goal    r3.Vector // as requested, metres; Ground: z on the floor layer
	hasGoal bool
	reached bool

	// The goal planned to and the path.
	goalCell  planners.NodeID // None before the first plan
	goalPoint r3.Vector
	path      route
	eps       float64 // the path's bound: its cost ≤ eps · optimal

	// What happened since the last finished plan.
	newGoal     bool            // SetGoal, or the goal moved to another cell
	affected    bool            // a change crossed the remaining path
	fell        bool            // some move became cheaper or appeared
	dirty       bool            // the lattice changed
	stale       bool            // the last search ran out of time
	resumable   bool            // and the lattice has not changed since: A* and the tunnel go on with a search from the goal
	unreachable bool            // the last search found no path
	lastStart   planners.NodeID // the start of the last finished plan
	searched    time.Duration   // search time since then, over the Ticks the search took
	holding     bool            // the path is held against a cheaper one (SwitchDelay); search again
	heldEps     float64         // then, the bound of the last search's path
	heldFrom    planners.NodeID // and the node that search ran from
	heldClean   bool            // and the lattice has not changed since it
	cheaperAt   time.Time       // since when searches have found a cheaper path than the one held; zero: none

	changed []planners.NodeID // Update list of one Changed call
	around  []planners.NodeID // Lattice.Around of one changed cell
	seen    []uint32          // per node: seenGen when already in changed [len = NumNodes]
	seenGen uint32
	plan    []planners.NodeID // path buffer the planners write into
	old     []planners.NodeID // the remaining path before a repair, for a detour
	spare   []planners.NodeID // a detour's path
}

// New returns a loop planning on m over cfg.Volume, with a lattice built
// from m's current costs. m must not be nil; in ground mode its robot must
// be a Cylinder (so that floor costs account for the robot's height).
func New(m *voxel.Map, cfg Config) (*Loop, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: no map", ErrConfig)
	}
	frame := m.Frame()
	cfg, err := cfg.withDefaults(frame.Resolution)
	if err != nil {
		return nil, err
	}
	if cfg.Mode == Ground && m.Config().Robot.Shape != voxel.Cylinder {
		return nil, fmt.Errorf("%w: ground mode needs the map's robot to be a Cylinder, so that floor costs check its height", ErrConfig)
	}
	box, err := cfg.latticeBox()
	if err != nil {
		return nil, err
	}
	g, err := newLattice(m, box, &cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	l := &Loop{m: m, frame: frame, cfg: cfg, g: g, goalCell: planners.None, lastStart: planners.None, eps: 1,
		floor: frame.Center(box.Min).Z, seen: make([]uint32, g.NumNodes())}
	switch cfg.Strategy {
	case DStarLite:
		l.dstar = planners.NewDStarLite(g.Lattice)
	case ADStar:
		l.adstar = planners.NewADStar(g.Lattice)
		l.adstar.Epsilon0, l.adstar.EpsilonStep = cfg.Epsilon0, cfg.EpsilonStep
	case AStar:
		l.astar = planners.NewAStar(g.Lattice)
	case DPAStar:
		l.dpa = planners.NewDPAStar(g.Lattice)
		l.astar = planners.NewAStar(g.Lattice) // finishes a search a deadline cut off
	case Tunnel:
		if l.tunnel, err = newTunnel(g, cfg.TunnelWidth, frame.Resolution, meshTile); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
	}
	return l, nil
}

// meshTile is the Tunnel strategy's mesh tile edge, voxels: an update
// rebuilds the tiles a change touches.
const meshTile = 16

// TunnelStats returns the Tunnel strategy's mesh and last search figures,
// and false with another strategy.
func (l *Loop) TunnelStats() (TunnelStats, bool) {
	if l.tunnel == nil {
		return TunnelStats{}, false
	}
	return l.tunnel.stats, true
}

// TunnelRoute appends to dst[:0] the centre line of the Tunnel strategy's
// last search, metres in the map frame (ground: on the floor layer), from
// the robot's voxel when the search began (a search cut off by the Budget
// goes on in its tunnel) to the goal's; nothing with another strategy,
// before the first search, or when the mesh had no route.
func (l *Loop) TunnelRoute(dst []r3.Vector) []r3.Vector {
	dst = dst[:0]
	if l.tunnel == nil || !l.tunnel.lined {
		return dst
	}
	f := l.frame
	for _, p := range l.tunnel.line {
		dst = append(dst, l.project(r3.Vector{
			X: f.Origin.X + (p[0]+0.5)*f.Resolution,
			Y: f.Origin.Y + (p[1]+0.5)*f.Resolution,
			Z: f.Origin.Z + (p[2]+0.5)*f.Resolution,
		}))
	}
	return dst
}

// Config returns the loop's configuration, defaults filled in and the
// strategy resolved.
func (l *Loop) Config() Config { return l.cfg }

// project returns p as the loop sees it: on the floor layer in ground
// mode.
func (l *Loop) project(p r3.Vector) r3.Vector {
	if l.cfg.Mode == Ground {
		p.Z = l.floor
	}
	return p
}

// nodeCentre returns the centre of node n's voxel as the loop sees it
// (on the floor layer in ground mode).
func (l *Loop) nodeCentre(n planners.NodeID) r3.Vector { return l.project(l.frame.Center(l.g.key(n))) }

// SetPose records the robot's position, metres in the map frame. A pose
// with a NaN or infinite coordinate is refused (ErrInput) and ignored.
func (l *Loop) SetPose(p r3.Vector) error {
	if !finite(p) {
		return fmt.Errorf("%w: pose %v is not finite", ErrInput, p)
	}
	l.pose, l.hasPose = l.project(p), true
	return nil
}

// SetGoal sets a new goal, metres in the map frame, and starts over: the
// path is dropped and Reached forgotten. A goal that is not finite
// (ErrInput) or outside the Volume (ErrOutside; ground mode: outside its
// x-y extent) is refused and the loop keeps its state.
func (l *Loop) SetGoal(p r3.Vector) error {
	if !finite(p) {
		return fmt.Errorf("%w: goal %v is not finite", ErrInput, p)
	}
	p = l.project(p)
	if k, ok := l.frame.KeyOf(p); !ok || l.g.id(k) == planners.None {
		return fmt.Errorf("%w: goal %v, volume %v..%v", ErrOutside, p, l.cfg.Volume.Min, l.cfg.Volume.Max)
	}
	l.goal, l.hasGoal, l.reached = p, true, false
	l.newGoal, l.unreachable, l.resumable = true, false, false
	l.searched = 0 // a search for the old goal does not answer this one
	l.path.clear()
	return nil
}

// Cancel drops the goal and the path: the loop is Idle.
func (l *Loop) Cancel() {
	l.hasGoal, l.reached, l.unreachable = false, false, false
	l.searched = 0
	l.path.clear()
}

// Changed takes a change set the costmap has already applied: every
// listed voxel inside the Volume, and every voxel of its Regions, is read
// from the map into the lattice; the planner is told which nodes' edges
// changed (Lattice.Around of each changed cell); and the loop notes
// whether the remaining path is affected (a change crosses one of its
// moves) or some cost fell. Voxels outside the Volume are ignored; nil or
// empty change sets are nothing.
func (l *Loop) Changed(cs *voxel.ChangeSet) {
	if cs == nil || cs.Empty() {
		return
	}
	l.changed = l.changed[:0]
	if l.seenGen++; l.seenGen == 0 {
		clear(l.seen)
		l.seenGen = 1
	}
	for _, list := range [][]voxel.Change{cs.Rose, cs.Fell} {
		for _, c := range list {
			if n := l.g.id(c.Voxel); n != planners.None {
				l.reread(n)
			}
		}
	}
	for _, r := range cs.Regions {
		b := r.Intersect(l.g.box)
		for z := b.Min.Z; z <= b.Max.Z; z++ {
			for y := b.Min.Y; y <= b.Max.Y; y++ {
				for x := b.Min.X; x <= b.Max.X; x++ {
					l.reread(l.g.id(voxel.Key{X: x, Y: y, Z: z}))
				}
			}
		}
	}
	if len(l.changed) == 0 {
		return
	}
	l.dirty, l.resumable, l.heldClean = true, false, false
	if l.tunnel != nil {
		l.tunnel.update(cs)
	}
	// A change this large is searched faster from scratch than repaired.
	reset := len(l.changed) > l.g.NumNodes()/8
	l.since.mixed = l.since.mixed || reset
	switch {
	case l.dstar != nil && reset:
		l.dstar.Reset()
	case l.dstar != nil:
		if l.dstar.Update(l.changed) != nil { // cannot happen: every id is in the lattice
			l.dstar.Reset()
		}
	case l.adstar != nil && reset:
		l.adstar.Reset()
	case l.adstar != nil:
		if l.adstar.Update(l.changed) != nil {
			l.adstar.Reset()
		}
	}
}

// reread sets node n from the map's cost and, if its edges changed, notes
// what follows and lists the nodes whose edges pass over it.
func (l *Loop) reread(n planners.NodeID) {
	changed, fell := l.g.set(n, l.m.Cost(l.g.key(n)))
	if !changed {
		return
	}
	if fell {
		l.fell = true
	}
	if l.dpa != nil {
		x, y, z := l.g.Cell(n)
		l.since.add(x, y, z, fell)
	}
	if !l.affected && l.path.crosses(l.g, n) {
		l.affected = true
	}
	l.around = l.g.Around(n, l.around[:0])
	for _, v := range l.around {
		if l.seen[v] != l.seenGen {
			l.seen[v] = l.seenGen
			l.changed = append(l.changed, v)
		}
	}
}

func finite(v r3.Vector) bool {
	for _, c := range [3]float64{v.X, v.Y, v.Z} {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
	}
	return true
}
