package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/golang/geo/r3"
)

// Random generates a mission's dynamic obstacles, and optionally its
// start and goal, from a seed: the soak test runs one scenario with many
// seeds. Obstacles are placed when their event comes, against the world
// and the robot as they are then.
type Random struct {
	Seed int64
	// Endpoints draws the start and the one goal (sent at Start): free
	// places in the world, at least MinDistance apart, connected.
	Endpoints   bool
	MinDistance float64 // metres
	Events      int     // obstacle events (add, move or delete) over the mission
	Start       float64 // time of the first, seconds
	Period      [2]float64
	Size        [2]float64 // edge or diameter, metres
	// OnPath is the probability that an obstacle lands on the latest plan,
	// Ahead metres in front of the robot; otherwise anywhere in the world.
	OnPath        float64
	Ahead         [2]float64 // metres
	Clearance     float64    // obstacles never come nearer the robot or the goal than this, metres
	KeepReachable bool       // never place an obstacle that cuts the robot off its goal, for navnode (its robot_radius)
	Shapes        []Kind
	MaxLive       int // most random obstacles at once
}

type randomDoc struct {
	Seed          int64     `yaml:"seed"`
	Endpoints     bool      `yaml:"endpoints"`
	MinDistance   *float64  `yaml:"min_distance"`
	Events        *int      `yaml:"events"`
	Start         *float64  `yaml:"start"`
	Period        []float64 `yaml:"period"`
	Size          []float64 `yaml:"size"`
	OnPath        *float64  `yaml:"on_path"`
	Ahead         []float64 `yaml:"ahead"`
	Clearance     *float64  `yaml:"clearance"`
	KeepReachable *bool     `yaml:"keep_reachable"`
	Shapes        []string  `yaml:"shapes"`
	MaxLive       *int      `yaml:"max_live"`
}

// random checks the document and fills in the defaults.
func (d *randomDoc) random() (*Random, error) {
	r := &Random{Seed: d.Seed, Endpoints: d.Endpoints, MinDistance: 5, Events: 6, Start: 2, Period: [2]float64{2, 5},
		Size: [2]float64{0.4, 1.2}, OnPath: 0.5, Ahead: [2]float64{2, 5}, Clearance: 1, KeepReachable: true,
		Shapes: []Kind{KindBox, KindCylinder, KindSphere}, MaxLive: 4}
	r.MinDistance, r.Start = orDefault(d.MinDistance, r.MinDistance), orDefault(d.Start, r.Start)
	r.OnPath, r.Clearance = orDefault(d.OnPath, r.OnPath), orDefault(d.Clearance, r.Clearance)
	r.Events, r.MaxLive = orDefault(d.Events, r.Events), orDefault(d.MaxLive, r.MaxLive)
	r.KeepReachable = orDefault(d.KeepReachable, r.KeepReachable)
	for _, p := range []struct {
		name   string
		v      []float64
		dst    *[2]float64
		lo, hi float64
	}{{"period", d.Period, &r.Period, 0.1, 1e4}, {"size", d.Size, &r.Size, 0.01, 100}, {"ahead", d.Ahead, &r.Ahead, 0, 1000}} {
		if p.v == nil {
			continue
		}
		if len(p.v) != 2 || !(p.v[0] >= p.lo && p.v[0] <= p.v[1] && p.v[1] <= p.hi) {
			return nil, fmt.Errorf("%s %v: want [low, high] within [%v, %v]", p.name, p.v, p.lo, p.hi)
		}
		*p.dst = [2]float64{p.v[0], p.v[1]}
	}
	if d.Shapes != nil {
		r.Shapes = nil
		for _, s := range d.Shapes {
			k := Kind(s)
			if k != KindBox && k != KindCylinder && k != KindSphere {
				return nil, fmt.Errorf("shapes: %q: want box, cylinder or sphere", s)
			}
			r.Shapes = append(r.Shapes, k)
		}
		if len(r.Shapes) == 0 {
			return nil, errors.New("shapes: empty")
		}
	}
	switch {
	case r.Events < 0 || r.Events > maxShapes:
		return nil, fmt.Errorf("events %d: want 0 to %d", r.Events, maxShapes)
	case r.MaxLive < 1 || r.MaxLive > 1000:
		return nil, fmt.Errorf("max_live %d: want 1 to 1000", r.MaxLive)
	case !(r.OnPath >= 0 && r.OnPath <= 1):
		return nil, fmt.Errorf("on_path %v: want a probability", r.OnPath)
	case !(r.Clearance >= 0 && r.Clearance <= 100) || !(r.MinDistance >= 0 && r.MinDistance <= 1000):
		return nil, fmt.Errorf("clearance %v, min_distance %v: want metres, 0 to 100 and 0 to 1000", r.Clearance, r.MinDistance)
	}
	if err := checkTime(r.Start); err != nil {
		return nil, fmt.Errorf("start: %v", err)
	}
	return r, nil
}

// randomizer runs a Random during a mission.
type randomizer struct {
	spec  *Random
	rng   *rand.Rand // the timeline's and the endpoints' stream, then each event's own (reseed)
	times []float64  // of the obstacle events
	next  int        // next event
	ids   int        // obstacles made so far
	live  []string   // ids of the random obstacles in the world
}

