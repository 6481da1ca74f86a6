// Package clocktest is the time source of tests: every test that needs a
// given time wires clock.New(src.Now) where main wires clock.New(time.Now),
// and sets src.
package clocktest

import (
	"sync"
	"time"
)

// Source is a time source a test sets. Until the first Set it reads the
// real time.
type Source struct {
	mu    sync.Mutex
	times []time.Time
}

// Set makes the next readings times, one after the other, the last one
// from then on: Set(t) stops the clock at t; several instants serve code
// that reads the clock more than once.
func (s *Source) Set(times ...time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.times = append([]time.Time(nil), times...)
}

// Now is the next reading.
func (s *Source) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.times) == 0 {
		return time.Now()
	}
	t := s.times[0]
	if len(s.times) > 1 {
		s.times = s.times[1:]
	}
	return t
}
