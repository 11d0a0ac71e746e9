package voxel

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/golang/geo/r3"
	"go.yaml.in/yaml/v3"
)

// MapFile is a ROS map_server map: the YAML description and its image.
type MapFile struct {
	Image          string    `yaml:"image"`
	Mode           string    `yaml:"mode"` // trinary (default), scale or raw
	Resolution     float64   `yaml:"resolution"`
	Origin         []float64 `yaml:"origin"` // x, y, yaw
	Negate         Negate    `yaml:"negate"`
	OccupiedThresh float64   `yaml:"occupied_thresh"`
	FreeThresh     float64   `yaml:"free_thresh"`
}

// Negate is map_server's negate flag: an integer (non-zero negates) or,
// as Nav2 falls back to, a boolean.
type Negate int

// UnmarshalYAML reads an integer, else a boolean.
func (n *Negate) UnmarshalYAML(v *yaml.Node) error {
	var i int
	if err := v.Decode(&i); err == nil {
		*n = Negate(i)
		return nil
	}
	var b bool
	if err := v.Decode(&b); err != nil {
		return fmt.Errorf("negate %q: want an integer or a boolean", v.Value)
	}
	*n = 0
	if b {
		*n = 1
	}
	return nil
}

// LoadMapServer reads a map_server YAML file and its PGM image and returns
// the occupancy grid map_server would publish, as Nav2's map_io converts
// it, in double precision: a pixel's shade is its value over maxval, as
// GraphicsMagick (16-bit quanta) reads it, and its occupancy 1 − shade
// (shade with negate). In trinary mode occupancy above occupied_thresh is
// 100, below free_thresh 0, the rest −1; in scale mode the rest is scaled
// to 0..100 and rounded half to even; in raw mode round(shade × 255), −1
// outside 0..100. Image rows run top down, grid rows bottom up. Only PGM
// images (P5 and P2, 8 or 16 bits) are read; ZMin and ZMax are left zero
// for the caller to set.
func LoadMapServer(yamlPath string) (*Grid, error) {
	text, err := os.ReadFile(yamlPath)
	if err != nil {
		return nil, err
	}
	var mf MapFile
	if err := yaml.Unmarshal(text, &mf); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFormat, yamlPath, err)
	}
	if err := mf.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", yamlPath, err)
	}
	img := mf.Image
	if !filepath.IsAbs(img) {
		img = filepath.Join(filepath.Dir(yamlPath), img)
	}
	f, err := os.Open(img)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pgm, err := readPGM(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", img, err)
	}
	return mf.grid(pgm), nil
}

func (mf *MapFile) check() error {
	if mf.Mode == "" {
		mf.Mode = "trinary"
	}
	switch {
	case mf.Image == "":
		return fmt.Errorf("%w: no image", ErrFormat)
	case mf.Mode != "trinary" && mf.Mode != "scale" && mf.Mode != "raw":
		return fmt.Errorf("%w: mode %q: want trinary, scale or raw", ErrFormat, mf.Mode)
	case !(mf.Resolution > 0) || math.IsInf(mf.Resolution, 0):
		return fmt.Errorf("%w: resolution %v", ErrFormat, mf.Resolution)
	case len(mf.Origin) != 3:
		return fmt.Errorf("%w: origin should have 3 elements, not %d", ErrFormat, len(mf.Origin))
	case mf.Mode != "raw" && !(mf.FreeThresh >= 0 && mf.FreeThresh < mf.OccupiedThresh && mf.OccupiedThresh <= 1):
		return fmt.Errorf("%w: thresholds free %v occupied %v", ErrFormat, mf.FreeThresh, mf.OccupiedThresh)
	}
	for _, v := range mf.Origin {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: origin %v", ErrFormat, mf.Origin)
		}
	}
	return nil
}

// grid converts the image as Nav2's map_io does.
func (mf *MapFile) grid(p *pgm) *Grid {
	g := &Grid{Width: p.w, Height: p.h, Resolution: mf.Resolution,
		Origin: r3.Vector{X: mf.Origin[0], Y: mf.Origin[1]}, Yaw: mf.Origin[2], Cells: make([]int8, p.w*p.h)}
	for y := range p.h {
		for x := range p.w {
			g.Cells[x+(p.h-1-y)*p.w] = mf.cell(float64(p.quanta[x+y*p.w]) / maxQuantum)
		}
	}
	return g
}

