package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/navnode/navnode/sim"
)

// topTitle is the top view's title; the side view's is sideTitle.
const topTitle = "Top view (x–y)"

func sideTitle(axis int) string { return "Side view (" + axisNames[axis] + "–z)" }

var axisNames = [3]string{"x", "y", "z"}

// The picture's layout, pixels.
const (
	maxPanelW = 960.0 // a panel's largest width
	maxPanelH = 600.0 // and height
	maxScale  = 120.0 // pixels per metre at most
	marginL   = 52.0  // room for the vertical axis's labels
	marginR   = 24.0
	minWidth  = 980.0 // room for the legend
	headH     = 58.0  // the title and the subtitle
	panelHead = 26.0  // a panel's title, above it
	panelFoot = 34.0  // tick labels, below it
	lineH     = 18.0
	charW     = 6.6 // a character of 12 px text, roughly
)

// Colours; the plans run through planStops from early to late.
const (
	colStatic    = "#a3a3a3"
	colStaticLn  = "#555555"
	colWall      = "#6b6b6b"
	colObstacle  = "#1e8c3e"
	colTraj      = "#111111"
	colGoal      = "#1f5fd0"
	colOldGoal   = "#8a8a8a"
	colCollision = "#e0201b"
	colGrid      = "#ececec"
	colBounds    = "#b5b5b5"
)

var planStops = [...]string{"#0d0887", "#6a00a8", "#b12a90", "#e16462", "#f89540"}

// picture is what the SVG shows of a mission.
type picture struct {
	l          *sim.Log
	s          *summary
	title      string
	titleLines []string // the title, wrapped
	sub        string   // the scenario, the world and the robot in one line
	notes      []string // said under the legend
	warns      []string // what could not be drawn, also printed
	back       *backdrop
	lo, hi     [3]float64 // the extent drawn, metres
	side       int        // the side view's horizontal axis: 0 x, 1 y
	drawn      []int      // plans drawn, in time order; the last is the final plan
	t0, t1     float64    // the plans' times, for their colours
	lives      []lifetime
	views      [2]view
	width      float64
	height     float64
	legendY    float64 // where the legend starts
}

// view is one panel: metres along axes u (across) and v (up) mapped to
// pixels.
type view struct {
	title  string
	u, v   int        // 0 x, 1 y, 2 z
	x0, y0 float64    // the panel's top left corner, pixels
	lo, hi [2]float64 // metres along u and v
	scale  float64    // pixels per metre
	top    bool       // the top view, which carries the labels
}

func (v *view) w() float64 { return (v.hi[0] - v.lo[0]) * v.scale }
func (v *view) h() float64 { return (v.hi[1] - v.lo[1]) * v.scale }

// at returns the pixel at metres (a, b) along u and v.
func (v *view) at(a, b float64) (float64, float64) {
	return v.x0 + (a-v.lo[0])*v.scale, v.y0 + (v.hi[1]-b)*v.scale
}

// pt returns the pixel of a map-frame point.
func (v *view) pt(p [3]float64) (float64, float64) { return v.at(p[v.u], p[v.v]) }

// newPicture lays out the picture of log l.
func newPicture(l *sim.Log, s *summary, title string, dirs []string) *picture {
	p := &picture{l: l, s: s, title: title}
	if p.title == "" {
		p.title = fmt.Sprintf("Mission %s in %s", orDash(filepath.Base(l.Mission.Scenario)), orDash(l.World.Name))
		if l.Mission.Scenario == "" {
			p.title = "Mission in " + orDash(l.World.Name)
		}
	}
	p.sub = fmt.Sprintf("%d plans received, %d replans by navnode, %d obstacle events.", s.Plans, s.Replans, len(s.Events))
	if r := l.Mission.Robot; l.Mission.Type != "" {
		p.sub = fmt.Sprintf("%s robot, radius %g m, up to %g m/s; ", r.Type, r.Radius, r.MaxSpeed) + p.sub
	}
	p.extent()
	// The side view looks along the axis the robot travels least.
	var dx, dy float64
	for i := 1; i < len(l.Poses); i++ {
		dx += math.Abs(l.Poses[i].P[0] - l.Poses[i-1].P[0])
		dy += math.Abs(l.Poses[i].P[1] - l.Poses[i-1].P[1])
	}
	if dy > dx {
		p.side = 1
	}
	var note string
	if p.back, note = loadBackdrop(&l.World, p.side, dirs); note != "" {
		p.notes, p.warns = append(p.notes, note), append(p.warns, note)
	}
	p.choosePlans()
	p.lives = lifetimes(l.Obstacles, s.Time)
	p.layout()
	return p
}

