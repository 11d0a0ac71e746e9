package tf

import (
	"fmt"
	"sort"
	"time"
)

// Lookup returns the transform taking points in frame source to frame
// target at time at (0: the latest time at which every transform on the
// path is known). It chains through the two frames' common ancestor,
// interpolating each dynamic link at the query time. Errors:
// ErrUnknownFrame, ErrNoPath, ErrExtrapolation, ErrLoop.
func (b *Buffer) Lookup(target, source string, at time.Duration) (Transform, error) {
	t, _, err := b.LookupStamp(target, source, at)
	return t, err
}

// LookupStamp is Lookup that also returns the time the transform holds
// at: at itself, or the latest common time when at is 0 (0 when the whole
// path is static).
func (b *Buffer) LookupStamp(target, source string, at time.Duration) (Transform, time.Duration, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	tf, sf, err := b.pair(target, source)
	if err != nil {
		return Transform{}, 0, err
	}
	if tf == sf {
		return Identity, at, nil
	}
	if at == 0 {
		if at, err = latestCommon(tf, sf); err != nil {
			return Transform{}, 0, err
		}
	}
	t, err := b.walk(tf, sf, at)
	return t, at, err
}

// LatestCommonTime returns the latest time at which every transform on the
// path between target and source is known (0 if they are all static).
func (b *Buffer) LatestCommonTime(target, source string) (time.Duration, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	tf, sf, err := b.pair(target, source)
	if err != nil {
		return 0, err
	}
	return latestCommon(tf, sf)
}

// pair resolves two frame names. Callers hold b.mu.
func (b *Buffer) pair(target, source string) (*frame, *frame, error) {
	tf, sf := b.frames[FrameName(target)], b.frames[FrameName(source)]
	switch {
	case tf == nil:
		return nil, nil, fmt.Errorf("%w: target %.64q (looking up %.64q → %.64q)", ErrUnknownFrame, target, source, target)
	case sf == nil:
		return nil, nil, fmt.Errorf("%w: source %.64q (looking up %.64q → %.64q)", ErrUnknownFrame, source, source, target)
	}
	return tf, sf, nil
}

// hop is a frame on a chain and the transform from the chain's first
// frame to it.
type hop struct {
	f   *frame
	acc Transform
}

// walk chains transforms at time at: up from target, recording each
// ancestor, then up from source until it meets one of them.
func (b *Buffer) walk(tf, sf *frame, at time.Duration) (Transform, error) {
	var buf [16]hop
	up := append(buf[:0], hop{tf, Identity})
	var upErr error // why the target chain stopped short of a root
	for f, acc := tf, Identity; ; {
		parent, link, err := f.at(at, b.opts.Tolerance)
		if err != nil {
			upErr = err
			break
		}
		if parent == nil {
			break
		}
		if len(up) > MaxDepth {
			// Whatever the source, the answer would depend on the way
			// round the loop.
			return Transform{}, fmt.Errorf("looking up %q → %q: %w: %q's ancestors at %v", sf.name, tf.name, ErrLoop, tf.name, at)
		}
		f, acc = parent, link.Compose(acc)
		up = append(up, hop{f, acc})
	}
	acc := Identity
	for f, depth := sf, 0; ; depth++ {
		for _, h := range up {
			if h.f == f {
				return h.acc.Inverse().Compose(acc), nil
			}
		}
		parent, link, err := f.at(at, b.opts.Tolerance)
		switch {
		case err != nil:
			return Transform{}, fmt.Errorf("looking up %q → %q: %w", sf.name, tf.name, err)
		case parent == nil && upErr != nil:
			return Transform{}, fmt.Errorf("looking up %q → %q: %w", sf.name, tf.name, upErr)
		case parent == nil:
			return Transform{}, fmt.Errorf("%w: %q (root %q) and %q (root %q) at %v",
				ErrNoPath, sf.name, f.name, tf.name, up[len(up)-1].f.name, at)
		case depth >= MaxDepth:
			return Transform{}, fmt.Errorf("%w: %q's ancestors at %v", ErrLoop, sf.name, at)
		}
		f, acc = parent, link.Compose(acc)
	}
}