// timelineStream is the second seed word of the stream of the event
// times and endpoints; event k's is timelineStream+1+k.
const timelineStream = 0x9e3779b97f4a7c15

func newRandomizer(r *Random) *randomizer {
	z := &randomizer{spec: r, rng: rand.New(rand.NewPCG(uint64(r.Seed), timelineStream))}
	t := r.Start
	for range r.Events {
		z.times = append(z.times, t)
		t += z.uniform(r.Period)
	}
	return z
}

func (z *randomizer) uniform(r [2]float64) float64 { return r[0] + z.rng.Float64()*(r[1]-r[0]) }

// point returns a random point of the world within the robot's band.
func (z *randomizer) point(b Bounds, zlo, zhi float64) r3.Vector {
	return r3.Vector{X: z.uniform([2]float64{b.Min.X, b.Max.X}), Y: z.uniform([2]float64{b.Min.Y, b.Max.Y}),
		Z: z.uniform([2]float64{zlo, zhi})}
}

// endpoints draws a start and goal at least MinDistance apart, clear of
// obstacles by the margin navnode's robot_radius adds, and connected for
// navnode (reachable), within 200 tries.
func (z *randomizer) endpoints(m *Mission) (r3.Vector, r3.Vector, error) {
	zlo, zhi := m.band()
	margin := m.Scenario.Resolution() + m.Scenario.Controller.Tolerance // what navnode adds to the radius
	for range 200 {
		a, b := z.point(m.World.Bounds, zlo, zhi), z.point(m.World.Bounds, zlo, zhi)
		if a.Sub(b).Norm() < z.spec.MinDistance || m.clash(a, margin) || m.clash(b, margin) {
			continue
		}
		if m.reachable(a, b) {
			return a, b, nil
		}
	}
	return r3.Vector{}, r3.Vector{}, fmt.Errorf("%w: no free, connected start and goal %v m apart in 200 tries", ErrScenario, z.spec.MinDistance)
}

// reseed gives the event due (z.next-1) a stream of its own: an event
// that draws more or fewer numbers than in another run of the seed (its
// placements tried against a robot a tick later) leaves the later events'
// draws as they were.
func (z *randomizer) reseed() {
	z.rng = rand.New(rand.NewPCG(uint64(z.spec.Seed), timelineStream+uint64(z.next)))
}

// shape draws an obstacle of a random kind and size, at the origin.
func (z *randomizer) shape(ground bool) Shape {
	k := z.spec.Shapes[z.rng.IntN(len(z.spec.Shapes))]
	a, b := z.uniform(z.spec.Size), z.uniform(z.spec.Size)
	s := Shape{Kind: k, Size: r3.Vector{X: a, Y: b, Z: z.uniform(z.spec.Size)}, Yaw: z.rng.Float64() * math.Pi,
		Radius: a / 2, Height: z.uniform(z.spec.Size)}
	if ground { // standing on the floor, taller than a ground robot's sensors
		s.Size.Z, s.Height = 1.5, 1.5
	}
	return s
}

// event makes the next random obstacle event happen in mission m, and
// returns the change, or false when no placement was found.
func (z *randomizer) event(m *Mission) (ObstacleChange, bool) {
	z.reseed()
	n := len(z.live)
	action := Add
	if n >= z.spec.MaxLive || (n > 0 && z.rng.IntN(2) == 0) {
		action = []string{Move, Delete}[z.rng.IntN(2)]
	}
	if action == Delete {
		i := z.rng.IntN(n)
		id := z.live[i]
		z.live = slices.Delete(z.live, i, i+1)
		m.World.Delete(id)
		return ObstacleChange{ID: id, Action: Delete}, true
	}
	id, s := "", Shape{}
	if action == Move {
		id = z.live[z.rng.IntN(n)]
		s, _ = m.World.Obstacle(id)
	} else {
		z.ids++
		id, s = fmt.Sprintf("%s%d", randomPrefix, z.ids), z.shape(m.Scenario.Robot.Type == Ground)
	}
	old, had := m.World.Obstacle(id)
	checks := 0
	for range 30 {
		if z.rng.Float64() < z.spec.OnPath {
			s.Center = m.ahead(z.uniform(z.spec.Ahead), s)
		} else {
			zlo, zhi := m.band()
			s.Center = m.place(z.point(m.World.Bounds, zlo, zhi), s)
		}
		if m.World.Put(id, s) != nil || m.tooNear(id, z.spec.Clearance) {
			continue
		}
		if goal, ok := m.target(); z.spec.KeepReachable && ok {
			if checks++; checks > 5 {
				break
			}
			if !m.reachable(m.robot.State.Pos, goal) {
				continue
			}
		}
		if action == Add {
			z.live = append(z.live, id)
		}
		return ObstacleChange{ID: id, Action: action, Shape: s}, true
	}
	if had {
		_ = m.World.Put(id, old)
	} else {
		m.World.Delete(id)
		z.ids--
	}
	return ObstacleChange{}, false
}