// extent finds what the views show: the world's bounds and everything
// drawn.
func (p *picture) extent() {
	l := p.l
	lo, hi := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	add := func(q [3]float64) {
		for i := range 3 {
			lo[i], hi[i] = min(lo[i], q[i]), max(hi[i], q[i])
		}
	}
	if b := l.World.Bounds; b.Min[0] < b.Max[0] && b.Min[1] < b.Max[1] && b.Min[2] < b.Max[2] {
		add(b.Min)
		add(b.Max)
	}
	if l.Mission.Type != "" {
		add(l.Mission.Start)
	}
	shape := func(r *sim.ShapeRecord) {
		b := r.Shape().Bounds()
		add([3]float64{b.Min.X, b.Min.Y, b.Min.Z})
		add([3]float64{b.Max.X, b.Max.Y, b.Max.Z})
	}
	for i := range l.World.Shapes {
		shape(&l.World.Shapes[i])
	}
	for _, o := range l.Obstacles {
		if o.Shape != nil {
			shape(o.Shape)
		}
	}
	for _, g := range l.Goals {
		add(g.P)
	}
	for _, q := range l.Poses {
		add(q.P)
	}
	for _, pl := range l.Plans {
		for _, q := range pl.Poses {
			add(q)
		}
	}
	for _, c := range l.Collisions {
		add(c.P)
	}
	pad := 0.0
	for i := range 3 {
		if !(lo[i] <= hi[i]) {
			lo[i], hi[i] = 0, 1
		}
		if d := 1 - (hi[i] - lo[i]); d > 0 { // at least a metre
			lo[i], hi[i] = lo[i]-d/2, hi[i]+d/2
		}
		pad = max(pad, (hi[i]-lo[i])/60)
	}
	for i := range 3 { // room for the markers on the bounds
		lo[i], hi[i] = lo[i]-pad, hi[i]+pad
	}
	p.lo, p.hi = lo, hi
}

// layout places the views, one above the other, at one scale.
func (p *picture) layout() {
	sx, sy, sz, ss := p.hi[0]-p.lo[0], p.hi[1]-p.lo[1], p.hi[2]-p.lo[2], p.hi[p.side]-p.lo[p.side]
	scale := min(maxPanelW/sx, maxPanelH/sy, maxPanelW/ss, maxPanelH/sz, maxScale)
	p.width = math.Ceil(max(marginL+max(sx, ss)*scale+marginR, minWidth))
	p.titleLines = wrap(p.title, int((p.width-marginL-marginR)/(charW*1.45)))
	y := headH + 22*float64(len(p.titleLines)-1) + panelHead
	p.views[0] = view{title: topTitle, u: 0, v: 1, x0: marginL, y0: y, scale: scale, top: true,
		lo: [2]float64{p.lo[0], p.lo[1]}, hi: [2]float64{p.hi[0], p.hi[1]}}
	y += p.views[0].h() + panelFoot + panelHead
	p.views[1] = view{title: sideTitle(p.side), u: p.side, v: 2, x0: marginL, y0: y, scale: scale,
		lo: [2]float64{p.lo[p.side], p.lo[2]}, hi: [2]float64{p.hi[p.side], p.hi[2]}}
	p.legendY = y + p.views[1].h() + panelFoot + 12
}

// writeFile writes the picture to path and returns its size.
func (p *picture) writeFile(path string) (int, error) {
	var c canvas
	p.write(&c)
	if err := os.WriteFile(path, c.b.Bytes(), 0o644); err != nil {
		return 0, err
	}
	return c.b.Len(), nil
}

