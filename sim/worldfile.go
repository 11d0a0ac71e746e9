package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/golang/geo/r3"
	"go.yaml.in/yaml/v3"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/shareddata"
)

// maxFileBytes bounds a world or scenario file.
const maxFileBytes = 4 << 20

// maxShapes bounds the shapes of a world file and the events of a
// scenario.
const maxShapes = 10000

// worldDoc is a world file (sim/doc.go describes it).
type worldDoc struct {
	Bounds *struct {
		Min []float64 `yaml:"min"`
		Max []float64 `yaml:"max"`
	} `yaml:"bounds"`
	Map        string     `yaml:"map"`
	WallHeight float64    `yaml:"wall_height"`
	MovingAI   string     `yaml:"movingai"`
	Resolution float64    `yaml:"resolution"`
	Origin     []float64  `yaml:"origin"`
	Start      []float64  `yaml:"start"`
	Boxes      []shapeDoc `yaml:"boxes"`
	Cylinders  []shapeDoc `yaml:"cylinders"`
	Spheres    []shapeDoc `yaml:"spheres"`
}

// shapeDoc is a shape in YAML: which fields apply depends on its kind.
type shapeDoc struct {
	Center []float64 `yaml:"center"`
	Size   []float64 `yaml:"size"`
	Yaw    float64   `yaml:"yaw"`
	Radius float64   `yaml:"radius"`
	Height float64   `yaml:"height"`
}

// shape converts a shapeDoc of kind k. A shape placedAhead (a scenario
// obstacle placed on the plan) takes no centre and is at the origin;
// any other needs one.
func (d *shapeDoc) shape(k Kind, placedAhead bool) (Shape, error) {
	s := Shape{Kind: k, Yaw: d.Yaw, Radius: d.Radius, Height: d.Height}
	var err error
	if placedAhead && d.Center != nil {
		return s, errors.New("center: the obstacle is placed by ahead; give one or the other")
	}
	if !placedAhead {
		if s.Center, err = vec3("center", d.Center); err != nil {
			return s, err
		}
	}
	switch k {
	case KindBox:
		if s.Size, err = vec3("size", d.Size); err != nil {
			return s, err
		}
		if d.Radius != 0 || d.Height != 0 {
			return s, errors.New("a box has a size, not a radius or height")
		}
	case KindCylinder:
		if d.Size != nil || d.Yaw != 0 {
			return s, errors.New("a cylinder has a radius and height, not a size or yaw")
		}
	case KindSphere:
		if d.Size != nil || d.Yaw != 0 || d.Height != 0 {
			return s, errors.New("a sphere has a radius only")
		}
	}
	return s, s.Check()
}

// vec3 reads [x, y, z].
func vec3(name string, v []float64) (r3.Vector, error) {
	if len(v) != 3 {
		return r3.Vector{}, fmt.Errorf("%s: want [x, y, z], got %d numbers", name, len(v))
	}
	p := r3.Vector{X: v[0], Y: v[1], Z: v[2]}
	if !finiteVec(p) || max(abs(p.X), abs(p.Y), abs(p.Z)) > maxExtent {
		return r3.Vector{}, fmt.Errorf("%s: %v is not finite or beyond %g m", name, v, float64(maxExtent))
	}
	return p, nil
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// decodeStrict decodes one YAML document into v, refusing unknown keys,
// files over maxFileBytes and files of more than one document.
func decodeStrict(r io.Reader, v any) error {
	text, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return err
	}
	if len(text) > maxFileBytes {
		return fmt.Errorf("larger than %d bytes", maxFileBytes)
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("empty file")
		}
		return err
	}
	for { // only empty documents may follow
		var more yaml.Node
		switch err := dec.Decode(&more); {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		if c := more.Content; len(c) > 0 && !(c[0].Kind == yaml.ScalarNode && c[0].Tag == "!!null") {
			return fmt.Errorf("a second YAML document at line %d: a file holds one", c[0].Line)
		}
	}
}

// LoadWorld reads a world file.
func LoadWorld(path string) (*World, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrWorld, err)
	}
	defer f.Close()
	var d worldDoc
	if err := decodeStrict(f, &d); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrWorld, path, err)
	}
	w, err := d.world(path, filepath.Dir(path))
	if errors.Is(err, ErrWorld) {
		return nil, err // it names the world file already
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrWorld, path, err)
	}
	return w, nil
}

