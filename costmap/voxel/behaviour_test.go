package voxel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

// populated returns a map with a grid floor, sensor marks and free space,
// and a shape, all overlapping the box [0,2)×[0,2)×[0,1) m.
func populated(t *testing.T) *Map {
	m := newMap(t, Config{Resolution: 0.1, Robot: Robot{Radius: 0.15, InflationRadius: 0.4}, Decay: time.Second})
	g := &Grid{Width: 20, Height: 20, Resolution: 0.1, Cells: make([]int8, 400), ZMin: 0, ZMax: 0.05}
	for i := range g.Cells {
		g.Cells[i] = []int8{0, 0, 0, 100, -1}[i%5]
	}
	_, err := m.Apply(g)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 6))
	var pts []r3.Vector
	for range 400 {
		pts = append(pts, vec(rng.Float64()*2, rng.Float64()*2, 0.3+rng.Float64()*0.6))
	}
	_, err = m.Apply(&Cloud{Origin: vec(1, 1, 0.5), Points: pts, MaxRange: 5})
	require.NoError(t, err)
	_, err = m.Apply(PutShape{ID: "crate", Solid: &BoxShape{Pose: Pose{Position: vec(0.5, 1.5, 0.5), Orientation: YawQuat(0.3)}, Size: vec(0.4, 0.3, 0.5)}})
	require.NoError(t, err)
	return m
}

var everyRegion = Box{Min: Key{-6, -6, -6}, Max: Key{26, 26, 16}}

func TestDeleteShapeRestoresExactly(t *testing.T) {
	m := populated(t)
	before := snapshot(m, everyRegion)
	requireCostsEqual(t, everyRegion, bruteCosts(m, everyRegion), before, "populated")
	solids := []Solid{
		&BoxShape{Pose: Pose{Position: vec(1.2, 0.8, 0.4), Orientation: Quat{X: 0.3, Y: 0.2, Z: 0.1, W: 0.9}}, Size: vec(0.7, 0.35, 0.5)},
		&SphereShape{Center: vec(1.03, 1.01, 0.6), Radius: 0.33},
		&CylinderShape{Pose: Pose{Position: vec(0.9, 1.3, 0.5), Orientation: Identity}, Radius: 0.25, Height: 0.6},
		&CylinderShape{Pose: Pose{Position: vec(1.5, 0.5, 0.5), Orientation: Quat{X: 0.5, W: 0.8}}, Radius: 0.2, Height: 0.9},
	}
	for i, s := range solids {
		put, err := m.Apply(PutShape{ID: "probe", Solid: s})
		require.NoError(t, err)
		require.NotEmpty(t, put.Rose, "solid %d", i)
		requireCostsEqual(t, everyRegion, bruteCosts(m, everyRegion), snapshot(m, everyRegion), "put")
		del, err := m.Apply(DeleteShape{ID: "probe"})
		require.NoError(t, err)
		requireCostsEqual(t, everyRegion, bruteCosts(m, everyRegion), snapshot(m, everyRegion), "delete")
		require.Equal(t, before, snapshot(m, everyRegion), "solid %d: costs after delete", i)
		require.Equal(t, put.Len(), del.Len(), "solid %d: the delete undoes the put voxel for voxel", i)
	}
	// Modify: putting the same id again moves it; deleting restores.
	_, err := m.Apply(PutShape{ID: "probe", Solid: solids[0]})
	require.NoError(t, err)
	_, err = m.Apply(PutShape{ID: "probe", Solid: solids[1]})
	require.NoError(t, err)
	_, err = m.Apply(ClearShapes{})
	require.NoError(t, err)
	require.Zero(t, m.Shapes())
	// ClearShapes took the crate too: put it back and compare.
	_, err = m.Apply(PutShape{ID: "crate", Solid: &BoxShape{Pose: Pose{Position: vec(0.5, 1.5, 0.5), Orientation: YawQuat(0.3)}, Size: vec(0.4, 0.3, 0.5)}})
	require.NoError(t, err)
	require.Equal(t, before, snapshot(m, everyRegion))

	_, err = m.Apply(DeleteShape{ID: "nothing"})
	require.ErrorIs(t, err, ErrUnknownShape)
}