// write draws the picture: the title, the views, the legend, the notes
// and the outcome.
func (p *picture) write(c *canvas) {
	var body canvas
	for i := range p.views {
		p.panel(&body, &p.views[i])
	}
	y := p.legend(&body, p.legendY)
	y += 6
	room := p.width - marginL - marginR
	for _, n := range p.notes {
		for _, line := range wrap(n, int(room/charW)) {
			y += lineH
			body.text(marginL, y, `fill="#444"`, line)
		}
	}
	caption := "The mission did not end: the log has no outcome line."
	if o := p.l.Outcome; o != nil {
		caption = "Outcome: " + o.Summary() + "."
	}
	y += 8
	for _, line := range wrap(caption, int(room/(charW*1.25))) {
		y += lineH + 2
		body.text(marginL, y, `font-size="14" font-weight="bold"`, line)
	}
	p.height = math.Ceil(y + 16)

	c.f("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	made := fmt.Sprintf("navreport from the mission log of %s in %s", orDash(p.l.Mission.Scenario), orDash(p.l.World.Name))
	for strings.Contains(made, "--") { // which a comment may not hold
		made = strings.ReplaceAll(made, "--", "- -")
	}
	c.f("<!-- Made by %s. -->\n", made)
	c.f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %[1]s %[2]s\" font-family=\"sans-serif\" font-size=\"12\">\n",
		num(p.width), num(p.height))
	c.f("<defs><linearGradient id=\"plantime\">")
	for i, s := range planStops {
		c.f("<stop offset=\"%s\" stop-color=\"%s\"/>", num(float64(i)/float64(len(planStops)-1)), s)
	}
	c.f("</linearGradient></defs>\n")
	c.f("<rect width=\"%s\" height=\"%s\" fill=\"#fff\"/>\n", num(p.width), num(p.height))
	for i, line := range p.titleLines {
		c.text(marginL, 24+22*float64(i), `font-size="17" font-weight="bold"`, line)
	}
	c.text(marginL, 44+22*float64(len(p.titleLines)-1), "", p.sub)
	c.b.Write(body.b.Bytes())
	c.f("</svg>\n")
}

