package voxel

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// The map_server test counts each Nav2 map's pixels by class straight from
// the PGM with integer cut-offs worked out by hand from the YAML
// thresholds (negate 0: occupancy = (255 − v)/255), then checks the grid
// LoadMapServer returns and the voxels the grid extrudes to.
var nav2Maps = []struct {
	name string
	occ  int // v ≤ occ is occupied: 255 − v ≥ 255·occupied_thresh
	free int // v ≥ free is free:    255 − v ≤ 255·free_thresh
}{
	{"depot", 89, 192},             // 0.65 → 165.75; 0.25 → 63.75
	{"depot_keepout", 89, 192},     // same thresholds
	{"map_circular", 89, 206},      // 0.196 → 49.98
	{"tb3_sandbox", 89, 206},       // 0.196 → 49.98
	{"warehouse", 89, 230},         // 0.1 → 25.5
	{"warehouse_keepout", 89, 230}, // 0.1 → 25.5
}

// readP5 is a minimal independent reader of 8-bit binary PGM images.
func readP5(t *testing.T, path string) (w, h int, pix []byte) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	r := bufio.NewReader(bytes.NewReader(data))
	var fields []string
	for len(fields) < 4 {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields = append(fields, strings.Fields(line)...)
	}
	require.Equal(t, "P5", fields[0])
	var maxval int
	_, err = fmt.Sscan(fields[1]+" "+fields[2]+" "+fields[3], &w, &h, &maxval)
	require.NoError(t, err)
	require.Equal(t, 255, maxval, "the test reads 8-bit images only")
	pix = make([]byte, w*h)
	_, err = r.Read(pix[:0])
	require.NoError(t, err)
	n := 0
	for n < len(pix) {
		k, err := r.Read(pix[n:])
		require.NoError(t, err)
		n += k
	}
	return w, h, pix
}

func TestMapServerClassCounts(t *testing.T) {
	dir := shareddata.Path(t, "data", "nav2-maps")
	for _, tc := range nav2Maps {
		t.Run(tc.name, func(t *testing.T) {
			w, h, pix := readP5(t, filepath.Join(dir, tc.name+".pgm"))
			var occ, free, unk int
			for _, v := range pix {
				switch {
				case int(v) <= tc.occ:
					occ++
				case int(v) >= tc.free:
					free++
				default:
					unk++
				}
			}
			require.Positive(t, occ)
			require.Positive(t, free)

			g, err := LoadMapServer(filepath.Join(dir, tc.name+".yaml"))
			require.NoError(t, err)
			require.Equal(t, w, g.Width)
			require.Equal(t, h, g.Height)
			var gOcc, gFree, gUnk int
			for row := range h {
				for col := range w {
					v := pix[row*w+col]
					c := g.Cells[(h-1-row)*w+col] // image rows top down, grid rows bottom up
					want := int8(-1)
					if int(v) <= tc.occ {
						want = 100
					} else if int(v) >= tc.free {
						want = 0
					}
					require.Equal(t, want, c, "pixel row %d col %d value %d", row, col, v)
					switch c {
					case 100:
						gOcc++
					case 0:
						gFree++
					default:
						gUnk++
					}
				}
			}
			require.Equal(t, [3]int{occ, free, unk}, [3]int{gOcc, gFree, gUnk})
			t.Logf("%d×%d: %d occupied, %d free, %d unknown", w, h, occ, free, unk)

			// Extruded over three voxels at the grid's own resolution, every
			// cell is a column of three voxels of its class.
			g.ZMin, g.ZMax = 0, 2.5*g.Resolution
			m := newMap(t, Config{Resolution: g.Resolution, Origin: g.Origin})
			_, err = m.Apply(g)
			require.NoError(t, err)
			band := Box{Max: Key{int32(w) - 1, int32(h) - 1, 2}}
			require.Equal(t, [3]int{3 * occ, 3 * free, 3 * unk}, countClasses(m, band))
			require.Equal(t, 3*occ, countOccupied(m))
		})
	}
}

// loadSmallMap writes img and a YAML with the given extra lines, and loads it.
func loadSmallMap(t *testing.T, img []byte, yaml string) (*Grid, error) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.pgm"), img, 0o644))
	y := "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n" + yaml
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(y), 0o644))
	return LoadMapServer(filepath.Join(dir, "m.yaml"))
}

func TestMapServerModes(t *testing.T) {
	// A 4×1 image of values 0, 100, 200, 255.
	img := append([]byte("P5\n# test\n4 1\n255\n"), 0, 100, 200, 255)
	load := func(extra string) []int8 {
		g, err := loadSmallMap(t, img, "occupied_thresh: 0.65\nfree_thresh: 0.2\n"+extra)
		require.NoError(t, err)
		return g.Cells
	}
	// occupancy 1, 0.608, 0.216, 0
	require.Equal(t, []int8{100, -1, -1, 0}, load("negate: 0\n"))
	require.Equal(t, []int8{0, -1, 100, 100}, load("negate: 1\n")) // 0, 0.392, 0.784, 1
	// scale: between the thresholds, 99·(p − free)/(occ − free) rounded as map_io does.
	sc := load("mode: scale\nnegate: 0\n")
	require.Equal(t, int8(100), sc[0])
	require.Equal(t, int8(0), sc[3])
	require.True(t, sc[1] > sc[2] && sc[2] >= 0 && sc[1] < 100, "scale values %v", sc)
	require.Equal(t, []int8{0, 100, -1, -1}, load("mode: raw\nnegate: 0\n"))
}

func TestMapServerErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	write("ok.pgm", "P5 2 2 255\n\x00\x00\x00\x00")
	write("short.pgm", "P5 2 2 255\n\x00")
	write("huge.pgm", "P5 100000 100000 255\n\x00")
	write("png.pgm", "\x89PNG\r\n")
	for name, y := range map[string]string{
		"no image":    "resolution: 0.1\norigin: [0,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"bad mode":    "image: ok.pgm\nmode: fancy\nresolution: 0.1\norigin: [0,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"zero res":    "image: ok.pgm\nresolution: 0\norigin: [0,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"origin":      "image: ok.pgm\nresolution: 0.1\norigin: [0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"nan origin":  "image: ok.pgm\nresolution: 0.1\norigin: [.nan,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"thresholds":  "image: ok.pgm\nresolution: 0.1\norigin: [0,0,0]\noccupied_thresh: 0.2\nfree_thresh: 0.6\n",
		"short image": "image: short.pgm\nresolution: 0.1\norigin: [0,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"huge image":  "image: huge.pgm\nresolution: 0.1\norigin: [0,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"not pgm":     "image: png.pgm\nresolution: 0.1\norigin: [0,0,0]\noccupied_thresh: 0.6\nfree_thresh: 0.2\n",
		"not yaml":    "image: [ok.pgm\n",
	} {
		_, err := LoadMapServer(write("m.yaml", y))
		require.Error(t, err, name)
		require.NotContains(t, err.Error(), "panic", name)
	}
	_, err := LoadMapServer(filepath.Join(dir, "missing.yaml"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestMovingAIMaps(t *testing.T) {
	dir := shareddata.Path(t, "data", "movingai-voxel")
	for _, name := range []string{"Simple", "Complex", "DA1", "BC1"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name+".3dmap"))
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			var w, h, d int32
			_, err = fmt.Sscanf(lines[0], "voxel %d %d %d", &w, &h, &d)
			require.NoError(t, err)
			distinct := map[Key]bool{}
			for _, l := range lines[1:] {
				var k Key
				_, err := fmt.Sscanf(l, "%d %d %d", &k.X, &k.Y, &k.Z)
				require.NoError(t, err, l)
				distinct[k] = true
			}

			s, err := LoadMovingAI(filepath.Join(dir, name+".3dmap"))
			require.NoError(t, err)
			require.Equal(t, Box{Max: Key{w - 1, h - 1, d - 1}}, s.Box)
			require.Len(t, s.Blocked, len(lines)-1)

			m := newMap(t, Config{Resolution: 1})
			cs, err := m.Apply(s)
			require.NoError(t, err)
			require.Equal(t, s.Box, cs.Bounds)
			n := int(w) * int(h) * int(d)
			require.Equal(t, [3]int{len(distinct), n - len(distinct), 0}, countClasses(m, s.Box))
			require.Equal(t, len(distinct), countOccupied(m))
			for k := range distinct {
				require.True(t, m.Occupied(k), "%v", k)
			}
			require.Equal(t, Unknown, m.Cost(Key{-1, 0, 0}))
			require.Equal(t, Unknown, m.Cost(Key{w, h, d}))
		})
	}
}

func TestMovingAIErrors(t *testing.T) {
	for name, text := range map[string]string{
		"empty":        "",
		"header":       "voxels 3 3 3\n",
		"zero size":    "voxel 0 3 3\n",
		"negative":     "voxel 3 -3 3\n",
		"huge":         "voxel 100000 100000 100000\n",
		"outside":      "voxel 3 3 3\n1 1 3\n",
		"garbage":      "voxel 3 3 3\n1 x 1\n",
		"short line":   "voxel 3 3 3\n1 1\n",
		"overflow int": "voxel 3 3 3\n99999999999 1 1\n",
	} {
		_, err := ReadMovingAI(strings.NewReader(text))
		require.Error(t, err, name)
	}
}

// countClasses counts the occupied, free and unknown voxels of box b.
func countClasses(m *Map, b Box) (n [3]int) {
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				switch k := (Key{x, y, z}); {
				case m.Occupied(k):
					n[0]++
				case m.Known(k):
					n[1]++
				default:
					n[2]++
				}
			}
		}
	}
	return n
}

func countOccupied(m *Map) (n int) {
	m.ForEachOccupied(func(Key) bool { n++; return true })
	return n
}

