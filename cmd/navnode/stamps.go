package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// errStrayStamp is a sensor message stamped far ahead of the sensor
// message before it.
var errStrayStamp = errors.New("stamp far ahead of the sensor message before it")

// A sensor message may be stamped at most strayAhead plus strayRate times
// the time since the message it is judged against arrived (on navnode's
// clock) ahead of that message: room for a simulator or a bag running up
// to 100 times faster than real time, and for sensors that pause, but
// not for a stamp years off.
const (
	strayAhead = time.Minute
	strayRate  = 100
)

// sensorStamps refuses sensor messages whose stamp jumps far ahead (a
// corrupt header, a driver's bad clock): decay runs on the sensors'
// stamps, and one such message would expire every mark at once. Each
// message is judged against the one before it on its topic, refused or
// not, so a sensor clock that really jumps forward loses only its first
// message. With decay, all sensors feed one clock, so each message is
// also judged against the last one on every other sensor topic: a topic's
// first message cannot jump that clock, and a sensor whose clock runs far
// ahead of the others' is refused at every message. The zero value is
// ready to use.
type sensorStamps struct {
	mu   sync.Mutex
	last map[string]stampSeen // by topic
}

// stampSeen is a message's stamp and when it arrived.
type stampSeen struct {
	stamp time.Duration
	at    time.Time
}

// check records a message on topic stamped stamp, arriving at now, and
// returns errStrayStamp if it is too far ahead of the previous message on
// its topic or, with decay (which runs on one clock for every sensor), of
// the last message on another sensor topic.
func (s *sensorStamps) check(topic string, stamp time.Duration, now time.Time, decay bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		s.last = map[string]stampSeen{}
	}
	seen := stampSeen{stamp, now}
	prev, ok := s.last[topic]
	s.last[topic] = seen
	if ok {
		if err := seen.strayFrom(prev, "on "+topic); err != nil {
			return err
		}
	}
	if !decay {
		return nil
	}
	for other, prev := range s.last {
		if other == topic {
			continue
		}
		if err := seen.strayFrom(prev, "on "+other+" (decay runs on one clock for every sensor)"); err != nil {
			return err
		}
	}
	return nil
}

// strayFrom returns errStrayStamp if s is too far ahead of prev, the
// message before it where says.
func (s stampSeen) strayFrom(prev stampSeen, where string) error {
	elapsed := max(s.at.Sub(prev.at), 0)
	if ahead := s.stamp - prev.stamp; ahead > strayAhead+strayRate*elapsed {
		return fmt.Errorf("%w: %v ahead of the message before %s, which came %v earlier", errStrayStamp, ahead, where, elapsed.Round(time.Millisecond))
	}
	return nil
}