// cell is map_io's value for a pixel of the given shade (0 black, 1
// white).
func (mf *MapFile) cell(shade float64) int8 {
	if mf.Mode == "raw" {
		if v := math.Round(shade * 255); v <= 100 {
			return int8(v)
		}
		return -1
	}
	occ := 1 - shade
	if mf.Negate != 0 {
		occ = shade
	}
	switch {
	case mf.OccupiedThresh < occ:
		return 100
	case occ < mf.FreeThresh:
		return 0
	case mf.Mode == "scale":
		return int8(math.RoundToEven((occ - mf.FreeThresh) / (mf.OccupiedThresh - mf.FreeThresh) * 100))
	}
	return -1
}

// pgm is a grayscale image, its samples scaled to 16-bit quanta as
// GraphicsMagick's 16-bit build (Ubuntu's, which map_server links) reads
// them.
type pgm struct {
	w, h   int
	quanta []uint16 // rows top down
}

// maxQuantum is the largest 16-bit quantum, white.
const maxQuantum = 65535

// maxImagePixels bounds a map image: 2^28 pixels.
const maxImagePixels = 1 << 28

// readPGM reads a binary (P5) or plain (P2) PGM, 8 or 16 bits a sample.
func readPGM(r *bufio.Reader) (*pgm, error) {
	magic, err := pgmToken(r)
	if err != nil || (magic != "P5" && magic != "P2") {
		return nil, fmt.Errorf("%w: not a PGM image (magic %q); only PGM is supported", ErrFormat, magic)
	}
	var hdr [3]int
	for i := range hdr {
		t, err := pgmToken(r)
		if err != nil {
			return nil, fmt.Errorf("%w: PGM header: %v", ErrFormat, err)
		}
		if hdr[i], err = strconv.Atoi(t); err != nil || hdr[i] <= 0 {
			return nil, fmt.Errorf("%w: PGM header value %q", ErrFormat, t)
		}
	}
	w, h, maxval := hdr[0], hdr[1], hdr[2]
	if w*h > maxImagePixels || w > maxImagePixels || h > maxImagePixels || maxval > 65535 {
		return nil, fmt.Errorf("%w: PGM of %d×%d, maxval %d", ErrFormat, w, h, maxval)
	}
	p := &pgm{w: w, h: h, quanta: make([]uint16, w*h)}
	scale := func(v int) uint16 { return uint16(float64(maxQuantum)*float64(v)/float64(maxval) + 0.5) }
	if magic == "P2" {
		for i := range p.quanta {
			t, err := pgmToken(r)
			if err != nil {
				return nil, fmt.Errorf("%w: PGM pixel %d: %v", ErrFormat, i, err)
			}
			v, err := strconv.Atoi(t)
			if err != nil || v < 0 || v > maxval {
				return nil, fmt.Errorf("%w: PGM pixel %d: %q", ErrFormat, i, t)
			}
			p.quanta[i] = scale(v)
		}
		return p, nil
	}
	size := 1
	if maxval > 255 {
		size = 2
	}
	raw := make([]byte, w*h*size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, fmt.Errorf("%w: PGM pixels: %v", ErrFormat, err)
	}
	for i := range p.quanta {
		v := int(raw[i])
		if size == 2 {
			v = int(raw[2*i])<<8 | int(raw[2*i+1])
		}
		if v > maxval {
			return nil, fmt.Errorf("%w: PGM pixel %d is %d > maxval %d", ErrFormat, i, v, maxval)
		}
		p.quanta[i] = scale(v)
	}
	return p, nil
}

// pgmToken reads one whitespace-separated header token, skipping comments,
// and the single whitespace byte after it.
func pgmToken(r *bufio.Reader) (string, error) {
	var tok bytes.Buffer
	for {
		c, err := r.ReadByte()
		if err != nil {
			if tok.Len() > 0 && err == io.EOF {
				return tok.String(), nil
			}
			return "", err
		}
		switch {
		case c == '#' && tok.Len() == 0:
			if _, err := r.ReadString('\n'); err != nil {
				return "", err
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if tok.Len() > 0 {
				return tok.String(), nil
			}
		default:
			if tok.WriteByte(c); tok.Len() > 20 {
				return "", fmt.Errorf("token too long")
			}
		}
	}
}
