package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/golang/geo/r3"
)

// The mission log is JSON lines: one object per line, its "type" first,
// "t" the seconds since the mission started (its clock starts when
// navnode is up). Lengths are metres, angles radians, positions [x, y, z]
// in the map frame, rounded to 0.1 mm. A picture renderer and a summary
// printer read it (ReadLog); unknown types are skipped, so later
// versions may add some. In order:
//
//	{"type":"world","name":..,"bounds":{"min":[..],"max":[..]},"map":"depot.yaml","wall_height":2,
//	 "movingai":"x.3dmap","resolution":0.25,"origin":[..],"shapes":[shape,...]}         once
//	{"type":"mission","scenario":..,"robot":{"type":"aerial","radius":..,"height":..,"max_speed":..,
//	 "max_accel":..,"max_yaw_rate":..},"start":[..],"timeout":..,"goal_tolerance":..,
//	 "expect":"reached","seed":n}                                                      once
//	{"type":"pose","t":..,"p":[..],"yaw":..,"speed":..}                               at 10 Hz
//	{"type":"goal","t":..,"p":[..]}                                                   each goal sent
//	{"type":"plan","t":..,"poses":[[..],...]}                                         each /plan received
//	{"type":"obstacle","t":..,"id":..,"action":"add|delete|move","shape":shape}       each change (5 Hz while moving)
//	{"type":"status","t":..,"status":..,"replans":n,"repair_p50_ms":..,"repair_p99_ms":..,"malformed":n}
//	                                                                                  when navnode's status, replans or malformed count change
//	{"type":"hostile","t":..,"kind":..}                                               each hostile input sent
//	{"type":"collision","t":..,"p":[..],"with":"static|bounds|<obstacle id>"}        each time the robot starts touching (bounds: it left the world)
//	{"type":"outcome",...}                                                            last (see Outcome)
//
// A shape is {"kind":"box","center":[..],"size":[..],"yaw":..},
// {"kind":"cylinder","center":[..],"radius":..,"height":..} or
// {"kind":"sphere","center":[..],"radius":..}.

// WorldRecord is the log's "world" line.
type WorldRecord struct {
	Type       string        `json:"type"`
	Name       string        `json:"name"`
	Bounds     BoundsRecord  `json:"bounds"`
	Map        string        `json:"map,omitempty"`
	WallHeight float64       `json:"wall_height,omitempty"`
	MovingAI   string        `json:"movingai,omitempty"`
	Resolution float64       `json:"resolution,omitempty"`
	Origin     *[3]float64   `json:"origin,omitempty"`
	Shapes     []ShapeRecord `json:"shapes"`
}

// BoundsRecord is a box, metres.
type BoundsRecord struct {
	Min [3]float64 `json:"min"`
	Max [3]float64 `json:"max"`
}

// ShapeRecord is a shape in the log.
type ShapeRecord struct {
	Kind   Kind        `json:"kind"`
	Center [3]float64  `json:"center"`
	Size   *[3]float64 `json:"size,omitempty"`
	Yaw    float64     `json:"yaw,omitempty"`
	Radius float64     `json:"radius,omitempty"`
	Height float64     `json:"height,omitempty"`
}

// MissionRecord is the log's "mission" line.
type MissionRecord struct {
	Type          string      `json:"type"`
	Scenario      string      `json:"scenario"`
	Robot         RobotRecord `json:"robot"`
	Start         [3]float64  `json:"start"`
	Timeout       float64     `json:"timeout"`
	GoalTolerance float64     `json:"goal_tolerance"`
	Expect        string      `json:"expect"`
	Seed          *int64      `json:"seed,omitempty"`
}

// RobotRecord is the robot of a MissionRecord.
type RobotRecord struct {
	Type       string  `json:"type"`
	Radius     float64 `json:"radius"`
	Height     float64 `json:"height,omitempty"`
	MaxSpeed   float64 `json:"max_speed"`
	MaxAccel   float64 `json:"max_accel"`
	MaxYawRate float64 `json:"max_yaw_rate"`
}

// PoseRecord is a "pose" line.
type PoseRecord struct {
	Type  string     `json:"type"`
	T     float64    `json:"t"`
	P     [3]float64 `json:"p"`
	Yaw   float64    `json:"yaw"`
	Speed float64    `json:"speed"`
}

// PlanRecord is a "plan" line.
type PlanRecord struct {
	Type  string       `json:"type"`
	T     float64      `json:"t"`
	Poses [][3]float64 `json:"poses"`
}

// ObstacleRecord is an "obstacle" line.
type ObstacleRecord struct {
	Type   string       `json:"type"`
	T      float64      `json:"t"`
	ID     string       `json:"id"`
	Action string       `json:"action"`
	Shape  *ShapeRecord `json:"shape,omitempty"`
}

// GoalRecord is a "goal" line.
type GoalRecord struct {
	Type string     `json:"type"`
	T    float64    `json:"t"`
	P    [3]float64 `json:"p"`
}

// StatusRecord is a "status" line: what navnode's diagnostics said.
type StatusRecord struct {
	Type      string  `json:"type"`
	T         float64 `json:"t"`
	Status    string  `json:"status"`
	Replans   int     `json:"replans"`
	RepairP50 float64 `json:"repair_p50_ms"`
	RepairP99 float64 `json:"repair_p99_ms"`
	Malformed int     `json:"malformed"`
}

