package voxel

import (
	"fmt"

	"github.com/golang/geo/r3"
)

// MoveWindow moves the rolling window (Config.Window) to Center, dropping
// the sensor evidence of bricks wholly outside it. Without a window it
// does nothing.
type MoveWindow struct {
	Center r3.Vector // map frame, metres
}

func (u MoveWindow) apply(m *Map) error {
	if m.cfg.Window == (r3.Vector{}) {
		return nil
	}
	lo, ok1 := m.frame.KeyOf(u.Center.Sub(m.cfg.Window))
	hi, ok2 := m.frame.KeyOf(u.Center.Add(m.cfg.Window))
	if !ok1 || !ok2 {
		return fmt.Errorf("%w: window centre %v", ErrInput, u.Center)
	}
	window := Box{Min: lo, Max: hi}
	var out []*brick
	for _, b := range m.bricks {
		if b.sensor != nil && window.Intersect(b.box()).Empty() {
			out = append(out, b)
		}
	}
	for _, b := range out {
		m.forgetSensor(b)
	}
	return nil
}

// forgetSensor drops every voxel's sensor evidence in b.
func (m *Map) forgetSensor(b *brick) {
	for i, l := range b.sensor {
		if sensorOcc(l) == unknown {
			continue
		}
		b.sensor[i] = noObservation
		m.recombine(b, i)
		m.touch(b, i) // so that an emptied brick is dropped
	}
	b.sensor, b.hitTime, b.seen, b.marks = nil, nil, 0, 0
	m.sensor.forget(b)
}
