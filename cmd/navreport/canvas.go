package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// canvas collects SVG text.
type canvas struct{ b bytes.Buffer }

func (c *canvas) f(format string, a ...any) { fmt.Fprintf(&c.b, format, a...) }

// text writes one line of text at (x, y), escaped.
func (c *canvas) text(x, y float64, attrs, s string) {
	if attrs != "" {
		attrs = " " + attrs
	}
	c.f("<text x=\"%s\" y=\"%s\"%s>", num(x), num(y), attrs)
	xml.EscapeText(&c.b, []byte(s))
	c.f("</text>\n")
}

// escape escapes text for XML.
func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// num formats a pixel coordinate, to a tenth.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10+0, 'f', -1, 64) }

// fmtNum formats metres or seconds for people, to a hundredth at most.
func fmtNum(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100+0, 'f', -1, 64) }

// fmtT formats seconds for a label, to a tenth.
func fmtT(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10+0, 'f', -1, 64) }

// niceStep returns 1, 2 or 5 times a power of ten, at least v.
func niceStep(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// ticks returns the multiples of step in [lo, hi].
func ticks(lo, hi, step float64) []float64 {
	var out []float64
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+1e-9 && len(out) < 200; k++ {
		out = append(out, k*step)
	}
	return out
}

// planColour returns the colour of a plan at f in [0, 1] from early to
// late, interpolated between planStops.
func planColour(f float64) string {
	f = max(0, min(1, f)) * float64(len(planStops)-1)
	i := min(int(f), len(planStops)-2)
	a, b := rgb(planStops[i]), rgb(planStops[i+1])
	g := f - float64(i)
	var out [3]int
	for k := range out {
		out[k] = int(math.Round(float64(a[k]) + g*float64(b[k]-a[k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", out[0], out[1], out[2])
}

func rgb(hex string) [3]int {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	return [3]int{int(v >> 16 & 255), int(v >> 8 & 255), int(v & 255)}
}

// wrap breaks text into lines of at most n characters, at spaces.
func wrap(text string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > n {
			lines, line = append(lines, line), ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
