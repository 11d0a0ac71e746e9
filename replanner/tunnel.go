package replanner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/planners"
)

// tunnel is the Tunnel strategy's state: a navigation mesh of the
// lattice's passable cells, kept in step with it from the change sets,
// and the searches that plan on it. A search plans a coarse route over
// the mesh's portals, straightens it, and runs A* on the lattice confined
// to the cells within a width of that line (Kapadia et al.'s tunnel); when
// the tunnel holds no path the width doubles, up to the whole lattice.
type tunnel struct {
	g      *lattice
	cfg    navmesh.Config
	mesh   *navmesh.Mesh
	delta  navmesh.Delta
	width  float64 // the first width tried, cells
	res    float64 // metres per cell
	widest float64 // a width that holds the whole lattice

	portals *navmesh.PortalGraph // kept in step with mesh; nil until the first search
	coarse  *planners.AStar      // on portals
	mask    *planners.Masked     // the lattice, confined to cells
	fine    *planners.AStar      // on mask
	whole   *planners.AStar      // on the lattice: the last resort, exact
	cells   []planners.NodeID    // the nodes set in mask.Allowed
	line    [][3]float64         // the tunnel's centre line, in voxel keys (a voxel's centre at its key)
	lined   bool                 // line is the last search's: it found a mesh route
	route   []planners.NodeID    // the coarse path
	regions []planners.NodeID    // the regions it crosses
	cut     tunnelCut            // the search the deadline cut off

	stats TunnelStats
}

// tunnelCut is where the deadline cut a search off: its goal (None: no
// search was cut off), and either the mesh route's search (route), begun
// with the robot in cell start, or the voxel search in the tunnel of
// width cells (+Inf: the whole lattice).
type tunnelCut struct {
	goal  planners.NodeID
	route bool
	start planners.NodeID
	width float64
}

// TunnelStats is what the Tunnel strategy reports of its mesh and its
// last search.
type TunnelStats struct {
	Regions     int           // live regions of the mesh
	MeshUpdate  time.Duration // the last change set's mesh update (or rebuild)
	Tiles       int           // tiles that update rebuilt
	Rebuilds    int           // times the mesh was built afresh to drop regions no longer live
	Width       float64       // the width, metres, the last search found its path in; +Inf: the whole lattice
	Retries     int           // times the last search doubled the width (over every Tick it took)
	CoarseNodes int           // portal-graph expansions of the last search's route (over every Tick it took)
}

// coarseWeight inflates the heuristic of the coarse route's A* on the
// portal graph: in BenchmarkTunnel, 1.2 made the whole search about
// twice as fast as 1 (18.0 ms an event against 35.4) for paths nearly as
// good (5.3% over the optimum on average, against 5.1%).
const coarseWeight = 1.2

// maxStaleRegions bounds the ids of regions an update replaced: the mesh
// keeps them (its ids are never reused), and when they outnumber the live
// ones and this bound, the mesh is built afresh.
const maxStaleRegions = 1 << 14

// latticeCells is the lattice as the mesh's Source: its passable cells
// are free, the rest and what lies outside it lethal.
type latticeCells struct{ g *lattice }

func (s latticeCells) Cost(k voxel.Key) voxel.Cost {
	if n := s.g.id(k); n != planners.None && s.g.Passable(n) {
		return voxel.Free
	}
	return voxel.Lethal
}

