package main

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/golang/geo/r3"

	"github.com/navnode/navnode/costmap/navmesh"
	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/shareddata"
	"github.com/navnode/navnode/planners"
)

// The panel titles of `navbench meshsvg`'s picture.
const (
	meshSVGBefore = "Before: the mesh of the static map"
	meshSVGAfter  = "After: box inserted, navmesh.Update"
)

// runMeshSVG is `navbench meshsvg`: a picture of a navigation mesh being
// repaired. It extrudes a map_server map into one layer of voxels, builds
// a Ground navmesh.Mesh over it, then inserts a -size box (a PutShape) at
// -obstacle and brings the mesh up to date with Update. The SVG has two
// panels, before and after: the costmap, the regions (one rectangle
// each), the dual graph's edges, the box, and A* on the mesh from the
// region at -route's start to the one at its goal. The after panel
// outlines the regions Update added and the tiles it rebuilt. The
// defaults suit the depot map: the box closes the aisle between the first
// two rack columns, so the route has to go round through the next one;
// the picture shows the racks (x 13.5–23.5 m, y 1–7.5 m), as the whole
// map would make a file of about 650 KB.
func runMeshSVG(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("meshsvg", flag.ContinueOnError)
	fs.SetOutput(stdout)
	mapPath := fs.String("map", "", "map_server YAML map (default: the shared data's nav2-maps/depot.yaml)")
	out := fs.String("o", filepath.Join("docs", "navmesh-depot.svg"), "SVG file to write")
	crop := fs.String("crop", "13.5,1,23.5,7.5", "part of the map to draw, x0,y0,x1,y1 metres, or full (the whole map; for the depot a file of about 650 KB)")
	tile := fs.Int("tile", 16, "mesh tile edge, cells (2..256)")
	inflate := fs.Float64("inflate", 0.2, "robot radius, metres: cells this near an obstacle are inscribed")
	obstacle := fs.String("obstacle", "16.85,3.1", "centre of the box, x,y metres")
	size := fs.Float64("size", 2, "box side, metres")
	route := fs.String("route", "16.85,1.5,16.85,6.75", "route start and goal, x0,y0,x1,y1 metres")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: navbench meshsvg [flags]: SVG of a navmesh before and after an obstacle is inserted")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	obst, err1 := svgParseNumbers(*obstacle, 2)
	ends, err2 := svgParseNumbers(*route, 4)
	var cropM []float64
	var err3 error
	if *crop != "full" {
		if cropM, err3 = svgParseNumbers(*crop, 4); err3 == nil && !(cropM[0] < cropM[2] && cropM[1] < cropM[3]) {
			err3 = fmt.Errorf("want x0 < x1 and y0 < y1")
		}
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("meshsvg: unexpected arguments %q", fs.Args())
	case *tile < 2 || *tile > 256:
		return fmt.Errorf("meshsvg: -tile %d: want 2..256", *tile)
	case !(*inflate >= 0) || !(*size > 0) || math.IsInf(*inflate+*size, 0):
		return fmt.Errorf("meshsvg: -inflate must be ≥ 0 and -size > 0")
	case errors.Join(err1, err2, err3) != nil:
		return fmt.Errorf("meshsvg: -obstacle, -route or -crop: %w", errors.Join(err1, err2, err3))
	}
	if *mapPath == "" {
		root, err := shareddata.Root()
		if err != nil {
			return fmt.Errorf("meshsvg: no -map and no shared data directory: %w", err)
		}
		*mapPath = filepath.Join(root, "data", "nav2-maps", "depot.yaml")
	}

	g, err := voxel.LoadMapServer(*mapPath)
	if err != nil {
		return err
	}
	if g.Yaw != 0 {
		return fmt.Errorf("meshsvg: %s: a rotated map (yaw %v) is not supported", *mapPath, g.Yaw)
	}
	res := g.Resolution
	g.ZMin, g.ZMax = 0, res // one layer of voxels, z = 0
	m, err := voxel.New(voxel.Config{Resolution: res, Origin: r3.Vector{X: g.Origin.X, Y: g.Origin.Y},
		Robot: voxel.Robot{Shape: voxel.Cylinder, Radius: *inflate, Height: res, InflationRadius: *inflate}})
	if err != nil {
		return fmt.Errorf("meshsvg: %w", err)
	}
	if _, err := m.Apply(g); err != nil {
		return fmt.Errorf("meshsvg: %w", err)
	}
	bounds := voxel.Box{Max: voxel.Key{X: int32(g.Width) - 1, Y: int32(g.Height) - 1}}
	mesh, err := navmesh.New(m, navmesh.Config{Mode: navmesh.Ground, Bounds: bounds, Tile: int32(*tile), ImplicitFloor: true})
	if err != nil {
		return fmt.Errorf("meshsvg: %w", err)
	}

	s := &svgScene{name: filepath.Base(*mapPath), w: g.Width, h: g.Height, res: res, tile: int32(*tile),
		crop: bounds, size: *size, inflate: *inflate}
	s.frame = m.Frame()
	toCell := func(x, y float64) [2]float64 { // metres to cell coordinates, a cell's corner at its key
		p := s.frame.Origin
		return [2]float64{(x - p.X) / res, (y - p.Y) / res}
	}
	if cropM != nil {
		lo, hi := toCell(cropM[0], cropM[1]), toCell(cropM[2], cropM[3])
		s.crop = voxel.Box{Min: voxel.Key{X: int32(math.Floor(lo[0])), Y: int32(math.Floor(lo[1]))},
			Max: voxel.Key{X: int32(math.Ceil(hi[0])) - 1, Y: int32(math.Ceil(hi[1])) - 1}}.Intersect(bounds)
		if s.crop.Empty() {
			return fmt.Errorf("meshsvg: -crop %s is outside the map", *crop)
		}
	}
	s.box = [2][2]float64{toCell(obst[0]-*size/2, obst[1]-*size/2), toCell(obst[0]+*size/2, obst[1]+*size/2)}
	var endKeys [2]voxel.Key
	for i := range endKeys {
		k, ok := s.frame.KeyOf(r3.Vector{X: ends[2*i], Y: ends[2*i+1], Z: s.frame.Origin.Z + res/2})
		if !ok || mesh.Locate(k) == planners.None {
			return fmt.Errorf("meshsvg: -route point (%v, %v) is in no region of the mesh", ends[2*i], ends[2*i+1])
		}
		endKeys[i] = k
	}

	astar := planners.NewAStar(mesh)
	before, err := s.snapshot(m, mesh, astar, endKeys, meshSVGBefore)
	if err != nil {
		return err
	}
	before.regionsTotal = mesh.NumRegions()
	cs, err := m.Apply(voxel.PutShape{ID: "navbench/meshsvg", Solid: &voxel.BoxShape{
		Pose: voxel.Pose{Position: r3.Vector{X: obst[0], Y: obst[1], Z: s.frame.Origin.Z + res/2}, Orientation: voxel.Identity},
		Size: r3.Vector{X: *size, Y: *size, Z: res}}})
	if err != nil {
		return fmt.Errorf("meshsvg: -obstacle: %w", err)
	}
	var d navmesh.Delta
	mesh.Update(cs, &d)
	after, err := s.snapshot(m, mesh, astar, endKeys, meshSVGAfter)
	if err != nil {
		return err
	}
	after.regionsTotal = mesh.NumRegions()
	after.added = map[planners.NodeID]bool{}
	for _, n := range d.Added {
		after.added[n] = true
	}
	after.tiles = svgRebuiltTiles(cs, bounds, s.tile)
	if len(after.tiles) != d.Tiles {
		return fmt.Errorf("meshsvg: %d tiles outlined but the mesh rebuilt %d", len(after.tiles), d.Tiles)
	}
	s.delta, s.changed = &d, cs.Len()
	s.command = "navbench meshsvg"
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name != "map" && f.Name != "o" {
			s.command += " -" + f.Name + " " + f.Value.String()
		}
	})
	s.command = strings.ReplaceAll(s.command+" on "+s.name, "--", "- -") // an XML comment holds no "--"

	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	s.write(bw, before, after)
	if err := errors.Join(bw.Flush(), f.Close()); err != nil {
		return fmt.Errorf("meshsvg: %w", err)
	}
	info, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "meshsvg: wrote %s (%d bytes): %s\n", *out, info.Size(), s.summary(before, after))
	return nil
}