// at returns f's parent and the transform to it at time t; a nil parent
// for a root.
func (f *frame) at(t, tol time.Duration) (*frame, Transform, error) {
	n := len(f.recs)
	switch {
	case n == 0:
		return nil, Transform{}, nil
	case f.static:
		return f.recs[0].parent, f.recs[0].tf, nil
	}
	first, last := &f.recs[0], &f.recs[n-1]
	switch {
	case t < first.stamp:
		if t < first.stamp-tol { // not first.stamp−t, which overflows for t far in the past
			return nil, Transform{}, fmt.Errorf("%w into the past: %q at %v, history holds %v..%v (tolerance %v)",
				ErrExtrapolation, f.name, t, first.stamp, last.stamp, tol)
		}
		return first.parent, first.tf, nil
	case t >= last.stamp:
		if t-last.stamp > tol {
			return nil, Transform{}, fmt.Errorf("%w into the future: %q at %v, history holds %v..%v (tolerance %v)",
				ErrExtrapolation, f.name, t, first.stamp, last.stamp, tol)
		}
		return last.parent, last.tf, nil
	}
	// first.stamp ≤ t < last.stamp, so 1 ≤ i < n.
	i := sort.Search(n, func(i int) bool { return f.recs[i].stamp > t })
	a, c := &f.recs[i-1], &f.recs[i]
	if a.stamp == t || a.parent != c.parent {
		// Exactly at a stamp, or across a change of parent: no
		// interpolation (tf2 takes the earlier one too).
		return a.parent, a.tf, nil
	}
	r := float64(t-a.stamp) / float64(c.stamp-a.stamp)
	return a.parent, Interpolate(a.tf, c.tf, r), nil
}

// latestCommon returns the oldest of the newest stamps of the dynamic
// links between target and source, following each frame's newest parent;
// 0 if every link is static.
func latestCommon(tf, sf *frame) (time.Duration, error) {
	newest := func(f *frame) (*frame, time.Duration, bool) {
		if len(f.recs) == 0 {
			return nil, 0, false
		}
		r := &f.recs[len(f.recs)-1]
		return r.parent, r.stamp, !f.static
	}
	type mark struct {
		f     *frame
		stamp time.Duration // oldest dynamic stamp from tf up to f
		dyn   bool
	}
	var buf [16]mark
	up := append(buf[:0], mark{f: tf})
	for f, stamp, dyn := tf, time.Duration(0), false; ; {
		p, s, d := newest(f)
		if p == nil {
			break
		}
		if len(up) > MaxDepth {
			return 0, fmt.Errorf("%w: %q's ancestors", ErrLoop, tf.name)
		}
		if d && (!dyn || s < stamp) {
			stamp, dyn = s, true
		}
		f = p
		up = append(up, mark{f, stamp, dyn})
	}
	stamp, dyn := time.Duration(0), false
	for f, depth := sf, 0; depth <= MaxDepth; depth++ {
		for _, m := range up {
			if m.f != f {
				continue
			}
			switch {
			case m.dyn && (!dyn || m.stamp < stamp):
				return m.stamp, nil
			case dyn:
				return stamp, nil
			}
			return 0, nil
		}
		p, s, d := newest(f)
		if p == nil {
			return 0, fmt.Errorf("%w: %q (root %q) and %q (root %q)", ErrNoPath, sf.name, f.name, tf.name, up[len(up)-1].f.name)
		}
		if d && (!dyn || s < stamp) {
			stamp, dyn = s, true
		}
		f = p
	}
	return 0, fmt.Errorf("%w: between %q and %q", ErrLoop, sf.name, tf.name)
}
