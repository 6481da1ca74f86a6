package hoje

import "testing"

// hhmm spells minutes after midnight as Sprintf("%02d:%02d") did, past
// 24:00 for a night shift's next morning.
func TestHHMM(t *testing.T) {
	for m, want := range map[int]string{0: "00:00", 485: "08:05", 1439: "23:59", 1530: "25:30", -30: "00:30",
		-90: "-1:30", 6000: "100:00"} {
		if got := hhmm(m); got != want {
			t.Errorf("hhmm(%d) = %q, want %q", m, got, want)
		}
	}
}