// svgParseNumbers parses n comma-separated finite numbers.
func svgParseNumbers(s string, n int) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("%q: want %d comma-separated numbers", s, n)
	}
	v := make([]float64, n)
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%q: %q is not a finite number", s, p)
		}
		v[i] = x
	}
	return v, nil
}

// svgScene is what both panels share. Drawings are in cell coordinates,
// where cell k spans [k, k+1); the mesh's own coordinates (a cell's centre
// at its key) are shifted by half a cell to match.
type svgScene struct {
	name    string // the map's file name
	command string // the command that draws the picture, but for -map and -o
	w, h    int    // map cells
	res     float64
	frame   voxel.Frame
	tile    int32
	size    float64        // the box's side, metres
	inflate float64        // the robot's radius, metres
	crop    voxel.Box      // cells drawn, inclusive, z = 0
	box     [2][2]float64  // the obstacle's corners, cell coordinates
	delta   *navmesh.Delta // what Update changed
	changed int            // voxels whose cost changed
}

// svgPanel is the state of the map and mesh drawn in one panel.
type svgPanel struct {
	title        string
	costs        []voxel.Cost    // the crop's cells, x fastest [len = crop width·height]
	regions      []svgRegion     // live regions meeting the crop
	edges        [][2][2]float64 // dual graph edges with an end in the crop, between centres (cell coordinates)
	route        [][2]float64    // the funnel path through A*'s regions, start to goal (cell coordinates + ½: corners); nil without a route
	cost         float64         // A*'s route cost, metres
	regionsTotal int             // live regions in the whole mesh
	added        map[planners.NodeID]bool
	tiles        []voxel.Box // tiles rebuilt, clipped to the map
}