// TestShapesAreConservative samples points inside and on each solid: the
// voxel holding every one of them must be occupied. Spheres and upright
// cylinders are also checked to be exact: a voxel is occupied exactly
// when its cube comes within the solid.
func TestShapesAreConservative(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range 60 {
		m := newMap(t, Config{Resolution: 0.1})
		c := vec(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1)
		q, err := randomQuat(rng).normalized()
		require.NoError(t, err)
		rot := q.matrix()
		var solid Solid
		var inside func(u r3.Vector) r3.Vector // maps u ∈ [-1,1]³ to a point of the solid
		switch i % 3 {
		case 0:
			size := vec(0.05+rng.Float64(), 0.05+rng.Float64(), 0.05+rng.Float64())
			solid = &BoxShape{Pose: Pose{Position: c, Orientation: q}, Size: size}
			inside = func(u r3.Vector) r3.Vector {
				return c.Add(mul(rot, vec(u.X*size.X/2, u.Y*size.Y/2, u.Z*size.Z/2)))
			}
		case 1:
			r := 0.05 + rng.Float64()*0.6
			solid = &SphereShape{Center: c, Radius: r}
			inside = func(u r3.Vector) r3.Vector {
				if n := u.Norm(); n > 1 {
					u = u.Mul(1 / n)
				}
				return c.Add(u.Mul(r))
			}
		case 2:
			r, h := 0.05+rng.Float64()*0.5, 0.05+rng.Float64()
			solid = &CylinderShape{Pose: Pose{Position: c, Orientation: q}, Radius: r, Height: h}
			inside = func(u r3.Vector) r3.Vector {
				xy := vec(u.X, u.Y, 0)
				if n := xy.Norm(); n > 1 {
					xy = xy.Mul(1 / n)
				}
				return c.Add(mul(rot, vec(xy.X*r, xy.Y*r, u.Z*h/2)))
			}
		}
		_, err = m.Apply(PutShape{ID: "s", Solid: solid})
		require.NoError(t, err)
		for j := range 4000 {
			u := vec(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1)
			if j%4 == 0 { // on the surface: push one coordinate to ±1
				switch j % 3 {
				case 0:
					u.X = math.Copysign(1, u.X)
				case 1:
					u.Y = math.Copysign(1, u.Y)
				default:
					u = u.Mul(1 / u.Norm())
				}
			}
			p := inside(u)
			k, ok := m.frame.KeyOf(p)
			require.True(t, ok)
			require.True(t, m.Occupied(k), "solid %d (%T): point %v in voxel %v is not covered", i, solid, p, k)
		}
	}

	// Exactness of spheres: occupied ⇔ the nearest point of the cube is
	// strictly within the radius.
	m := newMap(t, Config{Resolution: 0.1})
	c, r := vec(0.33, -0.12, 0.71), 0.47
	_, err := m.Apply(PutShape{ID: "ball", Solid: &SphereShape{Center: c, Radius: r}})
	require.NoError(t, err)
	lc, lr := m.frame.local(c), r/0.1
	for z := int32(-10); z <= 20; z++ {
		for y := int32(-10); y <= 10; y++ {
			for x := int32(-10); x <= 10; x++ {
				near := vec(clamp(lc.X, float64(x), float64(x+1)), clamp(lc.Y, float64(y), float64(y+1)), clamp(lc.Z, float64(z), float64(z+1)))
				want := near.Sub(lc).Norm2() < lr*lr
				require.Equal(t, want, m.Occupied(Key{x, y, z}), "voxel %d %d %d", x, y, z)
			}
		}
	}
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

func TestHostileInput(t *testing.T) {
	for _, res := range []float64{0, -1, 0.01, 2.5, math.NaN(), math.Inf(1)} {
		_, err := New(Config{Resolution: res})
		require.ErrorIs(t, err, ErrConfig, "resolution %v", res)
	}
	for name, cfg := range map[string]Config{
		"nan origin":        {Resolution: 0.1, Origin: vec(math.NaN(), 0, 0)},
		"negative radius":   {Resolution: 0.1, Robot: Robot{Radius: -1}},
		"huge inflation":    {Resolution: 0.1, Robot: Robot{InflationRadius: 1e9}},
		"inflation < robot": {Resolution: 0.1, Robot: Robot{Radius: 1, InflationRadius: 0.5}},
		"cylinder height":   {Resolution: 0.1, Robot: Robot{Shape: Cylinder, Radius: 0.2, InflationRadius: 0.3}},
		"sensor model":      {Resolution: 0.1, Sensor: SensorModel{Hit: -1, Miss: 1, Min: -2, Max: 3}},
		"negative decay":    {Resolution: 0.1, Decay: -time.Second},
		"window":            {Resolution: 0.1, Window: vec(-1, 1, 1)},
	} {
		_, err := New(cfg)
		require.ErrorIs(t, err, ErrConfig, name)
	}

	m := populated(t)
	before := snapshot(m, everyRegion)
	nan, inf := math.NaN(), math.Inf(1)
	// Updates refused whole: an error and no change.
	for name, u := range map[string]Update{
		"nan origin":        &Cloud{Origin: vec(nan, 0, 0), Points: []r3.Vector{vec(1, 1, 1)}, MaxRange: 5},
		"origin off world":  &Cloud{Origin: vec(1e9, 0, 0), Points: []r3.Vector{vec(1, 1, 1)}, MaxRange: 5},
		"absurd range":      &Cloud{Origin: vec(1, 1, 1), Points: []r3.Vector{vec(1, 1, 2)}, MaxRange: 1e12},
		"nan range":         &Cloud{Origin: vec(1, 1, 1), Points: []r3.Vector{vec(1, 1, 2)}, MaxRange: nan},
		"min above max":     &Cloud{Origin: vec(1, 1, 1), Points: []r3.Vector{vec(1, 1, 2)}, MinRange: 6, MaxRange: 5},
		"zero quaternion":   &Scan{Pose: Pose{Position: vec(1, 1, 0.5)}, AngleIncrement: 0.1, Ranges: []float32{1}, RangeMax: 5},
		"huge shape":        PutShape{ID: "x", Solid: &SphereShape{Center: vec(0, 0, 0), Radius: 1e6}},
		"infinite box":      PutShape{ID: "x", Solid: &BoxShape{Pose: Pose{Orientation: Identity}, Size: vec(inf, 1, 1)}},
		"nan sphere":        PutShape{ID: "x", Solid: &SphereShape{Center: vec(0, nan, 0), Radius: 1}},
		"zero box":          PutShape{ID: "x", Solid: &BoxShape{Pose: Pose{Orientation: Identity}, Size: vec(0, 1, 1)}},
		"nil solid":         PutShape{ID: "x"},
		"cylinder nan":      PutShape{ID: "x", Solid: &CylinderShape{Pose: Pose{Orientation: Identity}, Radius: nan, Height: 1}},
		"grid cells":        &Grid{Width: 3, Height: 3, Resolution: 0.1, Cells: make([]int8, 8), ZMax: 1},
		"grid huge":         &Grid{Width: 1 << 20, Height: 1 << 20, Resolution: 0.1, ZMax: 1},
		"grid resolution":   &Grid{Width: 1, Height: 1, Resolution: 0, Cells: make([]int8, 1), ZMax: 1},
		"grid nan origin":   &Grid{Width: 1, Height: 1, Resolution: 0.1, Cells: make([]int8, 1), Origin: vec(nan, 0, 0), ZMax: 1},
		"grid band":         &Grid{Width: 1, Height: 1, Resolution: 0.1, Cells: make([]int8, 1), ZMin: 1, ZMax: 0},
		"grid cell value":   &Grid{Width: 1, Height: 1, Resolution: 0.1, Cells: []int8{101}, ZMax: 1},
		"static box":        &StaticVoxels{Box: Box{Max: Key{1 << 22, 1 << 22, 1 << 22}}},
		"static outside":    &StaticVoxels{Box: Box{Max: Key{1, 1, 1}}, Blocked: []Key{{2, 0, 0}}},
		"window off world":  MoveWindow{Center: vec(nan, 0, 0)},
		"window beyond max": MoveWindow{Center: vec(1e12, 0, 0)},
	} {
		cs, err := m.Apply(u)
		if name == "window off world" || name == "window beyond max" {
			require.NoError(t, err, "%s: without a window MoveWindow does nothing", name)
		} else {
			require.ErrorIs(t, err, ErrInput, name)
		}
		require.True(t, cs.Empty(), name)
		require.Equal(t, before, snapshot(m, everyRegion), name)
	}

	// Points skipped and counted, the rest applied.
	cs, err := m.Apply(&Cloud{Origin: vec(1, 1, 0.5), MinRange: 0.2, MaxRange: 3, Points: []r3.Vector{
		vec(nan, 1, 1), vec(inf, 1, 1), vec(1, -inf, 1), // non-finite
		vec(1, 1, 0.55), vec(1, 1, 0.5), // too close
		vec(1, 1, 100),                             // clipped
		vec(1.5, 1, 0.5), vec(1.501, 1.001, 0.501), // same voxel: merged
	}})
	require.NoError(t, err)
	require.Equal(t, InputStats{Points: 2, Merged: 1, NonFinite: 3, TooClose: 2, Clipped: 1}, cs.Input)

	cs, err = m.Apply(&Cloud{Origin: vec(1, 1, 0.5), MaxRange: 3})
	require.NoError(t, err, "an empty cloud is no error")
	require.True(t, cs.Empty())

	cs, err = m.Apply(&Scan{Pose: Pose{Position: vec(1, 1, 0.5), Orientation: Identity}, AngleMin: nan, AngleIncrement: 0.1,
		Ranges: []float32{1, 2}, RangeMax: 3})
	require.NoError(t, err)
	require.Equal(t, 2, cs.Input.NonFinite)
	require.True(t, cs.Empty())

	cs, err = m.Apply(&Scan{Pose: Pose{Position: vec(1, 1, 0.5), Orientation: Identity}, AngleIncrement: 0.1, RangeMin: 0.1, RangeMax: 3,
		Ranges: []float32{float32(nan), float32(math.Inf(-1)), float32(math.Inf(1)), 0.05, 1}})
	require.NoError(t, err)
	require.Equal(t, 2, cs.Input.NonFinite)
	require.Equal(t, 1, cs.Input.TooClose)
	require.Equal(t, 1, cs.Input.Clipped)
	require.Equal(t, 1, cs.Input.Points-cs.Input.Clipped)

	// A negative range is too close, not a point behind the sensor.
	cs, err = m.Apply(&Scan{Pose: Pose{Position: vec(3, 1, 0.5), Orientation: Identity}, AngleIncrement: 0.1, RangeMin: 0.1, RangeMax: 3,
		Ranges: []float32{-1}})
	require.NoError(t, err)
	require.Equal(t, 1, cs.Input.TooClose)
	k, _ := m.Frame().KeyOf(vec(2.05, 1, 0.5))
	require.NotEqual(t, Lethal, m.Cost(k))
	// Returns exactly at the range limits are returns, whichever way
	// their points round once rotated.
	ranges := make([]float32, 360)
	for i := range ranges {
		ranges[i] = 2.7
	}
	cs, err = m.Apply(&Scan{Pose: Pose{Position: vec(3.33, 3.71, 0.5), Orientation: Identity}, AngleIncrement: 2 * math.Pi / 360,
		RangeMin: 0.1, RangeMax: float64(float32(2.7)), Ranges: ranges}) // a LaserScan's limits are float32 too
	require.NoError(t, err)
	require.Zero(t, cs.Input.Clipped+cs.Input.TooClose, "%+v", cs.Input)
	require.Equal(t, 360, cs.Input.Points+cs.Input.Merged)
}

// TestMemoryLimit fills a map past MaxBricks: the update reports
// ErrMemory, counts what it refused, and the map stays consistent.
func TestMemoryLimit(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, MaxBricks: 20, Robot: Robot{Radius: 0.1, InflationRadius: 0.3}})
	check := Box{Min: Key{-5, -5, -5}, Max: Key{120, 5, 5}}
	before := snapshot(m, check)
	cs, err := m.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: []r3.Vector{vec(11.05, 0.05, 0.05)}, MaxRange: 20})
	require.ErrorIs(t, err, ErrMemory)
	require.Positive(t, cs.Input.Refused)
	require.LessOrEqual(t, m.Stats().Bricks, 20)
	after := snapshot(m, check)
	requireChangeSet(t, check, before, after, cs, "memory limit")
	requireCostsEqual(t, check, bruteCosts(m, check), after, "memory limit: inflation")

	// A shape the limit refuses in part is taken off again and not held:
	// it can neither linger nor be deleted.
	before = snapshot(m, everyRegion)
	cs, err = m.Apply(PutShape{ID: "wall", Solid: &BoxShape{Pose: Pose{Position: vec(5, 5, 5), Orientation: Identity}, Size: vec(5, 5, 5)}})
	require.ErrorIs(t, err, ErrMemory)
	require.True(t, errors.Is(err, ErrMemory))
	require.Positive(t, cs.Input.Refused)
	require.False(t, m.HasShape("wall"))
	require.Equal(t, before, snapshot(m, everyRegion), "no voxel of the refused shape stays covered")
	_, err = m.Apply(DeleteShape{ID: "wall"})
	require.ErrorIs(t, err, ErrUnknownShape)
}

