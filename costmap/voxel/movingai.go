package voxel

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// StaticVoxels is a 3D static map: every voxel of Box is free except the
// Blocked ones; voxels outside Box are unknown. Applying it replaces the
// static layer.
type StaticVoxels struct {
	Box     Box
	Blocked []Key // each inside Box
}

// maxStaticVoxels bounds the box of a StaticVoxels: 2^31 voxels.
const maxStaticVoxels = 1 << 31

func (s *StaticVoxels) apply(m *Map) error {
	if s.Box.Empty() || !s.Box.Min.valid() || !s.Box.Max.valid() || s.Box.Volume() > maxStaticVoxels {
		return fmt.Errorf("%w: static box %v..%v", ErrInput, s.Box.Min, s.Box.Max)
	}
	set := &voxelSet{box: s.Box, blocked: map[brickKey]*[brickVoxels / 64]uint64{}}
	for _, k := range s.Blocked {
		if !s.Box.Contains(k) {
			return fmt.Errorf("%w: blocked voxel %v is outside the box %v..%v", ErrInput, k, s.Box.Min, s.Box.Max)
		}
		bits := set.blocked[brickOf(k)]
		if bits == nil {
			bits = new([brickVoxels / 64]uint64)
			set.blocked[brickOf(k)] = bits
		}
		i := index(k)
		if bits[i>>6]&(1<<(i&63)) == 0 {
			bits[i>>6] |= 1 << (i & 63)
			set.count++
		}
	}
	m.replaceStatic(staticLayer{set: set})
	return nil
}

// LoadMovingAI reads a Moving AI 3D voxel map (.3dmap): a line
// "voxel W H D", then one line "x y z" per blocked voxel. Voxel (x, y, z)
// of the file is Key{x, y, z}; the box [0,W)×[0,H)×[0,D) is free but for
// the blocked voxels.
func LoadMovingAI(path string) (*StaticVoxels, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ReadMovingAI(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// maxMovingAIEdge bounds each dimension of a Moving AI map.
const maxMovingAIEdge = 1 << 16

// ReadMovingAI reads a .3dmap from r.
func ReadMovingAI(r io.Reader) (*StaticVoxels, error) {
	sc := bufio.NewScanner(r)
	line := 0
	next := func() ([]string, bool) {
		for sc.Scan() {
			line++
			if f := strings.Fields(sc.Text()); len(f) > 0 {
				return f, true
			}
		}
		return nil, false
	}
	head, ok := next()
	if !ok || len(head) != 4 || head[0] != "voxel" {
		return nil, fmt.Errorf("%w: line %d: want \"voxel W H D\"", ErrFormat, line)
	}
	var dim [3]int32
	for i := range dim {
		v, err := strconv.Atoi(head[i+1])
		if err != nil || v <= 0 || v > maxMovingAIEdge {
			return nil, fmt.Errorf("%w: line %d: dimension %q", ErrFormat, line, head[i+1])
		}
		dim[i] = int32(v)
	}
	s := &StaticVoxels{Box: Box{Max: Key{dim[0] - 1, dim[1] - 1, dim[2] - 1}}}
	for {
		f, ok := next()
		if !ok {
			break
		}
		var k [3]int32
		if len(f) != 3 {
			return nil, fmt.Errorf("%w: line %d: want \"x y z\"", ErrFormat, line)
		}
		for i := range k {
			v, err := strconv.Atoi(f[i])
			if err != nil || v < 0 || v >= int(dim[i]) {
				return nil, fmt.Errorf("%w: line %d: coordinate %q outside [0, %d)", ErrFormat, line, f[i], dim[i])
			}
			k[i] = int32(v)
		}
		s.Blocked = append(s.Blocked, Key{k[0], k[1], k[2]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, line, err)
	}
	return s, nil
}