type svgRegion struct {
	id    planners.NodeID
	cells voxel.Box
}

// snapshot records what a panel shows of the map and mesh now, and plans
// the route between the regions holding ends.
func (s *svgScene) snapshot(m *voxel.Map, mesh *navmesh.Mesh, astar *planners.AStar, ends [2]voxel.Key, title string) (*svgPanel, error) {
	p := &svgPanel{title: title}
	c := s.crop
	for y := c.Min.Y; y <= c.Max.Y; y++ {
		for x := c.Min.X; x <= c.Max.X; x++ {
			p.costs = append(p.costs, m.Cost(voxel.Key{X: x, Y: y}))
		}
	}
	inCrop := func(q [3]float64) bool {
		return q[0] >= float64(c.Min.X) && q[0] <= float64(c.Max.X) && q[1] >= float64(c.Min.Y) && q[1] <= float64(c.Max.Y)
	}
	var edges []planners.Edge
	mesh.ForEach(func(id planners.NodeID, r navmesh.Region) bool {
		if b := r.Cells; b.Min.X <= c.Max.X && b.Max.X >= c.Min.X && b.Min.Y <= c.Max.Y && b.Max.Y >= c.Min.Y {
			p.regions = append(p.regions, svgRegion{id, b})
		}
		a := mesh.Position(id)
		edges = mesh.Successors(id, edges[:0])
		for _, e := range edges {
			if b := mesh.Position(e.To); e.To > id && (inCrop(a) || inCrop(b)) {
				p.edges = append(p.edges, [2][2]float64{{a[0] + .5, a[1] + .5}, {b[0] + .5, b[1] + .5}})
			}
		}
		return true
	})
	res, err := astar.Plan(context.Background(), mesh.Locate(ends[0]), mesh.Locate(ends[1]), nil)
	switch {
	case errors.Is(err, planners.ErrNoPath):
		return p, nil
	case err != nil:
		return nil, fmt.Errorf("meshsvg: route: %w", err)
	}
	p.cost = res.Cost * s.res
	at := func(k voxel.Key) [3]float64 { return [3]float64{float64(k.X), float64(k.Y), float64(k.Z)} }
	pts, err := mesh.StraightPath(at(ends[0]), at(ends[1]), res.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("meshsvg: route: %w", err)
	}
	for _, q := range pts {
		p.route = append(p.route, [2]float64{q[0] + .5, q[1] + .5})
	}
	return p, nil
}