// HostileRecord is a "hostile" line.
type HostileRecord struct {
	Type string  `json:"type"`
	T    float64 `json:"t"`
	Kind string  `json:"kind"`
}

// CollisionRecord is a "collision" line.
type CollisionRecord struct {
	Type string     `json:"type"`
	T    float64    `json:"t"`
	P    [3]float64 `json:"p"`
	With string     `json:"with"`
}

// LogWriter writes a mission log. It keeps the first write error (Err)
// and drops what follows. It belongs to one goroutine.
type LogWriter struct {
	w   *bufio.Writer
	err error
}

// NewLogWriter returns a log writing to w; a nil w discards everything.
func NewLogWriter(w io.Writer) *LogWriter {
	if w == nil {
		return nil
	}
	return &LogWriter{w: bufio.NewWriter(w)}
}

// Write writes one record (one of the *Record types, or an Outcome) as a
// line, and flushes it.
func (l *LogWriter) Write(rec any) {
	if l == nil || l.err != nil {
		return
	}
	b, err := json.Marshal(rec)
	if err == nil {
		b = append(b, '\n')
		_, err = l.w.Write(b)
	}
	if err == nil {
		err = l.w.Flush()
	}
	l.err = err
}

// Err returns the first error writing the log.
func (l *LogWriter) Err() error {
	if l == nil {
		return nil
	}
	return l.err
}

// Log is a mission log read back.
type Log struct {
	World      WorldRecord
	Mission    MissionRecord
	Poses      []PoseRecord
	Goals      []GoalRecord
	Plans      []PlanRecord
	Obstacles  []ObstacleRecord
	Statuses   []StatusRecord
	Hostile    []HostileRecord
	Collisions []CollisionRecord
	Outcome    *Outcome // nil when the mission did not end
}

// maxLogLine bounds one line of a log (a long plan).
const maxLogLine = 64 << 20

// ReadLog reads a mission log; lines of unknown types are skipped.
func ReadLog(r io.Reader) (*Log, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLogLine)
	l := &Log{}
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes()
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(text, &head); err != nil {
			return l, fmt.Errorf("%w: line %d: %v", ErrLog, line, err)
		}
		var err error
		switch head.Type {
		case "world":
			err = json.Unmarshal(text, &l.World)
		case "mission":
			err = json.Unmarshal(text, &l.Mission)
		case "pose":
			err = appendJSON(text, &l.Poses)
		case "goal":
			err = appendJSON(text, &l.Goals)
		case "plan":
			err = appendJSON(text, &l.Plans)
		case "obstacle":
			err = appendJSON(text, &l.Obstacles)
		case "status":
			err = appendJSON(text, &l.Statuses)
		case "hostile":
			err = appendJSON(text, &l.Hostile)
		case "collision":
			err = appendJSON(text, &l.Collisions)
		case "outcome":
			l.Outcome = new(Outcome)
			err = json.Unmarshal(text, l.Outcome)
		}
		if err != nil {
			return l, fmt.Errorf("%w: line %d (%s): %v", ErrLog, line, head.Type, err)
		}
	}
	if err := sc.Err(); err != nil {
		return l, fmt.Errorf("%w: %v", ErrLog, err)
	}
	return l, nil
}

func appendJSON[T any](text []byte, dst *[]T) error {
	var v T
	if err := json.Unmarshal(text, &v); err != nil {
		return err
	}
	*dst = append(*dst, v)
	return nil
}

// round4 rounds to 0.1 mm (1e-4), keeping logs short; non-finite values
// become 0, which JSON can hold.
func round4(v float64) float64 {
	if !finite(v) {
		return 0
	}
	return math.Round(v*1e4) / 1e4
}

// arr returns v as a rounded [x, y, z].
func arr(v r3.Vector) [3]float64 { return [3]float64{round4(v.X), round4(v.Y), round4(v.Z)} }

// shapeRecord returns s as logged.
func shapeRecord(s Shape) *ShapeRecord {
	r := &ShapeRecord{Kind: s.Kind, Center: arr(s.Center)}
	switch s.Kind {
	case KindBox:
		size := arr(s.Size)
		r.Size, r.Yaw = &size, round4(s.Yaw)
	case KindCylinder:
		r.Radius, r.Height = round4(s.Radius), round4(s.Height)
	default:
		r.Radius = round4(s.Radius)
	}
	return r
}

// Shape converts a logged shape back.
func (r *ShapeRecord) Shape() Shape {
	s := Shape{Kind: r.Kind, Center: vecOf(r.Center), Yaw: r.Yaw, Radius: r.Radius, Height: r.Height}
	if r.Size != nil {
		s.Size = vecOf(*r.Size)
	}
	return s
}

func vecOf(a [3]float64) r3.Vector { return r3.Vector{X: a[0], Y: a[1], Z: a[2]} }

// worldRecord returns w's log line.
func worldRecord(w *World) WorldRecord {
	r := WorldRecord{Type: "world", Name: w.Name, Map: w.MapFile, MovingAI: w.MovingAI,
		Bounds: BoundsRecord{Min: arr(w.Bounds.Min), Max: arr(w.Bounds.Max)}, Shapes: []ShapeRecord{}}
	if w.Grid != nil {
		r.WallHeight = w.WallHeight
	}
	if w.MovingAI != "" {
		o := arr(w.Origin)
		r.Resolution, r.Origin = w.Resolution, &o
	}
	for _, s := range w.Static {
		r.Shapes = append(r.Shapes, *shapeRecord(s))
	}
	return r
}