// TestShapeRefusals: a replacement refused as input leaves the shape it
// would replace; shapes are bounded in number.
func TestShapeRefusals(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1})
	crate := func(x float64) PutShape {
		return PutShape{ID: "crates/1", Solid: &BoxShape{Pose: Pose{Position: vec(x, 1, 0.25), Orientation: Identity}, Size: vec(0.5, 0.5, 0.5)}}
	}
	_, err := m.Apply(crate(1))
	require.NoError(t, err)
	before := snapshot(m, everyRegion)
	_, err = m.Apply(PutShape{ID: "crates/1", Solid: &BoxShape{Pose: Pose{Position: vec(1, 1, 0.25), Orientation: Identity}, Size: vec(1e4, 1e4, 1)}})
	require.ErrorIs(t, err, ErrInput)
	require.True(t, m.HasShape("crates/1"))
	require.Equal(t, before, snapshot(m, everyRegion))
	_, err = m.Apply(DeleteShape{ID: "crates/1"})
	require.NoError(t, err)
	require.False(t, m.HasShape("crates/1"))

	if testing.Short() {
		return
	}
	dot := &SphereShape{Center: vec(0.55, 0.55, 0.55), Radius: 0.01}
	k, _ := m.Frame().KeyOf(dot.Center)
	was := m.Cost(k)
	for i := range maxShapes {
		_, err := m.Apply(PutShape{ID: ShapeID(fmt.Sprint(i)), Solid: dot})
		require.NoError(t, err)
	}
	_, err = m.Apply(PutShape{ID: "one too many", Solid: dot})
	require.ErrorIs(t, err, ErrMemory)
	_, err = m.Apply(PutShape{ID: "7", Solid: &SphereShape{Center: vec(2, 2, 0.5), Radius: 0.2}})
	require.NoError(t, err, "a held shape can still be replaced")
	_, err = m.Apply(ClearShapes{})
	require.NoError(t, err)
	require.Zero(t, m.Shapes())
	require.Equal(t, was, m.Cost(k), "%d shapes on one voxel came off it", maxShapes)
}