// svgRebuiltTiles returns the tiles holding a voxel cs lists, as a Ground
// mesh over bounds (one layer) dirties them.
func svgRebuiltTiles(cs *voxel.ChangeSet, bounds voxel.Box, tile int32) []voxel.Box {
	seen := map[[2]int32]bool{}
	var tiles []voxel.Box
	for _, list := range [][]voxel.Change{cs.Rose, cs.Fell} {
		for _, ch := range list {
			k := ch.Voxel
			if k.X < bounds.Min.X || k.X > bounds.Max.X || k.Y < bounds.Min.Y || k.Y > bounds.Max.Y {
				continue
			}
			t := [2]int32{(k.X - bounds.Min.X) / tile, (k.Y - bounds.Min.Y) / tile}
			if seen[t] {
				continue
			}
			seen[t] = true
			lo := voxel.Key{X: bounds.Min.X + t[0]*tile, Y: bounds.Min.Y + t[1]*tile}
			tiles = append(tiles, voxel.Box{Min: lo, Max: lo.Add(tile-1, tile-1, 0)}.Intersect(bounds))
		}
	}
	return tiles
}

// summary is the picture's counts in one line.
func (s *svgScene) summary(before, after *svgPanel) string {
	route := func(p *svgPanel) string {
		if p.route == nil {
			return "none"
		}
		return fmt.Sprintf("%.2f m", p.cost)
	}
	return fmt.Sprintf("Regions: %d before, %d after. Update: %d voxels changed cost, %d tiles rebuilt, %d regions removed, %d added. Route: %s before, %s after",
		before.regionsTotal, after.regionsTotal, s.changed, s.delta.Tiles, len(s.delta.Removed), len(s.delta.Added), route(before), route(after))
}

// The picture's layout, pixels.
const (
	svgPanelMaxW = 760.0 // a panel's largest width
	svgPanelMaxH = 620.0 // and height
	svgMaxScale  = 8.0   // pixels per cell at most
	svgMargin    = 16.0
	svgTop       = 62.0 // the title's lines
	svgPanelTop  = 24.0 // a panel's title
	svgBottom    = 64.0 // the legend
	svgMinWidth  = 1320 // room for the title and the legend
)

// Colours.
const (
	svgLethal    = "#000000"
	svgInscribed = "#6b6b6b"
	svgUnknown   = "#cbcbcb"
	svgObstacle  = "#e0201b"
	svgAdded     = "#ff8c00"
	svgTileLine  = "#6a1b9a"
	svgRoute     = "#1f5fd0"
	svgOldRoute  = "#8fb0e8"
	svgEdge      = "#555555"
)

// svgRegionFills are the regions' fills, picked by a hash of the id.
var svgRegionFills = [...]string{"#a6dcc8", "#cfe8a9", "#f3e6a2", "#d7c8ee", "#f5c9dc",
	"#bfe3ef", "#e6d3b3", "#c9d8c0", "#e9c7c0", "#c4cdea"}

// svgCostClass groups costs into the colours drawn: 0 free (not drawn),
// 1..4 graded costs from low to high, 5 inscribed, 6 lethal, 7 unknown.
func svgCostClass(c voxel.Cost) int {
	switch {
	case c == voxel.Free:
		return 0
	case c < voxel.Inscribed:
		return 1 + int(c-1)*4/int(voxel.Inscribed-1)
	}
	return 5 + int(c-voxel.Inscribed)
}

