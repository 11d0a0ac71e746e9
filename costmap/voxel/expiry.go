package voxel

import (
	"math"
	"time"
)

// Expire forgets sensor marks not hit again within Config.Decay of Now
// (the spatio-temporal voxel layer's decay): such a voxel loses its sensor
// evidence, as if never seen, and falls back to what other layers hold.
// Free-space evidence does not decay. Without Decay it does nothing.
type Expire struct {
	Now time.Duration // same epoch as the sensor stamps
}

func (u Expire) apply(m *Map) error {
	if m.cfg.Decay == 0 || !m.sensor.started {
		return nil
	}
	now := int64(m.clock(u.Now))
	cutoff := now - m.cfg.Decay.Milliseconds() // marks at or before it expire
	if cutoff < 0 {
		return nil
	}
	for b := range m.sensor.marked {
		if int64(b.oldest) > cutoff {
			continue
		}
		oldest := uint32(math.MaxUint32)
		for i, l := range b.sensor {
			if sensorOcc(l) != occupied {
				continue
			}
			if t := b.hitTime[i]; int64(t) > cutoff {
				oldest = min(oldest, t)
				continue
			}
			b.sensor[i] = noObservation
			b.seen--
			b.marks--
			m.recombine(b, i)
		}
		b.oldest = oldest
		if b.marks == 0 {
			b.hitTime = nil
			delete(m.sensor.marked, b)
		}
		if b.seen == 0 {
			b.sensor = nil
		}
	}
	return nil
}