func TestExpiry(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, Decay: time.Second})
	hit := vec(1.05, 0.05, 0.05)
	k, _ := m.frame.KeyOf(hit)
	cloud := func(stamp time.Duration, pts ...r3.Vector) {
		_, err := m.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: pts, MaxRange: 5, Stamp: stamp})
		require.NoError(t, err)
	}
	cloud(10 * time.Second)
	cloud(10*time.Second, hit)
	require.Equal(t, Lethal, m.Cost(k))
	expire := func(now time.Duration) *ChangeSet {
		cs, err := m.Apply(Expire{Now: now})
		require.NoError(t, err)
		return cs
	}
	require.True(t, expire(10*time.Second+999*time.Millisecond).Empty())
	cloud(10*time.Second+500*time.Millisecond, hit) // seen again
	require.True(t, expire(11*time.Second+100*time.Millisecond).Empty(), "seen again at 10.5 s")
	cs := expire(11*time.Second + 500*time.Millisecond)
	require.Equal(t, []Change{{k, Lethal, Unknown}}, cs.Rose, "the mark decays to unknown (255 ranks above 254); free space along the ray stays")
	require.Empty(t, cs.Fell)
	require.Equal(t, Free, m.Cost(Key{5, 0, 0}))
	require.Zero(t, m.Stats().Marked)

	// A shape and a static obstacle under the mark stay when it decays.
	cloud(20*time.Second, hit)
	_, err := m.Apply(PutShape{ID: "post", Solid: &SphereShape{Center: hit, Radius: 0.01}})
	require.NoError(t, err)
	require.True(t, expire(30*time.Second).Empty())
	require.Equal(t, Lethal, m.Cost(k))

	// Past the 49.7 days of a hit time's milliseconds, as when the first
	// scan was stamped 0 and the next in seconds since 1970, and days of
	// uptime after that: marks still decay, and not before their time.
	m3 := newMap(t, Config{Resolution: 0.1, Decay: time.Second})
	for _, at := range []time.Duration{0, 1763700000 * time.Second, 1763700000*time.Second + 30*24*time.Hour} {
		_, err = m3.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: []r3.Vector{hit}, MaxRange: 5, Stamp: at})
		require.NoError(t, err)
		require.Equal(t, Lethal, m3.Cost(k), "hit at %v", at)
		cs, err = m3.Apply(Expire{Now: at + 900*time.Millisecond})
		require.NoError(t, err)
		require.True(t, cs.Empty(), "0.9 s after the hit at %v", at)
		_, err = m3.Apply(Expire{Now: at + 1100*time.Millisecond})
		require.NoError(t, err)
		require.Equal(t, Unknown, m3.Cost(k), "1.1 s after the hit at %v", at)
	}

	// The sensors' clock going back (a bag played again) or a stray stamp
	// far ahead: hits keep their ages, and decay goes on.
	for _, tc := range []struct {
		name  string
		stray time.Duration
	}{{"back from 130 s", 130 * time.Second}, {"a stray from 2038", (1<<31 - 1) * time.Second}} {
		m4 := newMap(t, Config{Resolution: 0.1, Decay: time.Second})
		other := vec(-1.05, 0.05, 0.05)
		ko, _ := m4.frame.KeyOf(other)
		at := func(stamp time.Duration, pts ...r3.Vector) {
			_, err := m4.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: pts, MaxRange: 5, Stamp: stamp})
			require.NoError(t, err)
			_, err = m4.Apply(Expire{Now: stamp})
			require.NoError(t, err)
		}
		at(100*time.Second, hit, other)
		at(tc.stray, hit)
		require.Equal(t, Lethal, m4.Cost(k), tc.name)
		for s := 101; s <= 104; s++ {
			at(time.Duration(s)*time.Second, other)
		}
		require.Equal(t, Lethal, m4.Cost(ko), "%s: hit again at 104 s", tc.name)
		require.Equal(t, Unknown, m4.Cost(k), "%s: not hit since the stray, 3 s before 104 s on the sensors' clock", tc.name)
	}

	// Without Decay, Expire does nothing.
	m2 := newMap(t, Config{Resolution: 0.1})
	_, err = m2.Apply(&Cloud{Origin: vec(0.05, 0.05, 0.05), Points: []r3.Vector{hit}, MaxRange: 5})
	require.NoError(t, err)
	cs, err = m2.Apply(Expire{Now: time.Hour})
	require.NoError(t, err)
	require.True(t, cs.Empty())
}