var svgCostFills = [8]string{"", "#f1ecf6", "#e1d7ed", "#d0c1e3", "#bfaad9", svgInscribed, svgLethal, svgUnknown}

// svgNum formats a coordinate, to a thousandth.
func svgNum(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000+0, 'f', -1, 64) }

// write draws the scene: the title, the panels side by side, the legend.
func (s *svgScene) write(w *bufio.Writer, before, after *svgPanel) {
	c := s.crop
	cw, ch := float64(c.Max.X-c.Min.X+1), float64(c.Max.Y-c.Min.Y+1)
	scale := min(svgPanelMaxW/cw, svgPanelMaxH/ch, svgMaxScale)
	pw, ph := cw*scale, ch*scale
	width, height := max(2*pw+3*svgMargin, svgMinWidth), svgTop+svgPanelTop+ph+svgBottom
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Made by %s. -->\n", s.command)
	fmt.Fprintf(w, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %[1]s %[2]s\" font-family=\"sans-serif\" font-size=\"13\">\n",
		svgNum(width), svgNum(height))
	fmt.Fprintf(w, "<rect width=\"%s\" height=\"%s\" fill=\"#fff\"/>\n", svgNum(width), svgNum(height))
	lo, hi := s.frame.Corner(c.Min), s.frame.Corner(c.Max.Add(1, 1, 0))
	svgText(w, svgMargin, 22, `font-size="17" font-weight="bold"`,
		fmt.Sprintf("Navigation mesh repair on %s: a %g m × %g m box is inserted and navmesh.Update rebuilds the tiles it touches", s.name, s.size, s.size))
	svgText(w, svgMargin, 42, "", fmt.Sprintf("Map %d×%d cells of %g m; shown: x %g–%g m, y %g–%g m (y up); Ground mesh, tiles of %d cells (%g m); robot radius %g m.",
		s.w, s.h, s.res, svgRound3(lo.X), svgRound3(hi.X), svgRound3(lo.Y), svgRound3(hi.Y), s.tile, svgRound3(float64(s.tile)*s.res), s.inflate))
	svgText(w, svgMargin, 58, "", s.summary(before, after)+".")
	unknown := slices.Contains(before.costs, voxel.Unknown) || slices.Contains(after.costs, voxel.Unknown)
	for i, p := range []*svgPanel{before, after} {
		x0 := svgMargin + float64(i)*(pw+svgMargin)
		s.panel(w, p, before, i, x0, svgTop+svgPanelTop, scale)
	}
	s.legend(w, svgTop+svgPanelTop+ph+26, scale, unknown)
	w.WriteString("</svg>\n")
}

func svgRound3(v float64) float64 { return math.Round(v*1000) / 1000 }

// svgText writes one line of text at (x, y), escaped.
func svgText(w *bufio.Writer, x, y float64, attrs, text string) {
	if attrs != "" {
		attrs = " " + attrs
	}
	fmt.Fprintf(w, "<text x=\"%s\" y=\"%s\"%s>", svgNum(x), svgNum(y), attrs)
	xml.EscapeText(w, []byte(text))
	w.WriteString("</text>\n")
}

