// Package clock is the services' clock. Rules, stores and handlers read
// the time from the *Clock they are given, never from time.Now, so that
// tests set it (clocktest.Source) and every instant of a request is the
// server's: a punch is stamped here, never by the client. It also holds
// the date helpers that go with it: the civil date of an instant in a
// zone, and the contract's date and timestamp formats. Which workday an
// instant belongs to is timekeeping's rule (core.Jornada).
package clock

import (
	"context"
	"time"
)

// Clock gives the current instant and today's date in a zone.
type Clock struct {
	now func() time.Time
}

// New returns a clock on the time source now: time.Now in main, a
// clocktest.Source's Now in tests. nil means time.Now.
func New(now func() time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{now: now}
}

// Now is the current instant in UTC with millisecond precision, as the
// contract writes timestamps.
func (c *Clock) Now() time.Time { return c.now().UTC().Truncate(time.Millisecond) }

// Date is the civil date (midnight UTC) of t in zone loc.
func Date(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Today is the civil date now in zone loc.
func (c *Clock) Today(loc *time.Location) time.Time { return Date(c.now(), loc) }

// StartOfDay is the instant the civil date day begins in zone loc.
func StartOfDay(day time.Time, loc *time.Location) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc).UTC()
}

// DateFormat is how civil dates are written in paths, queries and answers.
const DateFormat = time.DateOnly

// ISOMillis is the contract's timestamp format (UTC, milliseconds).
const ISOMillis = "2006-01-02T15:04:05.000Z"

// FormatISO writes t as the contract does.
func FormatISO(t time.Time) string { return t.UTC().Format(ISOMillis) }

// Every calls fn every interval until ctx ends, the first time one
// interval after the call: the reload loop of what watches a file or a
// shared list. It only paces work (a ticker), so it runs on real time.
func Every(ctx context.Context, interval time.Duration, fn func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}
