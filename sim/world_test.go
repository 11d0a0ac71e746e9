package sim

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/shareddata"
)

// TestWorlds loads every world file in worlds/ and every built-in world:
// each has sane bounds, a free start, and walls a ray from the start
// meets.
func TestWorlds(t *testing.T) {
	shareddata.Path(t, "data") // fail, not skip, without the shared data
	files, err := filepath.Glob(filepath.Join("..", "worlds", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	refs := append(files, Builtin...)
	for _, ref := range refs {
		t.Run(filepath.Base(ref), func(t *testing.T) {
			w, err := ResolveWorld(ref, ".")
			require.NoError(t, err)
			require.NotNil(t, w.Start, "every shipped world names a free start")
			size := w.Bounds.Size()
			require.True(t, size.X > 5 && size.Y > 5 && size.Z > 1, "bounds %+v", w.Bounds)
			body := Body{Radius: 0.3}
			if w.Grid != nil {
				body = Body{Cylinder: true, Radius: 0.25, Height: 0.4}
			}
			what, hit := w.Collides(body, *w.Start)
			require.False(t, hit, "start %v touches %s", *w.Start, what)
			hits := 0
			for i := range 36 {
				a := float64(i) * math.Pi / 18
				if _, ok := w.Raycast(w.Start.Add(r3.Vector{Z: 0.2}), r3.Vector{X: math.Cos(a), Y: math.Sin(a)}, 100); ok {
					hits++
				}
			}
			require.Positive(t, hits, "the start sees no walls")
		})
	}
}

func TestBuiltinWorlds(t *testing.T) {
	depot, err := ResolveWorld("depot", "")
	require.NoError(t, err)
	require.NotNil(t, depot.Grid)
	require.InDelta(t, 30.2, depot.Bounds.Max.X, 1e-9)
	require.InDelta(t, 15.35, depot.Bounds.Max.Y, 1e-9)
	require.Equal(t, 2.0, depot.Bounds.Max.Z)
	simple, err := ResolveWorld("simple", "")
	require.NoError(t, err)
	require.Nil(t, simple.Grid)
	require.Equal(t, r3.Vector{X: 26.25, Y: 33, Z: 26.25}, simple.Bounds.Max)
	// The depot's outer wall is at x ≈ 0.1: a ray from the start west meets it.
	d, ok := depot.Raycast(r3.Vector{X: 4, Y: 9.2, Z: 0.2}, r3.Vector{X: -1}, 20)
	require.True(t, ok)
	require.InDelta(t, 3.9, d, 0.2)
}

// TestBadWorlds checks that broken world files are errors, not panics.
func TestBadWorlds(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"no bounds":       "boxes: [{center: [1, 1, 1], size: [1, 1, 1]}]",
		"flat bounds":     "bounds: {min: [0, 0, 0], max: [10, 10, 0]}",
		"huge bounds":     "bounds: {min: [0, 0, 0], max: [1e4, 10, 10]}",
		"NaN bound":       "bounds: {min: [.nan, 0, 0], max: [10, 10, 10]}",
		"short vector":    "bounds: {min: [0, 0], max: [10, 10, 10]}",
		"unknown key":     "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\ntrees: []",
		"zero box":        "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\nboxes: [{center: [1, 1, 1], size: [1, 0, 1]}]",
		"box radius":      "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\nboxes: [{center: [1, 1, 1], size: [1, 1, 1], radius: 2}]",
		"negative sphere": "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\nspheres: [{center: [1, 1, 1], radius: -1}]",
		"inf cylinder":    "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\ncylinders: [{center: [1, 1, 1], radius: .inf, height: 1}]",
		"missing map":     "map: nowhere.yaml",
		"missing voxels":  "movingai: nowhere.3dmap\nresolution: 0.5",
		"no resolution":   "movingai: nowhere.3dmap",
		"stray height":    "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\nwall_height: 3",
		"start outside":   "bounds: {min: [0, 0, 0], max: [10, 10, 10]}\nstart: [20, 1, 1]",
		"not a mapping":   "- 1\n- 2",
		"garbage":         "\x00\x01{{{",
		"empty":           "",
		"wrong type":      "bounds: yes",
		"alias bomb":      "a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".yaml")
			require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
			_, err := LoadWorld(p)
			require.ErrorIs(t, err, ErrWorld)
			require.Contains(t, err.Error(), p)
			// Once (a review found the bounds' errors naming the file
			// twice, "bad world" too).
			require.Equal(t, 1, strings.Count(err.Error(), p), "%v", err)
			require.Equal(t, 1, strings.Count(err.Error(), ErrWorld.Error()), "%v", err)
		})
	}
	_, err := ResolveWorld("", ".")
	require.ErrorIs(t, err, ErrWorld)
}
