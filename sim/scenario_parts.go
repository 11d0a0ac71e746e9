package sim

import (
	"errors"
	"fmt"
	"strings"
)

// robotDefaults are each robot type's radius, height, speed,
// acceleration and yaw rate when a scenario leaves them out.
var robotDefaults = map[string]RobotSpec{
	Aerial: {Radius: 0.3, MaxSpeed: 1.5, MaxAccel: 2, MaxYawRate: 2},
	Ground: {Radius: 0.25, Height: 0.4, MaxSpeed: 0.8, MaxAccel: 1, MaxYawRate: 1.5},
}

// spec checks the robot and fills in its defaults; the start may be left
// out when it is random.
func (d *robotDoc) spec(randomStart bool) (RobotSpec, error) {
	def, ok := robotDefaults[d.Type]
	if !ok {
		return RobotSpec{}, fmt.Errorf("type %q: want aerial or ground", d.Type)
	}
	s := RobotSpec{Type: d.Type, Radius: d.Radius, Height: d.Height, MaxSpeed: d.MaxSpeed, MaxAccel: d.MaxAccel,
		MaxYawRate: d.MaxYawRate, Yaw: d.Yaw}
	for _, f := range []struct {
		name      string
		v         *float64
		def, high float64
	}{{"radius", &s.Radius, def.Radius, 5}, {"max_speed", &s.MaxSpeed, def.MaxSpeed, 20},
		{"max_accel", &s.MaxAccel, def.MaxAccel, 50}, {"max_yaw_rate", &s.MaxYawRate, def.MaxYawRate, 20}} {
		if *f.v == 0 {
			*f.v = f.def
		}
		if !(*f.v > 0 && *f.v <= f.high) {
			return s, fmt.Errorf("%s %v: want (0, %v]", f.name, *f.v, f.high)
		}
	}
	if s.Type == Ground {
		if s.Height == 0 {
			s.Height = def.Height
		}
		if !(s.Height > 0 && s.Height <= 10) {
			return s, fmt.Errorf("height %v m: want (0, 10]", s.Height)
		}
	} else if s.Height != 0 {
		return s, errors.New("height: aerial robots are spheres (radius only)")
	}
	if !finite(s.Yaw) {
		return s, fmt.Errorf("yaw %v: want a finite angle", s.Yaw)
	}
	if randomStart {
		if d.Start != nil {
			return s, errors.New("start: random.endpoints draws the start; give none")
		}
		return s, nil
	}
	var err error
	s.Start, err = vec3("start", d.Start)
	return s, err
}

// randomPrefix starts the ids of random obstacles; scripted ids may not.
const randomPrefix = "random-"

// event checks one obstacle event.
func (d *obstacleDoc) event() (ObstacleEvent, error) {
	e := ObstacleEvent{At: d.At, ID: d.ID, Action: d.Action, Ahead: d.Ahead, Over: d.Over}
	if err := checkTime(d.At); err != nil {
		return e, err
	}
	if d.ID == "" || len(d.ID) > 64 || strings.HasPrefix(d.ID, randomPrefix) {
		return e, fmt.Errorf("id %q: want 1 to 64 characters, not starting with %q", d.ID, randomPrefix)
	}
	if !(d.Ahead >= 0 && d.Ahead <= 1000) || !(d.Over >= 0 && d.Over <= 1e4) {
		return e, fmt.Errorf("ahead %v m (0 to 1000), over %v s (0 to 1e4)", d.Ahead, d.Over)
	}
	var shapes []*shapeDoc
	var kinds []Kind
	for i, s := range []*shapeDoc{d.Box, d.Cylinder, d.Sphere} {
		if s != nil {
			shapes, kinds = append(shapes, s), append(kinds, []Kind{KindBox, KindCylinder, KindSphere}[i])
		}
	}
	switch d.Action {
	case Add:
		if len(shapes) != 1 || d.To != nil || d.Over != 0 {
			return e, errors.New("add takes one shape (box, cylinder or sphere), and no to or over")
		}
		var err error
		if e.Shape, err = shapes[0].shape(kinds[0], d.Ahead > 0); err != nil {
			return e, fmt.Errorf("%s: %v", kinds[0], err)
		}
	case Move:
		if len(shapes) != 0 || (d.To == nil) == (d.Ahead == 0) {
			return e, errors.New("move takes either to: [x, y, z] or ahead: metres, and no shape")
		}
		if d.To != nil {
			var err error
			if e.To, err = vec3("to", d.To); err != nil {
				return e, err
			}
		}
	case Delete:
		if len(shapes) != 0 || d.To != nil || d.Ahead != 0 || d.Over != 0 {
			return e, errors.New("delete takes only at and id")
		}
	default:
		return e, fmt.Errorf("action %q: want add, delete or move", d.Action)
	}
	return e, nil
}

// checkObstacleTimeline checks that every move and delete, in time order,
// finds its obstacle there.
func checkObstacleTimeline(events []ObstacleEvent) error {
	live := map[string]bool{}
	for _, e := range events {
		if e.Action == Add {
			live[e.ID] = true
			continue
		}
		if !live[e.ID] {
			return fmt.Errorf("obstacles: %s of %q at %v s: no such obstacle then", e.Action, e.ID, e.At)
		}
		if e.Action == Delete {
			delete(live, e.ID)
		}
	}
	return nil
}

// fill checks the sensors and fills in their defaults. Without any, an
// aerial robot gets a LiDAR and a ground robot a laser scanner.
func (d *sensorsDoc) fill(sc *Scenario) error {
	mount := 0.0 // default height of a sensor above base_link
	if sc.Robot.Type == Ground {
		mount = sc.Robot.Height / 2
	}
	z := func(v *float64) float64 { return orDefault(v, mount) }
	nonZero := func(v, def float64) float64 {
		if v == 0 {
			return def
		}
		return v
	}
	if l := d.Lidar; l != nil || (d.Laser == nil && sc.Robot.Type == Aerial) {
		sc.Lidar = &Lidar{Beams: 16, VerticalFOV: 30, Samples: 360, Range: 12, Rate: 10, Z: mount, NoReturn: NoReturnClear}
		if l != nil {
			sc.Lidar.Range, sc.Lidar.Rate, sc.Lidar.Z = nonZero(l.Range, 12), nonZero(l.Rate, 10), z(l.Z)
			if l.Beams != 0 {
				sc.Lidar.Beams = l.Beams
			}
			if l.Samples != 0 {
				sc.Lidar.Samples = l.Samples
			}
			if l.VerticalFOV != nil {
				sc.Lidar.VerticalFOV = *l.VerticalFOV
			}
			if l.NoReturn != "" {
				sc.Lidar.NoReturn = l.NoReturn
			}
		}
		if err := sc.Lidar.check(); err != nil {
			return err
		}
	}
	if l := d.Laser; l != nil || (d.Lidar == nil && sc.Robot.Type == Ground) {
		sc.Laser = &Laser{Samples: 360, Range: 12, Rate: 10, Z: mount}
		if l != nil {
			sc.Laser.Range, sc.Laser.Rate, sc.Laser.Z = nonZero(l.Range, 12), nonZero(l.Rate, 10), z(l.Z)
			if l.Samples != 0 {
				sc.Laser.Samples = l.Samples
			}
		}
		if err := sc.Laser.check(); err != nil {
			return err
		}
	}
	return nil
}
