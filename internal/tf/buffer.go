package tf

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
)

// Defaults of Options.
const (
	DefaultCacheTime  = 10 * time.Second // tf2's default buffer length
	DefaultMaxFrames  = 4096
	DefaultMaxRecords = 10000 // per frame: 10 s at 1 kHz
	// DefaultMaxTotalRecords is 2^20 transforms, about 75 MB: 100,000
	// transforms a second for 10 s. Without it the other two allow 41 M.
	DefaultMaxTotalRecords = 1 << 20
	// MaxDepth bounds a parent chain, as tf2's MAX_GRAPH_DEPTH does.
	MaxDepth = 1000
	// MaxFrameName bounds a frame name's length in bytes, so that the
	// frames known bound the memory their names hold.
	MaxFrameName = 256
)

// Options configure a Buffer. The zero value gives the defaults.
type Options struct {
	// CacheTime is how long dynamic transforms are kept behind the newest
	// one of their frame (0: DefaultCacheTime).
	CacheTime time.Duration
	// Tolerance is how far a lookup may fall outside a frame's history and
	// still get the nearest transform rather than ErrExtrapolation (0:
	// none, as tf2). A node sets it from its transform_tolerance.
	Tolerance time.Duration
	// MaxFrames bounds the frames known (0: DefaultMaxFrames), so a flood
	// of invented frame names cannot grow memory without bound.
	MaxFrames int
	// MaxRecords bounds the transforms kept per frame (0:
	// DefaultMaxRecords); the oldest go first.
	MaxRecords int
	// MaxTotalRecords bounds the transforms kept in all (0:
	// DefaultMaxTotalRecords). Once it is reached a frame's history stops
	// growing: each new transform pushes out the frame's oldest, and a
	// frame with no transform gets none (ErrFull).
	MaxTotalRecords int
}

// Buffer holds transforms between frames. It is safe for concurrent use.
type Buffer struct {
	opts   Options
	mu     sync.RWMutex
	frames map[string]*frame
	total  int // records held in all frames
}

// frame is one node of the tree: a child frame with its history of
// transforms to its parent, or a root (no records).
type frame struct {
	name   string
	static bool
	recs   []record // by stamp, ascending; a static frame has exactly one
}

// record is one transform of a frame to its parent.
type record struct {
	stamp  time.Duration
	parent *frame
	tf     Transform // child → parent
}

// NewBuffer returns an empty buffer. Negative options are refused with
// ErrInvalid.
func NewBuffer(opts Options) (*Buffer, error) {
	if opts.CacheTime < 0 || opts.Tolerance < 0 || opts.MaxFrames < 0 || opts.MaxRecords < 0 || opts.MaxTotalRecords < 0 {
		return nil, fmt.Errorf("%w: negative option in %+v", ErrInvalid, opts)
	}
	if opts.CacheTime == 0 {
		opts.CacheTime = DefaultCacheTime
	}
	if opts.MaxFrames == 0 {
		opts.MaxFrames = DefaultMaxFrames
	}
	if opts.MaxRecords == 0 {
		opts.MaxRecords = DefaultMaxRecords
	}
	if opts.MaxTotalRecords == 0 {
		opts.MaxTotalRecords = DefaultMaxTotalRecords
	}
	return &Buffer{opts: opts, frames: map[string]*frame{}}, nil
}