func TestRollingWindow(t *testing.T) {
	m := newMap(t, Config{Resolution: 0.1, Window: vec(3, 3, 2), Robot: Robot{Radius: 0.1, InflationRadius: 0.3}})
	shoot := func(o r3.Vector) {
		var pts []r3.Vector
		for a := 0.0; a < 2*math.Pi; a += 0.05 {
			pts = append(pts, o.Add(vec(2*math.Cos(a), 2*math.Sin(a), 0)))
		}
		_, err := m.Apply(&Cloud{Origin: o, Points: pts, MaxRange: 5})
		require.NoError(t, err)
	}
	shoot(vec(0, 0, 1))
	near := m.Stats().Bricks
	for x := 1.0; x <= 100; x += 1 { // drive 100 m keeping the window on the robot
		shoot(vec(x, 0, 1))
		_, err := m.Apply(MoveWindow{Center: vec(x, 0, 1)})
		require.NoError(t, err)
		require.Less(t, m.Stats().Bricks, 4*near, "at x = %v m memory stays bounded", x)
	}
	start, _ := m.frame.KeyOf(vec(2, 0, 1))
	require.Equal(t, Unknown, m.Cost(start), "what was seen at the start is forgotten")
	here, _ := m.frame.KeyOf(vec(102, 0, 1))
	require.Equal(t, Lethal, m.Cost(here))

	// The change set of a window move equals the diff.
	check := Box{Min: Key{960, -40, -10}, Max: Key{1040, 40, 30}}
	before := snapshot(m, check)
	cs, err := m.Apply(MoveWindow{Center: vec(200, 0, 1)})
	require.NoError(t, err)
	requireChangeSet(t, check, before, snapshot(m, check), cs, "window move")
	require.NotEmpty(t, cs.Rose, "forgotten voxels become unknown, the highest cost")
	require.Zero(t, m.Stats().Bricks)
}

