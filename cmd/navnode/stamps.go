package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// errStrayStamp is a sensor message stamped far ahead of its topic's
// previous one.
var errStrayStamp = errors.New("stamp far ahead of the topic's previous one")

// A sensor message may be stamped at most strayAhead plus strayRate times
// the time since its topic's previous message arrived (on navnode's
// clock) ahead of that message: room for a simulator or a bag running up
// to 100 times faster than real time, and for sensors that pause, but
// not for a stamp years off.
const (
	strayAhead = time.Minute
	strayRate  = 100
)

// sensorStamps refuses sensor messages whose stamp jumps far ahead of
// their topic's previous one (a corrupt header, a driver's bad clock):
// decay runs on the sensors' stamps, and one such message would expire
// every mark at once. Each message is judged against the one before it,
// refused or not, so a sensor clock that really jumps forward loses
// only its first message. The zero value is ready to use.
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
// returns errStrayStamp if it is too far ahead of the previous one.
func (s *sensorStamps) check(topic string, stamp time.Duration, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		s.last = map[string]stampSeen{}
	}
	prev, ok := s.last[topic]
	s.last[topic] = stampSeen{stamp, now}
	if !ok {
		return nil
	}
	elapsed := max(now.Sub(prev.at), 0)
	if ahead := stamp - prev.stamp; ahead > strayAhead+strayRate*elapsed {
		return fmt.Errorf("%w: %v ahead of the message before, which came %v earlier", errStrayStamp, ahead, elapsed.Round(time.Millisecond))
	}
	return nil
}