// world builds the world a document describes; relative file names are
// taken from dir.
func (d *worldDoc) world(name, dir string) (*World, error) {
	w := &World{Name: name, WallHeight: d.WallHeight, Resolution: d.Resolution}
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	if len(d.Boxes)+len(d.Cylinders)+len(d.Spheres) > maxShapes {
		return nil, fmt.Errorf("more than %d shapes", maxShapes)
	}
	for _, list := range []struct {
		name string
		kind Kind
		docs []shapeDoc
	}{{"boxes", KindBox, d.Boxes}, {"cylinders", KindCylinder, d.Cylinders}, {"spheres", KindSphere, d.Spheres}} {
		for i := range list.docs {
			s, err := list.docs[i].shape(list.kind, false)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %v", list.name, i, err)
			}
			w.Static = append(w.Static, s)
		}
	}
	var ext Bounds
	var vox *voxel.StaticVoxels
	if d.Map != "" {
		g, err := voxel.LoadMapServer(rel(d.Map))
		if err != nil {
			return nil, fmt.Errorf("map: %v", err)
		}
		w.MapFile, w.Grid = rel(d.Map), g
		if w.WallHeight == 0 {
			w.WallHeight = 2
		}
		ext = gridExtent(g, w.WallHeight)
	}
	if d.MovingAI != "" {
		if !(d.Resolution > 0 && d.Resolution <= 10) {
			return nil, fmt.Errorf("movingai needs a resolution in (0, 10] m, not %v", d.Resolution)
		}
		if d.Origin != nil {
			var err error
			if w.Origin, err = vec3("origin", d.Origin); err != nil {
				return nil, err
			}
		}
		var err error
		if vox, err = voxel.LoadMovingAI(rel(d.MovingAI)); err != nil {
			return nil, fmt.Errorf("movingai: %v", err)
		}
		w.MovingAI = rel(d.MovingAI)
		n := vox.Box.Max
		top := w.Origin.Add(r3.Vector{X: float64(n.X + 1), Y: float64(n.Y + 1), Z: float64(n.Z + 1)}.Mul(d.Resolution))
		ext = Bounds{Min: w.Origin, Max: top}
	} else if d.Resolution != 0 || d.Origin != nil {
		return nil, errors.New("resolution and origin belong to a movingai map")
	}
	if d.Map == "" && d.WallHeight != 0 {
		return nil, errors.New("wall_height belongs to a map")
	}
	switch {
	case d.Bounds != nil:
		var err error
		if w.Bounds.Min, err = vec3("bounds.min", d.Bounds.Min); err != nil {
			return nil, err
		}
		if w.Bounds.Max, err = vec3("bounds.max", d.Bounds.Max); err != nil {
			return nil, err
		}
	case d.Map != "" || d.MovingAI != "":
		w.Bounds = ext
	default:
		return nil, errors.New("bounds: a world without a map needs bounds {min: [x, y, z], max: [x, y, z]}")
	}
	if d.Start != nil {
		p, err := vec3("start", d.Start)
		if err != nil {
			return nil, err
		}
		w.Start = &p
	}
	return newWorld(w, vox)
}

// gridExtent returns the bounding box of a grid's walls.
func gridExtent(g *voxel.Grid, height float64) Bounds {
	c, sn := math.Cos(g.Yaw), math.Sin(g.Yaw)
	w, h := float64(g.Width)*g.Resolution, float64(g.Height)*g.Resolution
	b := Bounds{Min: r3.Vector{X: math.Inf(1), Y: math.Inf(1)}, Max: r3.Vector{X: math.Inf(-1), Y: math.Inf(-1), Z: height}}
	for _, p := range [][2]float64{{0, 0}, {w, 0}, {0, h}, {w, h}} {
		x, y := g.Origin.X+c*p[0]-sn*p[1], g.Origin.Y+sn*p[0]+c*p[1]
		b.Min.X, b.Min.Y = min(b.Min.X, x), min(b.Min.Y, y)
		b.Max.X, b.Max.Y = max(b.Max.X, x), max(b.Max.Y, y)
	}
	return b
}

// Builtin names the worlds navsim knows without a file: the Nav2 maps
// depot and warehouse (walls 2 m tall) and the Moving AI map Simple at
// 0.25 m, all read from the shared data directory
// (internal/shareddata).
var Builtin = []string{"depot", "warehouse", "simple"}

// builtin describes each built-in world as a world document, with file
// names relative to the shared data directory.
var builtin = map[string]worldDoc{
	"depot":     {Map: "data/nav2-maps/depot.yaml", WallHeight: 2, Start: []float64{4, 9.2, 0}},
	"warehouse": {Map: "data/nav2-maps/warehouse.yaml", WallHeight: 2, Start: []float64{0, 3, 0}},
	"simple": {MovingAI: "data/movingai-voxel/Simple.3dmap", Resolution: 0.25,
		Start: []float64{14.125, 19.125, 13.125}},
}

// ResolveWorld returns the world ref names: a built-in name, or a world
// file, relative to dir when not absolute. The world's Name and file
// names are absolute paths, but for built-in worlds, named by name.
func ResolveWorld(ref, dir string) (*World, error) {
	if d, ok := builtin[ref]; ok {
		root, err := shareddata.Root()
		if err != nil {
			return nil, fmt.Errorf("%w: built-in world %s reads navnode's shared data (Nav2 and Moving AI maps): "+
				"set NAVNODE_SHARED to its directory, or start from a checkout with ../shared beside it (%v)", ErrWorld, ref, err)
		}
		w, err := d.world(ref, root)
		if err != nil {
			return nil, fmt.Errorf("%w: built-in world %s: %v (is the shared data directory at %s? set NAVNODE_SHARED)", ErrWorld, ref, err, root)
		}
		return w, nil
	}
	if ref == "" {
		return nil, fmt.Errorf("%w: no world given: a built-in name (%s) or a world file", ErrWorld, strings.Join(Builtin, ", "))
	}
	if !filepath.IsAbs(ref) {
		ref = filepath.Join(dir, ref)
	}
	if abs, err := filepath.Abs(ref); err == nil {
		ref = abs // logs name the files wherever they are read
	}
	return LoadWorld(ref)
}
