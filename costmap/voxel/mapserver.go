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
	Negate         int       `yaml:"negate"`
	OccupiedThresh float64   `yaml:"occupied_thresh"`
	FreeThresh     float64   `yaml:"free_thresh"`
}

// LoadMapServer reads a map_server YAML file and its PGM image and returns
// the occupancy grid map_server would publish, as Nav2's map_io converts
// it: a pixel's occupancy is 1 − value/255 (value/255 with negate); in
// trinary mode ≥ occupied_thresh is 100, ≤ free_thresh is 0, the rest −1;
// in scale mode the rest is scaled to 0..100; in raw mode the value itself,
// −1 outside 0..100. Image rows run top down, grid rows bottom up. Only PGM
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

// grid converts the image as Nav2's map_io does, in float32 as it does.
func (mf *MapFile) grid(p *pgm) *Grid {
	g := &Grid{Width: p.w, Height: p.h, Resolution: mf.Resolution,
		Origin: r3.Vector{X: mf.Origin[0], Y: mf.Origin[1]}, Yaw: mf.Origin[2], Cells: make([]int8, p.w*p.h)}
	for y := range p.h {
		for x := range p.w {
			g.Cells[x+(p.h-1-y)*p.w] = mf.cell(p.gray[x+y*p.w])
		}
	}
	return g
}

func (mf *MapFile) cell(gray uint8) int8 {
	if mf.Mode == "raw" {
		if gray > 100 {
			return -1
		}
		return int8(gray)
	}
	n := float32(gray) / 255
	if mf.Negate == 0 {
		n = 1 - n
	}
	v := float64(n)
	switch {
	case v <= mf.FreeThresh:
		return 0
	case v >= mf.OccupiedThresh:
		return 100
	case mf.Mode == "scale":
		return int8(math.Round(float64(float32((v - mf.FreeThresh) / (mf.OccupiedThresh - mf.FreeThresh) * 100))))
	}
	return -1
}

// pgm is an 8-bit grayscale image.
type pgm struct {
	w, h int
	gray []uint8 // rows top down
}

// maxImagePixels bounds a map image: 2^28 pixels.
const maxImagePixels = 1 << 28

// readPGM reads a binary (P5) or plain (P2) PGM; 16-bit samples are scaled
// to 8 bits.
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
	p := &pgm{w: w, h: h, gray: make([]uint8, w*h)}
	scale := func(v int) uint8 { return uint8((v*255 + maxval/2) / maxval) }
	if magic == "P2" {
		for i := range p.gray {
			t, err := pgmToken(r)
			if err != nil {
				return nil, fmt.Errorf("%w: PGM pixel %d: %v", ErrFormat, i, err)
			}
			v, err := strconv.Atoi(t)
			if err != nil || v < 0 || v > maxval {
				return nil, fmt.Errorf("%w: PGM pixel %d: %q", ErrFormat, i, t)
			}
			p.gray[i] = scale(v)
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
	for i := range p.gray {
		v := int(raw[i])
		if size == 2 {
			v = int(raw[2*i])<<8 | int(raw[2*i+1])
		}
		if v > maxval {
			return nil, fmt.Errorf("%w: PGM pixel %d is %d > maxval %d", ErrFormat, i, v, maxval)
		}
		p.gray[i] = scale(v)
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