// newTunnel builds the mesh over g's box, tile edge tile cells, with a
// first tunnel width of width metres, res metres a cell.
func newTunnel(g *lattice, width, res float64, tile int32) (*tunnel, error) {
	cfg := navmesh.Config{Mode: navmesh.Aerial, Bounds: g.box, Tile: tile}
	began := time.Now()
	mesh, err := navmesh.New(latticeCells{g}, cfg)
	if err != nil {
		return nil, fmt.Errorf("navigation mesh: %w", err)
	}
	t := &tunnel{g: g, cfg: cfg, mesh: mesh, width: width / res, res: res, cut: tunnelCut{goal: planners.None}}
	t.stats.MeshUpdate, t.stats.Regions = time.Since(began), mesh.NumRegions()
	t.widest = math.Sqrt(float64(g.W)*float64(g.W)+float64(g.H)*float64(g.H)+float64(g.D)*float64(g.D)) + 1
	t.mask = planners.NewMasked(g.Lattice, make([]uint64, (g.NumNodes()+63)/64))
	t.fine, t.whole = planners.NewAStar(t.mask), planners.NewAStar(g.Lattice)
	return t, nil
}

// update brings the mesh in step with the lattice after change set cs.
func (t *tunnel) update(cs *voxel.ChangeSet) {
	began := time.Now()
	if stale := t.mesh.NumNodes() - t.mesh.NumRegions(); stale > maxStaleRegions && stale > t.mesh.NumRegions() {
		if m, err := navmesh.New(latticeCells{t.g}, t.cfg); err == nil { // cannot fail: the config built the first
			t.mesh, t.portals, t.coarse = m, nil, nil
			t.stats.Rebuilds++
			t.stats.Tiles = 0
		}
	} else {
		t.mesh.Refresh(cs, &t.delta)
		if t.portals != nil {
			t.portals.Update(t.mesh, &t.delta)
		}
		t.stats.Tiles = t.delta.Tiles
	}
	t.stats.MeshUpdate, t.stats.Regions = time.Since(began), t.mesh.NumRegions()
}

// search plans from start to goal: in the tunnel round the mesh route,
// widened until it holds a path, or on the whole lattice when the mesh
// finds no route. Its path is legal but not always optimal. Under a
// deadline each voxel search runs from the goal (see fresh). With resume
// set (the lattice unchanged since the last search, which the deadline
// cut off, toward the same goal), it goes on where it was cut off: in the
// voxel search of its tunnel while the robot's cell is still in it; in
// the route's search while the robot is still in the same cell; when the
// robot has moved since the route's search was cut off, on the whole
// lattice, whose search goes on wherever the robot goes. So every search
// ends, however short the Budget.
func (t *tunnel) search(ctx context.Context, start, goal planners.NodeID, dst []planners.NodeID, resume bool) (planners.Result, error) {
	cut := t.cut
	t.cut = tunnelCut{goal: planners.None}
	goOn := resume && cut.goal == goal
	var total planners.Stats
	w := cut.width
	switch {
	case goOn && !cut.route && (w >= t.widest || t.mask.Passable(start)):
		// The voxel search in its tunnel.
	case goOn && cut.route && cut.start != start:
		w, resume, t.lined = math.Inf(1), false, false
	default:
		ok, err := t.centreLine(ctx, start, goal, goOn && cut.route, &total)
		t.lined = ok
		if err != nil {
			if errors.Is(err, planners.ErrTimeout) {
				t.cut = tunnelCut{goal: goal, route: true, start: start}
			}
			return planners.Result{Stats: total}, err
		}
		if w, resume = t.width, false; !ok {
			w = math.Inf(1)
		}
	}
	for ; w < t.widest; w = max(2*w, minTunnelWidth) {
		if !resume {
			t.confine(w)
		}
		renew(ctx)
		res, err := fresh(ctx, t.fine, start, goal, dst, resume)
		resume = false
		total = addStats(total, res.Stats)
		if !errors.Is(err, planners.ErrNoPath) {
			res.Stats = total
			switch {
			case err == nil:
				t.stats.Width = w * t.res
				res.Stats.Epsilon = t.bound(start, goal, res.Cost)
			case errors.Is(err, planners.ErrTimeout):
				t.cut = tunnelCut{goal: goal, width: w}
			}
			return res, err
		}
		t.stats.Retries++
	}
	renew(ctx)
	res, err := fresh(ctx, t.whole, start, goal, dst, resume)
	res.Stats = addStats(total, res.Stats)
	switch {
	case err == nil:
		t.stats.Width = math.Inf(1)
	case errors.Is(err, planners.ErrTimeout):
		t.cut = tunnelCut{goal: goal, width: math.Inf(1)}
	}
	return res, err
}

