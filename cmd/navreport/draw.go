package main

import (
	"fmt"
	"math"

	"github.com/navnode/navnode/sim"
)

// maxPlans caps the plans drawn; more are thinned out evenly.
const maxPlans = 80

// choosePlans picks the plans drawn: the first, each that strays more
// than a tolerance from the last one picked, and the final one. The
// tolerance starts at changeTol and grows while more than maxPlans are
// picked, unless that would leave fewer than half as many; more than
// maxPlans left are thinned out evenly. Empty plans (stop) are not drawn.
func (p *picture) choosePlans() {
	plans := p.l.Plans
	var cand []int
	for i := range plans {
		if len(plans[i].Poses) > 0 {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return
	}
	final := cand[len(cand)-1]
	pick := func(tol float64) []int {
		kept := []int{cand[0]}
		for _, i := range cand[1:max(len(cand)-1, 1)] {
			if strays(plans[i].Poses, plans[kept[len(kept)-1]].Poses, tol) > tol {
				kept = append(kept, i)
			}
		}
		if kept[len(kept)-1] != final {
			kept = append(kept, final)
		}
		return kept
	}
	// A tolerance that leaves fewer than half maxPlans gives way to the
	// one before, thinned out.
	tol, kept := changeTol, pick(changeTol)
	for _, next := range []float64{0.3, 0.5, 0.8, 1.2, 2, 3, 5} {
		if len(kept) <= maxPlans {
			break
		}
		k := pick(next)
		if len(k) < maxPlans/2 {
			break
		}
		tol, kept = next, k
	}
	thinned := ""
	if n := len(kept); n > maxPlans {
		thin := make([]int, maxPlans)
		for k := range thin {
			thin[k] = kept[int(math.Round(float64(k)*float64(n-1)/float64(maxPlans-1)))]
		}
		kept, thinned = thin, fmt.Sprintf(", thinned out evenly to %d", maxPlans)
	}
	p.drawn, p.t0, p.t1 = kept, plans[kept[0]].T, plans[final].T
	p.notes = append(p.notes, fmt.Sprintf("Plans: %d received, %d drawn: the first, each that strays more than %g m from the last one drawn%s, and the final one (bold).",
		len(plans), len(kept), tol, thinned))
}

// drawWorld draws the map and the static shapes.
func (p *picture) drawWorld(c *canvas, v *view) {
	if b := p.back; b != nil {
		opacity := "1"
		if !v.top {
			opacity = "0.3" // the walls hide the whole line of sight
		}
		c.f("<g fill=\"%s\" fill-opacity=\"%s\">\n", colWall, opacity)
		if v.top {
			cs, sn := math.Cos(b.yaw), math.Sin(b.yaw)
			corner := func(x, y int) (float64, float64) {
				lx, ly := float64(x)*b.res, float64(y)*b.res
				return v.at(b.origin[0]+cs*lx-sn*ly, b.origin[1]+sn*lx+cs*ly)
			}
			for _, r := range b.top {
				if b.yaw == 0 {
					x0, y0 := corner(r.x0, r.y1+1)
					x1, y1 := corner(r.x1+1, r.y0)
					c.f("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", num(x0), num(y0), num(x1-x0), num(y1-y0))
					continue
				}
				c.f("<polygon points=\"")
				for i, q := range [4][2]int{{r.x0, r.y0}, {r.x1 + 1, r.y0}, {r.x1 + 1, r.y1 + 1}, {r.x0, r.y1 + 1}} {
					x, y := corner(q[0], q[1])
					c.f("%s%s,%s", sep(i), num(x), num(y))
				}
				c.f("\"/>\n")
			}
		} else {
			for _, r := range b.side {
				x0, y0 := v.at(r[0], r[3])
				x1, y1 := v.at(r[2], r[1])
				c.f("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", num(x0), num(y0), num(x1-x0), num(y1-y0))
			}
		}
		c.f("</g>\n")
	}
	if len(p.l.World.Shapes) > 0 {
		c.f("<g fill=\"%s\" fill-opacity=\"0.6\" stroke=\"%s\" stroke-width=\"0.8\">\n", colStatic, colStaticLn)
		for i := range p.l.World.Shapes {
			shapeEl(c, v, &p.l.World.Shapes[i], "")
		}
		c.f("</g>\n")
	}
}

// shapeEl writes a shape as seen in view v, with extra attributes.
func shapeEl(c *canvas, v *view, r *sim.ShapeRecord, attrs string) {
	if attrs != "" {
		attrs = " " + attrs
	}
	ctr := r.Center
	switch {
	case r.Kind == sim.KindSphere || (v.top && r.Kind == sim.KindCylinder):
		x, y := v.pt(ctr)
		c.f("<circle cx=\"%s\" cy=\"%s\" r=\"%s\"%s/>\n", num(x), num(y), num(r.Radius*v.scale), attrs)
	case v.top && r.Kind == sim.KindBox && r.Size != nil:
		cs, sn := math.Cos(r.Yaw), math.Sin(r.Yaw)
		hx, hy := r.Size[0]/2, r.Size[1]/2
		c.f("<polygon points=\"")
		for i, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			x, y := v.at(ctr[0]+cs*d[0]*hx-sn*d[1]*hy, ctr[1]+sn*d[0]*hx+cs*d[1]*hy)
			c.f("%s%s,%s", sep(i), num(x), num(y))
		}
		c.f("\"%s/>\n", attrs)
	default: // a box or a cylinder from the side: its bounds
		b := r.Shape().Bounds()
		lo, hi := [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}
		x0, y0 := v.at(lo[v.u], hi[2])
		x1, y1 := v.at(hi[v.u], lo[2])
		c.f("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"%s/>\n", num(x0), num(y0), num(x1-x0), num(y1-y0), attrs)
	}
}

func sep(i int) string {
	if i == 0 {
		return ""
	}
	return " "
}

// drawPlans draws the plans chosen, early ones first, the final one bold.
func (p *picture) drawPlans(c *canvas, v *view) {
	for k, i := range p.drawn {
		pl := &p.l.Plans[i]
		f := 1.0
		if p.t1 > p.t0 {
			f = (pl.T - p.t0) / (p.t1 - p.t0)
		}
		pts := make([][2]float64, len(pl.Poses))
		for j, q := range pl.Poses {
			pts[j][0], pts[j][1] = v.pt(q)
		}
		style := `class="plan" stroke="` + planColour(f) + `" stroke-width="1.2" stroke-opacity="0.6"`
		if k == len(p.drawn)-1 {
			style = `class="plan final" stroke="` + planColour(f) + `" stroke-width="3.5" stroke-opacity="0.95"`
		}
		polyline(c, simplify(pts, 0.3), style)
	}
}

// markStep is the time between the dots on the trajectory, seconds.
func (p *picture) markStep() float64 { return max(1, niceStep(p.s.Time/8)) }

// timeMarks calls fn for every multiple t of markStep with the first pose
// at or after it, each pose at most once, so that a log whose times run
// far past the outcome's (malformed) still ends.
func (p *picture) timeMarks(fn func(t float64, at [3]float64)) {
	poses, step := p.l.Poses, p.markStep()
	j := 0
	for k := 1.0; ; k++ {
		t := k * step
		for j < len(poses) && poses[j].T < t-1e-6 {
			j++
		}
		if j == len(poses) {
			return
		}
		fn(t, poses[j].P)
		if j++; j < len(poses) {
			// Marks up to the next pose's time would all land on it: go
			// on from the last of them.
			if last := math.Floor((poses[j].T + 1e-6) / step); last > k+1 {
				k = last - 1
			}
		}
	}
}

// drawRobot draws the trajectory, its time dots, the start, the goals
// and the collisions.
func (p *picture) drawRobot(c *canvas, v *view) {
	l := p.l
	if len(l.Poses) > 0 {
		pts := make([][2]float64, len(l.Poses))
		for j, q := range l.Poses {
			pts[j][0], pts[j][1] = v.pt(q.P)
		}
		polyline(c, simplify(pts, 0.3), `class="trajectory" stroke="`+colTraj+`" stroke-width="2"`)
		p.timeMarks(func(_ float64, at [3]float64) {
			x, y := v.pt(at)
			c.f("<circle cx=\"%s\" cy=\"%s\" r=\"2.5\" fill=\"#fff\" stroke=\"%s\"/>\n", num(x), num(y), colTraj)
		})
	}
	if start, ok := p.start(); ok {
		x, y := v.pt(start)
		c.f("<circle cx=\"%s\" cy=\"%s\" r=\"5\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"1.5\"/>\n", num(x), num(y), colTraj)
	}
	goals := p.goals()
	for i, g := range goals {
		x, y := v.pt(g.P)
		if i < len(goals)-1 {
			c.f("<circle cx=\"%s\" cy=\"%s\" r=\"5.5\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/>\n", num(x), num(y), colOldGoal)
			continue
		}
		c.f("<circle cx=\"%s\" cy=\"%s\" r=\"6\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2.5\"/>", num(x), num(y), colGoal)
		c.f("<circle cx=\"%s\" cy=\"%s\" r=\"1.5\" fill=\"%s\"/>\n", num(x), num(y), colGoal)
	}
	for _, col := range l.Collisions {
		x, y := v.pt(col.P)
		c.f("<path d=\"M%s %sl10 10m0 -10l-10 10\" stroke=\"%s\" stroke-width=\"2.5\"><title>", num(x-5), num(y-5), colCollision)
		c.f("%s</title></path>\n", escape(fmt.Sprintf("collision with %s at t %s s", col.With, fmtNum(col.T))))
	}
}

// halo keeps a label readable over lines.
const halo = `stroke="#fff" stroke-width="3" paint-order="stroke"`

// labelMarkers names the start, the goals and the trajectory's dots in
// the top view, and adds where it wrote to placed. A dot's label goes
// where it covers no earlier label.
func (p *picture) labelMarkers(c *canvas, v *view, placed *[][4]float64) {
	// side writes a marker's label on its left (or right) unless that
	// leaves the panel.
	side := func(x, y float64, text string, left bool) {
		w := charW * 1.1 * float64(len([]rune(text)))
		x0 := x + 9
		if left && x-9-w >= v.x0 || !left && x+9+w > v.x0+v.w() {
			x0 = x - 9 - w
		}
		c.text(x0, y+4, `font-weight="bold" `+halo, text)
		*placed = append(*placed, [4]float64{x0, y - 8, x0 + w, y + 4})
	}
	if start, ok := p.start(); ok {
		x, y := v.pt(start)
		side(x, y, "start", true)
	}
	goals := p.goals()
	for i, g := range goals {
		x, y := v.pt(g.P)
		text := "goal"
		if len(goals) > 1 {
			text = fmt.Sprintf("goal %d (t %s s)", i+1, fmtT(g.T))
		}
		side(x, y, text, false)
	}
	p.timeMarks(func(t float64, at [3]float64) {
		x, y := v.pt(at)
		text := fmtNum(t) + " s"
		w := 5.6 * float64(len(text))
		var box [4]float64
		for k, off := range [][2]float64{{4, 13}, {-4 - w, -5}, {4, -5}, {-4 - w, 13}} {
			box = [4]float64{x + off[0], y + off[1] - 9, x + off[0] + w, y + off[1]}
			if !overlaps(*placed, box) || k == 3 {
				break
			}
		}
		*placed = append(*placed, box)
		c.text(box[0], box[3], `font-size="10" fill="#333" `+halo, text)
	})
}

// start returns where the robot started.
func (p *picture) start() ([3]float64, bool) {
	switch {
	case p.l.Mission.Type != "":
		return p.l.Mission.Start, true
	case len(p.l.Poses) > 0:
		return p.l.Poses[0].P, true
	}
	return [3]float64{}, false
}

// goals returns the goals sent, or the outcome's final goal.
func (p *picture) goals() []sim.GoalRecord {
	if len(p.l.Goals) == 0 && p.l.Outcome != nil && p.l.Outcome.Goal != nil {
		return []sim.GoalRecord{{T: p.l.Outcome.GoalTime, P: *p.l.Outcome.Goal}}
	}
	return p.l.Goals
}

// polyline writes a line through pts (pixels).
func polyline(c *canvas, pts [][2]float64, attrs string) {
	c.f("<polyline fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\" %s points=\"", attrs)
	for i, q := range pts {
		c.f("%s%s,%s", sep(i), num(q[0]), num(q[1]))
	}
	c.f("\"/>\n")
}

// simplify drops the points of a line that lie within tol of it
// (Douglas and Peucker's algorithm, 1973).
func simplify(pts [][2]float64, tol float64) [][2]float64 {
	n := len(pts)
	if n < 3 {
		return pts
	}
	p3 := func(q [2]float64) [3]float64 { return [3]float64{q[0], q[1], 0} }
	keep := make([]bool, n)
	keep[0], keep[n-1] = true, true
	stack := [][2]int{{0, n - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		worst, at := -1.0, -1
		for i := s[0] + 1; i < s[1]; i++ {
			if d := segDist(p3(pts[i]), p3(pts[s[0]]), p3(pts[s[1]])); d > worst {
				worst, at = d, i
			}
		}
		if worst > tol {
			keep[at] = true
			stack = append(stack, [2]int{s[0], at}, [2]int{at, s[1]})
		}
	}
	out := pts[:0:0]
	for i, k := range keep {
		if k {
			out = append(out, pts[i])
		}
	}
	return out
}
