package clock

import (
	"testing"
	"time"
)

func TestDatesInAZone(t *testing.T) {
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 3, 5, 2, 30, 0, 123456789, time.UTC)
	c := New(func() time.Time { return at })
	if got := c.Now(); !got.Equal(at.Truncate(time.Millisecond)) || got.Location() != time.UTC {
		t.Fatalf("Now = %v", got)
	}
	// 02:30 UTC is 23:30 of the day before in São Paulo (UTC-3).
	if got := c.Today(sp); !got.Equal(time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("Today = %v", got)
	}
	if got := Date(at.Add(30*time.Minute), sp); !got.Equal(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("Date(03:00 UTC) = %v", got)
	}
	if got := StartOfDay(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC), sp); !got.Equal(time.Date(2024, 3, 5, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("StartOfDay = %v", got)
	}
	if got := FormatISO(time.Date(2024, 3, 5, 2, 30, 0, 5e6, sp)); got != "2024-03-05T05:30:00.005Z" {
		t.Fatalf("FormatISO = %s", got)
	}
}