// bruteSupercover lists the voxels whose closed cube, grown by
// touchSlack on every side, the segment a→b (voxel units) meets: a slab
// test per voxel.
func bruteSupercover(a, b r3.Vector) map[Key]bool {
	out := map[Key]bool{}
	d := b.Sub(a)
	for z := int32(math.Floor(min(a.Z, b.Z))) - 1; z <= int32(math.Floor(max(a.Z, b.Z)))+1; z++ {
		for y := int32(math.Floor(min(a.Y, b.Y))) - 1; y <= int32(math.Floor(max(a.Y, b.Y)))+1; y++ {
			for x := int32(math.Floor(min(a.X, b.X))) - 1; x <= int32(math.Floor(max(a.X, b.X)))+1; x++ {
				t0, t1 := 0.0, 1.0
				for ax, c := range [3]int32{x, y, z} {
					o, dv := [3]float64{a.X, a.Y, a.Z}[ax], [3]float64{d.X, d.Y, d.Z}[ax]
					lo, hi := float64(c)-touchSlack, float64(c)+1+touchSlack
					if dv == 0 {
						if o < lo || o > hi {
							t0, t1 = 1, 0
						}
						continue
					}
					ta, tb := (lo-o)/dv, (hi-o)/dv
					t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
				}
				if t0 <= t1 {
					out[Key{x, y, z}] = true
				}
			}
		}
	}
	return out
}