// panel draws view v: a frame with ticks in metres, and in it the world,
// the obstacles, the plans, the trajectory and the markers.
func (p *picture) panel(c *canvas, v *view) {
	w, h := v.w(), v.h()
	c.text(v.x0, v.y0-8, `font-size="14" font-weight="bold"`, v.title)
	id := "clip" + axisNames[v.u] + axisNames[v.v]
	c.f("<clipPath id=\"%s\"><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/></clipPath>\n", id, num(v.x0), num(v.y0), num(w), num(h))
	c.f("<g clip-path=\"url(#%s)\">\n", id)
	// Grid lines at the ticks.
	su, sv := niceStep((v.hi[0]-v.lo[0])/max(1, w/60)), niceStep((v.hi[1]-v.lo[1])/max(1, h/45))
	c.f("<path stroke=\"%s\" fill=\"none\" d=\"", colGrid)
	for _, t := range ticks(v.lo[0], v.hi[0], su) {
		x, _ := v.at(t, 0)
		c.f("M%s %sv%s", num(x), num(v.y0), num(h))
	}
	for _, t := range ticks(v.lo[1], v.hi[1], sv) {
		_, y := v.at(0, t)
		c.f("M%s %sh%s", num(v.x0), num(y), num(w))
	}
	c.f("\"/>\n")
	if b := p.l.World.Bounds; b.Min != b.Max {
		x0, y0 := v.pt(b.Min)
		x1, y1 := v.pt(b.Max)
		c.f("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
			num(x0), num(y1), num(x1-x0), num(y0-y1), colBounds)
	}
	p.drawWorld(c, v)
	p.drawPlans(c, v)
	p.drawObstacles(c, v)
	p.drawRobot(c, v)
	c.f("</g>\n")
	if v.top {
		var placed [][4]float64
		p.labelMarkers(c, v, &placed)
		p.labelObstacles(c, v, &placed)
	}
	// The frame, the ticks and their labels.
	c.f("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"#000\"/>\n", num(v.x0), num(v.y0), num(w), num(h))
	for _, t := range ticks(v.lo[0], v.hi[0], su) {
		x, _ := v.at(t, 0)
		c.f("<path d=\"M%s %sv4\" stroke=\"#000\"/>\n", num(x), num(v.y0+h))
		c.text(x, v.y0+h+16, `text-anchor="middle"`, fmtNum(t))
	}
	for _, t := range ticks(v.lo[1], v.hi[1], sv) {
		_, y := v.at(0, t)
		c.f("<path d=\"M%s %sh-4\" stroke=\"#000\"/>\n", num(v.x0), num(y))
		c.text(v.x0-7, y+4, `text-anchor="end"`, fmtNum(t))
	}
	c.text(v.x0+w, v.y0+h+30, `text-anchor="end" fill="#444"`, axisNames[v.u]+" (m)")
	c.text(v.x0-7, v.y0-8, `text-anchor="end" fill="#444"`, axisNames[v.v]+" (m)")
}

// legend writes the keys in rows from height y and returns the last
// row's height.
func (p *picture) legend(c *canvas, y float64) float64 {
	type key struct {
		label, shape string
		w            float64 // the shape's width, pixels (default 18)
	}
	var keys []key
	if len(p.l.World.Shapes) > 0 {
		keys = append(keys, key{label: "static shape", shape: `<rect width="18" height="11" fill="` + colStatic + `" fill-opacity="0.6" stroke="` + colStaticLn + `"/>`})
	}
	if p.back != nil {
		keys = append(keys, key{label: p.back.what + " (paler from the side)", shape: `<rect width="9" height="11" fill="` + colWall + `"/><rect x="9" width="9" height="11" fill="` + colWall + `" fill-opacity="0.3"/>`})
	}
	var moved, deleted bool
	for _, lt := range p.lives {
		moved, deleted = moved || len(lt.at) > 1, deleted || lt.deleted
	}
	if len(p.lives) > 0 {
		keys = append(keys, key{label: "obstacle (label: id, lifetime)", shape: `<rect width="18" height="11" fill="` + colObstacle + `" fill-opacity="0.18" stroke="` + colObstacle + `" stroke-width="1.5"/>`})
	}
	if deleted {
		keys = append(keys, key{label: "deleted", shape: `<rect width="18" height="11" fill="` + colObstacle + `" fill-opacity="0.18" stroke="` + colObstacle + `" stroke-width="1.5" stroke-dasharray="4 2"/>`})
	}
	if moved {
		keys = append(keys, key{label: "moving: trail", shape: `<path d="M0 5.5H18" stroke="` + colObstacle + `" stroke-width="1.2" stroke-dasharray="1 2"/>`})
	}
	if len(p.drawn) > 0 {
		keys = append(keys,
			key{label: "plans, t " + fmtT(p.t0) + " s → " + fmtT(p.t1) + " s", w: 90, shape: `<rect width="90" height="8" y="2" fill="url(#plantime)"/>`},
			key{label: "final plan", shape: `<path d="M0 5.5H18" stroke="` + planColour(1) + `" stroke-width="3.5"/>`})
	}
	if len(p.l.Poses) > 0 {
		keys = append(keys, key{label: "trajectory (dots every " + fmtNum(p.markStep()) + " s)", shape: `<path d="M0 5.5H18" stroke="` + colTraj + `" stroke-width="2"/><circle cx="9" cy="5.5" r="2.5" fill="#fff" stroke="` + colTraj + `"/>`})
	}
	if _, ok := p.start(); ok {
		keys = append(keys, key{label: "start", shape: `<circle cx="9" cy="5.5" r="5" fill="` + colTraj + `" stroke="#fff" stroke-width="1.5"/>`})
	}
	if len(p.goals()) > 0 {
		keys = append(keys, key{label: "goal", shape: `<circle cx="9" cy="5.5" r="5.5" fill="#fff" stroke="` + colGoal + `" stroke-width="2.5"/><circle cx="9" cy="5.5" r="1.5" fill="` + colGoal + `"/>`})
	}
	if len(p.l.Goals) > 1 {
		keys = append(keys, key{label: "earlier goal", shape: `<circle cx="9" cy="5.5" r="5.5" fill="#fff" stroke="` + colOldGoal + `" stroke-width="2"/>`})
	}
	if len(p.l.Collisions) > 0 {
		keys = append(keys, key{label: "collision", shape: `<path d="M4 0.5l10 10M14 0.5l-10 10" stroke="` + colCollision + `" stroke-width="2.5"/>`})
	}
	bar := niceStep(120 / p.views[0].scale)
	barW := bar * p.views[0].scale
	keys = append(keys, key{label: fmtNum(bar) + " m (both views)", w: barW,
		shape: `<path d="M0 2v7h` + num(barW) + `v-7" fill="none" stroke="#000" stroke-width="1.5"/>`})
	x := marginL
	for _, k := range keys {
		if k.w == 0 {
			k.w = 18
		}
		adv := k.w + 10 + charW*float64(len([]rune(k.label))) + 22
		if x > marginL && x+adv-22 > p.width-marginR {
			x, y = marginL, y+lineH+4
		}
		c.f("<g transform=\"translate(%s %s)\">%s</g>\n", num(x), num(y-10), k.shape)
		c.text(x+k.w+6, y, "", k.label)
		x += adv
	}
	return y
}