// minTunnelWidth, cells, is the least width a tunnel widens to: from a
// width that rounds to nothing, doubling would never get anywhere.
const minTunnelWidth = 0.5

// bound is the ε of a tunnel path from start to goal of cost c: optimal
// in the tunnel only, so unknown (+Inf), unless c is the heuristic's
// lower bound (a straight run, or start = goal), which makes it optimal.
func (t *tunnel) bound(start, goal planners.NodeID, c float64) float64 {
	if c <= t.g.Heuristic(start, goal)*(1+1e-12) {
		return 1
	}
	return math.Inf(1)
}

// centreLine sets t.line to the straightened mesh route from start to
// goal; false when the mesh has no route (then the search takes the whole
// lattice, which settles whether there is a path). With goOn it goes on
// with the route's search the deadline cut off, from the same start. It
// adds its search's figures to stats.
func (t *tunnel) centreLine(ctx context.Context, start, goal planners.NodeID, goOn bool, stats *planners.Stats) (bool, error) {
	sk, gk := t.g.key(start), t.g.key(goal)
	sp, gp := cellPoint(sk), cellPoint(gk)
	var r planners.Result
	var err error
	if goOn {
		r, err = t.coarse.Resume(ctx, t.portals.Goal(), t.route)
	} else {
		t.stats.Retries, t.stats.CoarseNodes = 0, 0
		sr, gr := t.mesh.Locate(sk), t.mesh.Locate(gk)
		if sr == planners.None || gr == planners.None {
			return false, nil // cannot happen: the mesh covers every passable cell
		}
		if t.portals == nil {
			t.portals = navmesh.NewPortalGraph(t.mesh)
			t.coarse = planners.NewAStar(t.portals)
			t.coarse.Weight = coarseWeight
		}
		t.portals.SetQuery(sp, gp, sr, gr)
		r, err = t.coarse.Plan(ctx, t.portals.Start(), t.portals.Goal(), t.route)
	}
	t.route = r.Path[:0]
	t.stats.CoarseNodes += r.Stats.Expansions
	*stats = addStats(*stats, r.Stats)
	switch {
	case errors.Is(err, planners.ErrNoPath):
		return false, nil
	case err != nil:
		return false, err
	}
	t.regions = t.portals.Regions(r.Path, t.regions)
	if t.line, err = t.mesh.StraightPath(sp, gp, t.regions, t.line); err != nil {
		t.line = t.mesh.RoutePolyline(sp, gp, t.regions, t.line) // cannot happen: a fresh route
	}
	return true, nil
}

// confine makes the mask the cells within w cells of t.line.
func (t *tunnel) confine(w float64) {
	allowed := t.mask.Allowed
	for _, n := range t.cells {
		allowed[n>>6] = 0
	}
	t.cells = t.cells[:0]
	navmesh.Tunnel(t.line, w, t.g.box, func(k voxel.Key) {
		n := t.g.id(k)
		if allowed[n>>6]&(1<<(n&63)) == 0 {
			allowed[n>>6] |= 1 << (n & 63)
			t.cells = append(t.cells, n)
		}
	})
}

// cellPoint is key k in the mesh's coordinates.
func cellPoint(k voxel.Key) [3]float64 { return [3]float64{float64(k.X), float64(k.Y), float64(k.Z)} }

// addStats sums the counts and times of two searches; the second's ε.
func addStats(a, b planners.Stats) planners.Stats {
	b.Expansions += a.Expansions
	b.Touched += a.Touched
	b.Elapsed += a.Elapsed
	return b
}
