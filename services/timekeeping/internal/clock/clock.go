// Package clock is the server's clock and the company calendar: every
// punch is stamped here (never by the client), and the company's time zone
// decides which workday (jornada, a local date) an instant belongs to.
package clock

import "time"

// Clock stamps punches and maps instants to company-local dates.
type Clock struct {
	zone *time.Location
	now  func() time.Time
}

// New returns a clock for zone. now is the time source (time.Now in
// production; tests pass a settable one).
func New(zone *time.Location, now func() time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{zone: zone, now: now}
}

// Zone is the company time zone.
func (c *Clock) Zone() *time.Location { return c.zone }

// Now is the current instant in UTC with millisecond precision, as the
// contract writes timestamps.
func (c *Clock) Now() time.Time { return c.now().UTC().Truncate(time.Millisecond) }

// Workday is the company-local date of t, as a civil date (midnight UTC).
func (c *Clock) Workday(t time.Time) time.Time {
	y, m, d := t.In(c.zone).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Today is the company-local date now.
func (c *Clock) Today() time.Time { return c.Workday(c.now()) }

// StartOfDay is the instant the company-local civil date day begins.
func (c *Clock) StartOfDay(day time.Time) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, c.zone).UTC()
}

// OffsetMinutes is the company's UTC offset at t (-180 in São Paulo).
func (c *Clock) OffsetMinutes(t time.Time) int {
	_, off := t.In(c.zone).Zone()
	return off / 60
}

// DateFormat is how civil dates are written in paths, queries and answers.
const DateFormat = time.DateOnly

// ISOMillis is the contract's timestamp format (UTC, milliseconds).
const ISOMillis = "2006-01-02T15:04:05.000Z"

// FormatISO writes t as the contract does.
func FormatISO(t time.Time) string { return t.UTC().Format(ISOMillis) }