// TestLineOfSight compares LineOfSight with the brute-force supercover on
// random segments between voxel centres (the planners' case, full of
// exact edge and corner crossings, which the brute force sees exactly:
// it takes the centres in voxel units, k + 0.5, not rounded through
// metres) and between arbitrary points.
func TestLineOfSight(t *testing.T) {
	m := populated(t)
	rng := rand.New(rand.NewPCG(10, 11))
	centre := func(k Key) r3.Vector { return vec(float64(k.X)+0.5, float64(k.Y)+0.5, float64(k.Z)+0.5) }
	for i := range 3000 {
		var a, b, la, lb r3.Vector
		if i%2 == 0 {
			ka := Key{rng.Int32N(20), rng.Int32N(20), rng.Int32N(10)}
			kb := ka.Add(rng.Int32N(9)-4, rng.Int32N(9)-4, rng.Int32N(5)-2)
			a, b, la, lb = m.frame.Center(ka), m.frame.Center(kb), centre(ka), centre(kb)
		} else {
			a, b = randomPoint(rng, 0.1), randomPoint(rng, 0.1)
			la, lb = m.frame.local(a), m.frame.local(b)
		}
		maxCost := Cost([]int{0, 100, 252, 253, 254}[i%5])
		want := true
		for k := range bruteSupercover(la, lb) {
			if m.Cost(k) > maxCost {
				want = false
			}
		}
		require.Equal(t, want, m.LineOfSight(a, b, maxCost), "segment %d %v → %v, max cost %d", i, a, b, maxCost)
	}
	require.False(t, m.LineOfSight(vec(math.NaN(), 0, 0), vec(1, 1, 1), 254))
}