// Add stores one transform: ts.Transform takes points in ts.ChildFrameID
// to ts.Header.FrameID at ts.Header.Stamp. A static transform holds at
// every time and replaces the frame's history; a dynamic one joins it (a
// frame switching between static and dynamic loses what it had). A
// transform at a stamp already held replaces it.
//
// Add refuses, storing nothing: ErrInvalid (see its doc), ErrOldData (a
// dynamic transform more than CacheTime older than its frame's newest) and
// ErrFull (see Options.MaxFrames and MaxTotalRecords).
func (b *Buffer) Add(ts *geometry_msgs.TransformStamped, static bool) error {
	child, parent := FrameName(ts.ChildFrameID), FrameName(ts.Header.FrameID)
	switch {
	case child == "" || parent == "":
		return fmt.Errorf("%w: empty frame name (parent %.64q, child %.64q)", ErrInvalid, ts.Header.FrameID, ts.ChildFrameID)
	case len(child) > MaxFrameName || len(parent) > MaxFrameName:
		return fmt.Errorf("%w: frame name of %d bytes (parent %.64q, child %.64q): at most %d", ErrInvalid,
			max(len(child), len(parent)), parent, child, MaxFrameName)
	case child == parent:
		return fmt.Errorf("%w: frame %q is its own parent", ErrInvalid, child)
	}
	stamp, err := Stamp(ts.Header.Stamp)
	if err != nil {
		return fmt.Errorf("transform %s → %s: %w", child, parent, err)
	}
	t, err := FromMsg(&ts.Transform)
	if err != nil {
		return fmt.Errorf("transform %s → %s: %w", child, parent, err)
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	c, p := b.frames[child], b.frames[parent]
	if grow := btoi(c == nil) + btoi(p == nil); grow > 0 && len(b.frames)+grow > b.opts.MaxFrames {
		return fmt.Errorf("%w: %d frames known, adding %s → %s", ErrFull, len(b.frames), child, parent)
	}
	held := 0 // what c holds that the transform may replace
	if c != nil && (static || c.static) {
		held = len(c.recs)
	}
	full := b.total-held >= b.opts.MaxTotalRecords
	if full && (static || c == nil || c.static || len(c.recs) == 0) {
		return fmt.Errorf("%w: %d transforms held, adding %s → %s", ErrFull, b.total, child, parent)
	}
	if !static && c != nil && !c.static && len(c.recs) > 0 {
		if newest := c.recs[len(c.recs)-1].stamp; stamp < newest-b.opts.CacheTime {
			return fmt.Errorf("%w: %s → %s at %v, newest at %v", ErrOldData, child, parent, stamp, newest)
		}
	}
	c, p = b.frame(child), b.frame(parent)
	rec := record{stamp: stamp, parent: p, tf: t}
	b.total -= held
	if static || c.static {
		c.recs = c.recs[:0]
		c.static = static
	}
	if static {
		c.recs = append(c.recs, rec)
		b.total++
		return nil
	}
	limit := b.opts.MaxRecords
	if full {
		limit = min(limit, len(c.recs)) // no growth: the oldest goes
	}
	before := len(c.recs)
	c.insert(rec, b.opts.CacheTime, limit)
	b.total += len(c.recs) - before
	return nil
}

// AddMessage adds every transform of a tf2_msgs/TFMessage (from /tf, or
// /tf_static with static set). Bad transforms are skipped; the error joins
// one error per skipped transform.
func (b *Buffer) AddMessage(msg *tf2_msgs.TFMessage, static bool) error {
	var errs []error
	for i := range msg.Transforms {
		if err := b.Add(&msg.Transforms[i], static); err != nil {
			errs = append(errs, fmt.Errorf("transform %d: %w", i, err))
		}
	}
	return errors.Join(errs...)
}

// Clear forgets every dynamic transform, as after a jump back of the
// clock. Static transforms stay, as in tf2, whose static caches ignore a
// clear: they hold at every time, and their publishers send them once.
func (b *Buffer) Clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	keep := map[*frame]bool{}
	for _, f := range b.frames {
		if f.static {
			keep[f] = true
			keep[f.recs[0].parent] = true
		}
	}
	for name, f := range b.frames {
		switch {
		case !keep[f]:
			delete(b.frames, name)
		case !f.static:
			f.recs = f.recs[:0] // a static frame's parent: now a root
		}
	}
	b.total = 0
	for _, f := range b.frames {
		b.total += len(f.recs)
	}
}

// frame returns the named frame, made if new. Callers hold b.mu.
func (b *Buffer) frame(name string) *frame {
	f := b.frames[name]
	if f == nil {
		f = &frame{name: name}
		b.frames[name] = f
	}
	return f
}

// insert adds a dynamic record in stamp order and drops records more than
// keep older than the newest, and the oldest beyond limit.
func (f *frame) insert(rec record, keep time.Duration, limit int) {
	i := sort.Search(len(f.recs), func(i int) bool { return f.recs[i].stamp >= rec.stamp })
	if i < len(f.recs) && f.recs[i].stamp == rec.stamp {
		f.recs[i] = rec
		return
	}
	f.recs = slices.Insert(f.recs, i, rec)
	newest := f.recs[len(f.recs)-1].stamp
	drop := sort.Search(len(f.recs), func(i int) bool { return f.recs[i].stamp >= newest-keep })
	drop = max(drop, len(f.recs)-limit)
	if drop > 0 {
		f.recs = slices.Delete(f.recs, 0, drop)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FrameInfo describes one frame, for diagnostics.
type FrameInfo struct {
	Parent  string        // parent frame of the newest transform; "" for a root
	Static  bool          // set by /tf_static
	Records int           // transforms held
	Oldest  time.Duration // stamp of the oldest transform held
	Latest  time.Duration // stamp of the newest transform held
}

// Info describes frame, or returns ErrUnknownFrame.
func (b *Buffer) Info(frame string) (FrameInfo, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	f := b.frames[FrameName(frame)]
	if f == nil {
		return FrameInfo{}, fmt.Errorf("%w: %.64q", ErrUnknownFrame, frame)
	}
	info := FrameInfo{Static: f.static, Records: len(f.recs)}
	if n := len(f.recs); n > 0 {
		info.Parent = f.recs[n-1].parent.name
		info.Oldest, info.Latest = f.recs[0].stamp, f.recs[n-1].stamp
	}
	return info, nil
}

// Age returns how old frame's newest transform is at time now: now minus
// its stamp. Static and root frames never age (0).
func (b *Buffer) Age(frame string, now time.Duration) (time.Duration, error) {
	info, err := b.Info(frame)
	if err != nil || info.Static || info.Records == 0 {
		return 0, err
	}
	return now - info.Latest, nil
}

// Frames returns the names of every frame known, sorted.
func (b *Buffer) Frames() []string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	names := make([]string, 0, len(b.frames))
	for name := range b.frames {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