// TestGridAligned: a grid on the map's own voxel columns is copied cell
// for cell; resampled to half the resolution (the general path), each
// cell becomes 2×2 columns of the same state.
func TestGridAligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	g := &Grid{Width: 37, Height: 23, Resolution: 0.1, Origin: vec(-1.2, 0.7, 0), Cells: make([]int8, 37*23), ZMax: 0.3, Unknown: UnknownIsFree}
	for i := range g.Cells {
		g.Cells[i] = int8(rng.IntN(102) - 1)
	}
	g.OccupiedThreshold = 65
	f := Frame{Origin: vec(0.3, -0.2, 0), Resolution: 0.1}
	require.True(t, g.alignedWith(f))
	fine := Frame{Origin: f.Origin, Resolution: 0.05}
	a, err := g.columns(f)
	require.NoError(t, err)
	b, err := g.columns(fine)
	require.NoError(t, err)
	for j := range g.Height {
		for i := range g.Width {
			want := g.state(g.Cells[i+j*g.Width])
			k, _ := f.KeyOf(g.Origin.Add(vec((float64(i)+0.5)*0.1, (float64(j)+0.5)*0.1, 0.05)))
			require.Equal(t, want, a.state[(k.X-a.box.Min.X)+(k.Y-a.box.Min.Y)*a.w])
			for _, d := range [][2]float64{{0.25, 0.25}, {0.75, 0.75}} {
				k, _ := fine.KeyOf(g.Origin.Add(vec((float64(i)+d[0])*0.1, (float64(j)+d[1])*0.1, 0.05)))
				require.Equal(t, want, b.state[(k.X-b.box.Min.X)+(k.Y-b.box.Min.Y)*b.w])
			}
		}
	}
}

// clipArea returns the area of the convex polygon p (counter-clockwise)
// clipped to the square [x, x+1] × [y, y+1] (Sutherland–Hodgman: one
// half-plane q[axis]·side ≥ bound·side at a time).
func clipArea(p [][2]float64, x, y float64) float64 {
	for _, h := range []struct {
		axis        int
		bound, side float64
	}{{0, x, 1}, {0, x + 1, -1}, {1, y, 1}, {1, y + 1, -1}} {
		inside := func(q [2]float64) bool { return (q[h.axis]-h.bound)*h.side >= 0 }
		cut := func(a, b [2]float64) [2]float64 {
			t := (h.bound - a[h.axis]) / (b[h.axis] - a[h.axis])
			q := [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
			q[h.axis] = h.bound
			return q
		}
		var out [][2]float64
		for i := range p {
			a, b := p[i], p[(i+1)%len(p)]
			switch ina, inb := inside(a), inside(b); {
			case ina && inb:
				out = append(out, b)
			case ina:
				out = append(out, cut(a, b))
			case inb:
				out = append(out, cut(a, b), b)
			}
		}
		if p = out; len(p) == 0 {
			return 0
		}
	}
	area := 0.0
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		area += a[0]*b[1] - b[0]*a[1]
	}
	return area / 2
}

// TestRotatedGridColumns: a grid turned about z marks each voxel column
// with the most conservative state among the cells that overlap it with
// positive area (a brute-force polygon clipping), and no column more.
func TestRotatedGridColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 43))
	rank := [...]uint8{free: 0, unknown: 1, occupied: 2}
	for round := range 40 {
		w, h := 3+rng.IntN(6), 3+rng.IntN(6)
		g := &Grid{Width: w, Height: h, Resolution: []float64{0.05, 0.1, 0.13, 0.2}[rng.IntN(4)],
			Origin: vec(rng.Float64()-0.5, rng.Float64()-0.5, 0), Yaw: []float64{0.3, math.Pi / 4, -1.1, 2.5}[rng.IntN(4)],
			Cells: make([]int8, w*h), ZMax: 0.3}
		for i := range g.Cells {
			g.Cells[i] = []int8{-1, 0, 0, 100}[rng.IntN(4)]
		}
		f := Frame{Resolution: 0.1}
		c, err := g.columns(f)
		require.NoError(t, err)
		sin, cos := math.Sincos(g.Yaw)
		corner := func(i, j float64) [2]float64 {
			return [2]float64{(g.Origin.X + (i*cos-j*sin)*g.Resolution) / f.Resolution, (g.Origin.Y + (i*sin+j*cos)*g.Resolution) / f.Resolution}
		}
		for y := c.box.Min.Y; y <= c.box.Max.Y; y++ {
			for x := c.box.Min.X; x <= c.box.Max.X; x++ {
				want, seen := uint8(unknown), false
				for j := range h {
					for i := range w {
						fi, fj := float64(i), float64(j)
						cell := [][2]float64{corner(fi, fj), corner(fi+1, fj), corner(fi+1, fj+1), corner(fi, fj+1)}
						if clipArea(cell, float64(x), float64(y)) <= 1e-9 {
							continue
						}
						if s := g.state(g.Cells[i+j*w]); !seen || rank[s] > rank[want] {
							want, seen = s, true
						}
					}
				}
				require.Equal(t, want, c.state[(x-c.box.Min.X)+(y-c.box.Min.Y)*c.w], "round %d: column (%d, %d)", round, x, y)
			}
		}
	}
}