func TestNearestFree(t *testing.T) {
	m := populated(t)
	rng := rand.New(rand.NewPCG(12, 13))
	for i := range 300 {
		p := randomPoint(rng, 0.1)
		radius := rng.Float64() * 0.6
		if i%2 == 0 { // whole voxels in decimal, not in binary: 0.3 m is 2.9999999999999996 voxels
			radius = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}[rng.IntN(6)]
		}
		maxCost := Cost([]int{0, 128, 252}[i%3])
		c, _ := m.frame.KeyOf(p)
		r := int32(radius/0.1) + 1
		var want Key
		found := false
		var bestD2 int32
		for z := -r; z <= r; z++ {
			for y := -r; y <= r; y++ {
				for x := -r; x <= r; x++ {
					d2 := x*x + y*y + z*z
					k := c.Add(x, y, z)
					// centres within the radius, metres, to 1e-9 relative
					if math.Sqrt(float64(d2))*0.1 > radius*(1+1e-9) || m.Cost(k) > maxCost {
						continue
					}
					if !found || d2 < bestD2 || (d2 == bestD2 && compareKeys(k, want) < 0) {
						want, bestD2, found = k, d2, true
					}
				}
			}
		}
		got, ok := m.NearestFree(p, radius, maxCost)
		require.Equal(t, found, ok, "query %d", i)
		if found {
			require.Equal(t, want, got, "query %d at %v radius %v", i, p, radius)
		}
	}
	_, ok := m.NearestFree(vec(math.Inf(1), 0, 0), 1, 0)
	require.False(t, ok)
}

func TestProjectAndQueries(t *testing.T) {
	m := populated(t)
	b := Box{Min: Key{-2, -2, 0}, Max: Key{21, 21, 9}}
	got := m.Project(b, nil)
	w := int(b.Max.X - b.Min.X + 1)
	for y := b.Min.Y; y <= b.Max.Y; y++ {
		for x := b.Min.X; x <= b.Max.X; x++ {
			best, known := Free, false
			for z := b.Min.Z; z <= b.Max.Z; z++ {
				if c := m.Cost(Key{x, y, z}); c != Unknown {
					best, known = max(best, c), true
				}
			}
			if !known {
				best = Unknown
			}
			require.Equal(t, best, got[int(x-b.Min.X)+int(y-b.Min.Y)*w])
		}
	}
	n := 0
	m.ForEachOccupied(func(k Key) bool {
		require.True(t, m.Occupied(k))
		require.Equal(t, Lethal, m.Cost(k))
		n++
		return true
	})
	require.Equal(t, countClasses(m, everyRegion)[0], n)
	c, ok := m.CostAt(vec(0.5, 1.5, 0.5))
	require.True(t, ok)
	require.Equal(t, Lethal, c, "inside the crate")
	_, ok = m.CostAt(vec(math.NaN(), 0, 0))
	require.False(t, ok)
}
