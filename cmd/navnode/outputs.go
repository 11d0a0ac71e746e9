package main

import (
	"time"

	"go.uber.org/zap"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/rosconv"
	"github.com/navnode/navnode/replanner"
)

// maxVoxelsOut bounds the occupied voxels ~/voxels carries.
const maxVoxelsOut = 1 << 18

// stamp is the time to stamp outputs with: the wall clock, or with
// use_sim_time the latest stamp received (navnode does not read /clock).
func (n *navnode) stamp() time.Duration {
	if n.p.SimTime {
		return time.Duration(n.simNow.Load())
	}
	return time.Duration(time.Now().UnixNano())
}

// publishPlan publishes the path and its markers.
func (n *navnode) publishPlan(w *world, out replanner.Output) {
	n.log.Debug("plan", zap.Stringer("status", out.Status), zap.Int("poses", len(out.Path)),
		zap.Float64("epsilon", out.Epsilon), zap.Bool("replanned", out.Replanned), zap.Bool("repair", out.Repair),
		zap.Duration("search", out.RepairTime))
	now := n.stamp()
	path := rosconv.Path(out.Path, n.p.MapFrame, now)
	w.endFacing(path.Poses, out.Path)
	if err := n.plan.Publish(&path); err != nil {
		n.log.Warn("publishing plan", zap.Error(err))
	}
	m := rosconv.PlanMarkers(out.Path, w.start(), w.goal(), n.p.MapFrame, now)
	if w.loop.Config().Strategy == replanner.Tunnel {
		w.route = w.loop.TunnelRoute(w.route)
		m.Markers = append(m.Markers, rosconv.RouteMarker(w.route, n.p.MapFrame, now))
	}
	if err := n.markers.Publish(&m); err != nil {
		n.log.Warn("publishing markers", zap.Error(err))
	}
}

// publishDiagnostics publishes the planner's and the inputs' status.
func (n *navnode) publishDiagnostics(w *world) {
	d := report(n.cnt, w.diagnostics(), time.Now(), rosconv.Header("", n.stamp()))
	if err := n.diag.Publish(d); err != nil {
		n.log.Warn("publishing diagnostics", zap.Error(err))
	}
}

// publishVoxels publishes the occupied voxels as a point cloud.
func (n *navnode) publishVoxels(w *world) {
	if n.voxels.Matched() == 0 {
		return
	}
	w.keys = w.keys[:0]
	w.vm.ForEachOccupied(func(k voxel.Key) bool {
		w.keys = append(w.keys, k)
		return len(w.keys) < maxVoxelsOut
	})
	w.centres = rosconv.KeyCentres(w.vm.Frame(), w.keys, w.centres)
	c, err := rosconv.VoxelCloud(w.centres, n.p.MapFrame, n.stamp())
	if err == nil {
		err = n.voxels.Publish(&c)
	}
	if err != nil {
		n.log.Warn("publishing voxels", zap.Error(err))
	}
}

// publishCostGrid publishes the planning volume's costs projected onto
// the ground (the highest cost of each column), for RViz.
func (n *navnode) publishCostGrid(w *world) {
	if n.costGrid.Matched() == 0 {
		return
	}
	b := n.p.volume()
	w.costs = w.vm.Project(b, w.costs)
	g, err := rosconv.CostGridBox(w.vm.Frame(), b, w.costs, n.p.MapFrame, n.stamp())
	if err == nil {
		err = n.costGrid.Publish(&g)
	}
	if err != nil {
		n.log.Warn("publishing costmap", zap.Error(err))
	}
}
