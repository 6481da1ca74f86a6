package funcionario

import (
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/validate"
)

func TestYearsBetween(t *testing.T) {
	birth := time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		now  time.Time
		want int
	}{
		{time.Date(2014, 2, 28, 12, 0, 0, 0, time.UTC), 13},
		{time.Date(2014, 3, 1, 0, 0, 0, 0, time.UTC), 14},
		{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), 24},
		{time.Date(2024, 2, 28, 0, 0, 0, 0, time.UTC), 23},
	} {
		if got := yearsBetween(birth, tc.now); got != tc.want {
			t.Errorf("age on %s = %d, want %d", tc.now.Format(time.DateOnly), got, tc.want)
		}
	}
}

func TestCheckNispis(t *testing.T) {
	for s, ok := range map[string]bool{
		"12345678919": true, "12345678910": false, "10000000006": false, "1234567891": false, "1234567891x": false,
	} {
		v := validate.Errors{}
		checkNispis(v, &s)
		if got := len(v) == 0; got != ok {
			t.Errorf("nispis %q accepted=%v, want %v (%v)", s, got, ok, v)
		}
	}
}

func TestCheckNascimentoBounds(t *testing.T) {
	now := time.Date(2026, 6, 15, 10, 0, 0, 0, time.UTC)
	for s, ok := range map[string]bool{
		"15/06/2012": true,  // 14 today
		"16/06/2012": false, // 14 tomorrow
		"16/06/1925": true,  // 100
		"15/06/1925": false, // 101 today
		"16/06/2026": false, // future
	} {
		v := validate.Errors{}
		checkNascimento(v, s, now)
		if got := len(v) == 0; got != ok {
			t.Errorf("dataNascimento %s accepted=%v, want %v (%v)", s, got, ok, v)
		}
	}
}

func TestCheckValorHora(t *testing.T) {
	for f, ok := range map[float64]bool{25.5: true, 0.01: true, 19.99: true, 100000: true, 0: false, 10.123: false, 100000.01: false} {
		v := validate.Errors{}
		checkValorHora(v, &f)
		if got := len(v) == 0; got != ok {
			t.Errorf("valorHora %v accepted=%v, want %v", f, got, ok)
		}
	}
}