// panel draws p with its top left corner at (x0, y0). Inside, drawing is
// in cell coordinates, y up; px converts a width in pixels. The after
// panel (i = 1) also shows the tiles rebuilt, the regions added and, in
// a paler line, the route from before.
func (s *svgScene) panel(w *bufio.Writer, p, before *svgPanel, i int, x0, y0, scale float64) {
	c := s.crop
	cw, ch := c.Max.X-c.Min.X+1, c.Max.Y-c.Min.Y+1
	px := func(v float64) string { return svgNum(v / scale) }
	svgText(w, x0, y0-8, `font-size="15" font-weight="bold"`, p.title)
	fmt.Fprintf(w, "<g transform=\"matrix(%s 0 0 %s %s %s)\">\n", svgNum(scale), svgNum(-scale),
		svgNum(x0-scale*float64(c.Min.X)), svgNum(y0+scale*float64(c.Max.Y+1)))
	fmt.Fprintf(w, "<clipPath id=\"crop%d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/></clipPath>\n<g clip-path=\"url(#crop%[1]d)\">\n",
		i, c.Min.X, c.Min.Y, cw, ch)
	fmt.Fprintf(w, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", c.Min.X, c.Min.Y, cw, ch)

	// The costmap: runs of one colour along a row, merged with the run
	// of the same span and colour in the row below.
	type run struct{ x0, x1, y0, y1 int32 }
	var runs [len(svgCostFills)][]run
	open := map[[3]int32]int{}
	for y := range ch {
		next := map[[3]int32]int{}
		for x := int32(0); x < cw; {
			k := svgCostClass(p.costs[x+y*cw])
			x1 := x
			for x1+1 < cw && svgCostClass(p.costs[x1+1+y*cw]) == k {
				x1++
			}
			if key := [3]int32{x, x1, int32(k)}; k != 0 {
				if j, ok := open[key]; ok {
					runs[k][j].y1 = y
					next[key] = j
				} else {
					runs[k] = append(runs[k], run{x, x1, y, y})
					next[key] = len(runs[k]) - 1
				}
			}
			x = x1 + 1
		}
		open = next
	}
	for k, list := range runs {
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(w, "<g fill=\"%s\">\n", svgCostFills[k])
		for _, r := range list {
			fmt.Fprintf(w, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", c.Min.X+r.x0, c.Min.Y+r.y0, r.x1-r.x0+1, r.y1-r.y0+1)
		}
		w.WriteString("</g>\n")
	}

	// The regions, the dual graph, the rebuilt tiles and the added regions.
	fmt.Fprintf(w, "<g fill-opacity=\"0.75\" stroke=\"#3c3c3c\" stroke-width=\"%s\">\n", px(0.5))
	for _, r := range p.regions {
		b := r.cells
		fmt.Fprintf(w, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", b.Min.X, b.Min.Y,
			b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1, svgRegionFills[uint32(r.id)*2654435761>>16%uint32(len(svgRegionFills))])
	}
	w.WriteString("</g>\n")
	if len(p.edges) > 0 {
		fmt.Fprintf(w, "<path fill=\"none\" stroke=\"%s\" stroke-opacity=\"0.6\" stroke-width=\"%s\" d=\"", svgEdge, px(0.6))
		for _, e := range p.edges {
			fmt.Fprintf(w, "M%s %sL%s %s", svgNum(e[0][0]), svgNum(e[0][1]), svgNum(e[1][0]), svgNum(e[1][1]))
		}
		w.WriteString("\"/>\n")
	}
	if len(p.tiles) > 0 {
		fmt.Fprintf(w, "<g fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"%s %[3]s\">\n", svgTileLine, px(1.5), px(4))
		for _, b := range p.tiles {
			fmt.Fprintf(w, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", b.Min.X, b.Min.Y, b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1)
		}
		w.WriteString("</g>\n")
	}
	if len(p.added) > 0 {
		inset := 0.75 / scale // keeps the outline inside the region, off the tile's dashes
		fmt.Fprintf(w, "<g fill=\"none\" stroke=\"%s\" stroke-width=\"%s\">\n", svgAdded, px(1.5))
		for _, r := range p.regions {
			if b := r.cells; p.added[r.id] {
				fmt.Fprintf(w, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", svgNum(float64(b.Min.X)+inset), svgNum(float64(b.Min.Y)+inset),
					svgNum(float64(b.Max.X-b.Min.X+1)-2*inset), svgNum(float64(b.Max.Y-b.Min.Y+1)-2*inset))
			}
		}
		w.WriteString("</g>\n")
	}

	// The obstacle (dashed where it will be) and the routes.
	dash := ""
	if i == 0 {
		dash = fmt.Sprintf(" stroke-dasharray=\"%s %[1]s\"", px(5))
	}
	b := s.box
	fmt.Fprintf(w, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s/>\n",
		svgNum(b[0][0]), svgNum(b[0][1]), svgNum(b[1][0]-b[0][0]), svgNum(b[1][1]-b[0][1]), svgObstacle, px(2.5), dash)
	if i == 1 && before.route != nil {
		svgPolyline(w, before.route, svgOldRoute, px(2.5), fmt.Sprintf(" stroke-dasharray=\"%s %s\"", px(6), px(4)))
	}
	if p.route != nil {
		svgPolyline(w, p.route, svgRoute, px(2.5), "")
		a, z := p.route[0], p.route[len(p.route)-1]
		fmt.Fprintf(w, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"%s\"/>\n", svgNum(a[0]), svgNum(a[1]), px(5), svgRoute)
		fmt.Fprintf(w, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"%s\"/>\n", svgNum(z[0]), svgNum(z[1]), px(5), svgRoute, px(2.5))
	}
	w.WriteString("</g>\n</g>\n")
	fmt.Fprintf(w, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"#000\"/>\n",
		svgNum(x0), svgNum(y0), svgNum(float64(cw)*scale), svgNum(float64(ch)*scale))
}

// svgPolyline writes a line through pts.
func svgPolyline(w *bufio.Writer, pts [][2]float64, colour, width, extra string) {
	fmt.Fprintf(w, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\"%s points=\"", colour, width, extra)
	for j, q := range pts {
		if j > 0 {
			w.WriteByte(' ')
		}
		fmt.Fprintf(w, "%s,%s", svgNum(q[0]), svgNum(q[1]))
	}
	w.WriteString("\"/>\n")
}

// legend writes one row of keys at height y, and a bar of 1 m at scale
// (pixels per cell); unknown is drawn only if the picture has some.
func (s *svgScene) legend(w *bufio.Writer, y, scale float64, unknown bool) {
	type key struct{ label, shape string }
	metre := svgNum(scale / s.res)
	keys := []key{
		{"lethal", `<rect width="16" height="11" fill="` + svgLethal + `"/>`},
		{"inscribed", `<rect width="16" height="11" fill="` + svgInscribed + `"/>`},
		{"unknown", `<rect width="16" height="11" fill="` + svgUnknown + `"/>`},
		{"region (colour by id)", `<rect width="16" height="11" fill="` + svgRegionFills[0] + `" stroke="#3c3c3c" stroke-width="0.5"/>`},
		{"dual graph edge", `<path d="M0 5.5H16" stroke="` + svgEdge + `"/>`},
		{"tile rebuilt", `<rect width="16" height="11" fill="none" stroke="` + svgTileLine + `" stroke-width="1.5" stroke-dasharray="4 4"/>`},
		{"region added", `<rect width="16" height="11" fill="none" stroke="` + svgAdded + `" stroke-width="1.5"/>`},
		{"box", `<rect width="16" height="11" fill="none" stroke="` + svgObstacle + `" stroke-width="2.5"/>`},
		{"A* route on the mesh", `<path d="M0 5.5H16" stroke="` + svgRoute + `" stroke-width="2.5"/>`},
		{"route before", `<path d="M0 5.5H16" stroke="` + svgOldRoute + `" stroke-width="2.5" stroke-dasharray="6 4"/>`},
	}
	if !unknown {
		keys = slices.Delete(keys, 2, 3)
	}
	x := svgMargin
	for _, k := range keys {
		fmt.Fprintf(w, "<g transform=\"translate(%s %s)\">%s</g>\n", svgNum(x), svgNum(y-10), k.shape)
		svgText(w, x+22, y, "", k.label)
		x += 36 + 7.4*float64(len(k.label))
	}
	fmt.Fprintf(w, "<path d=\"M%s %sv6h%sv-6\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n", svgNum(x), svgNum(y-9), metre)
	svgText(w, x+scale/s.res+6, y, "", "1 m")
	svgText(w, svgMargin, y+22, `fill="#444"`, "Routes run from the start (filled dot) to the goal (ring): the funnel path (navmesh.StraightPath) through the regions A* chose on the dual graph; costs are A*'s on that graph.")
}
