package main

import (
	"github.com/navnode/navnode/sim"
)

// lifetime is one dynamic obstacle from when it was added until it was
// deleted or replaced, or the mission ended.
type lifetime struct {
	id      string
	t0, t1  float64 // seconds
	deleted bool
	toEnd   bool              // still there when the mission ended
	at      []sim.ShapeRecord // where it was: when added, then after each move
	times   []float64         // when it got there [len = len(at)]
}

// lifetimes follows the obstacle records; end is when the mission ended.
func lifetimes(obs []sim.ObstacleRecord, end float64) []lifetime {
	var out []lifetime
	open := map[string]int{}
	for _, r := range obs {
		i, ok := open[r.ID]
		switch {
		case r.Action == sim.Delete:
			if ok {
				out[i].t1, out[i].deleted = r.T, true
				delete(open, r.ID)
			}
		case r.Shape == nil: // nothing to draw
		case r.Action == sim.Move && ok:
			out[i].at, out[i].times = append(out[i].at, *r.Shape), append(out[i].times, r.T)
		default: // an add (a replacement, if the id exists), or a move of an obstacle never added
			if ok {
				out[i].t1 = r.T
			}
			open[r.ID] = len(out)
			out = append(out, lifetime{id: r.ID, t0: r.T, at: []sim.ShapeRecord{*r.Shape}, times: []float64{r.T}})
		}
	}
	for _, i := range open {
		lt := &out[i]
		lt.t1, lt.toEnd = max(end, lt.times[len(lt.times)-1]), true
	}
	return out
}

// label is what the top view writes next to the obstacle.
func (lt *lifetime) label() string {
	s := lt.id + " t " + fmtT(lt.t0) + "–" + fmtT(lt.t1) + " s"
	if lt.toEnd {
		s = lt.id + " t " + fmtT(lt.t0) + " s–end"
	}
	if n := len(lt.times); n > 1 {
		s += ", moving " + fmtT(lt.times[1]) + "–" + fmtT(lt.times[n-1]) + " s"
	}
	return s
}

// obstacleStyle is how an obstacle is drawn: dashed once deleted.
func obstacleStyle(lt *lifetime) string {
	s := `fill="` + colObstacle + `" fill-opacity="0.18" stroke="` + colObstacle + `" stroke-width="1.5"`
	if lt.deleted {
		s += ` stroke-dasharray="4 2"`
	}
	return s
}

// drawObstacles draws each dynamic obstacle where it appeared and, if it
// moved, its trail: the path of its centre, a few faint outlines on the
// way and where it ended.
func (p *picture) drawObstacles(c *canvas, v *view) {
	for i := range p.lives {
		lt := &p.lives[i]
		if n := len(lt.at); n > 1 {
			pts := make([][2]float64, n)
			for j := range lt.at {
				pts[j][0], pts[j][1] = v.pt(lt.at[j].Center)
			}
			polyline(c, simplify(pts, 0.3), `stroke="`+colObstacle+`" stroke-width="1.2" stroke-dasharray="1 2"`)
			step := max(1, n/6)
			for j := step; j < n-1; j += step {
				shapeEl(c, v, &lt.at[j], `fill="none" stroke="`+colObstacle+`" stroke-opacity="0.35"`)
			}
			shapeEl(c, v, &lt.at[n-1], obstacleStyle(lt))
		}
		shapeEl(c, v, &lt.at[0], obstacleStyle(lt))
	}
}

// labelObstacles writes each obstacle's id and lifetime above where it
// appeared, or below, or further up, wherever it covers no label placed.
func (p *picture) labelObstacles(c *canvas, v *view, placed *[][4]float64) {
	for i := range p.lives {
		lt := &p.lives[i]
		b := lt.at[0].Shape().Bounds()
		x, top := v.at(b.Min.X, b.Max.Y)
		_, bottom := v.at(b.Min.X, b.Min.Y)
		text := lt.label()
		w := charW * 0.95 * float64(len([]rune(text)))
		x = max(v.x0+2, min(x, v.x0+v.w()-w-2))
		ys := []float64{top - 4, bottom + 13}
		for k := 1; k <= 5; k++ {
			ys = append(ys, top-4-13*float64(k))
		}
		y := ys[0]
		for _, cand := range ys {
			if !overlaps(*placed, [4]float64{x, cand - 11, x + w, cand}) {
				y = cand
				break
			}
		}
		*placed = append(*placed, [4]float64{x, y - 11, x + w, y})
		c.text(x, y, `font-size="11" font-weight="bold" fill="`+colObstacle+`" `+halo, text)
	}
}

// overlaps reports whether box b (x0, y0, x1, y1, pixels) meets any of
// boxes.
func overlaps(boxes [][4]float64, b [4]float64) bool {
	for _, a := range boxes {
		if a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] {
			return true
		}
	}
	return false
}
