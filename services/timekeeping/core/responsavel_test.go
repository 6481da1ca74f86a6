package core

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The responsible person of a type 5 is the one in force when the
// operation happened (Anexo V, type 5, field 8), whatever order the
// events came in.
func TestResponsavelEmVigor(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 3, 9, h, m, 0, 0, time.UTC) }
	const z, a, b = "11111111111", "22222222222", "33333333333"
	// Z in force from 10:00, A from 12:00, B from 12:00 too but named by a
	// later event, listed as they arrived (A before Z: the history is read
	// by instant, not by arrival).
	historico := []Vigencia{{a, at(12, 0)}, {z, at(10, 0)}, {b, at(12, 0)}}
	cases := []struct {
		name string
		em   time.Time
		want string
	}{
		// 09:59 < 10:00, Z's start: nobody in force yet, zeros.
		{"before anyone", at(9, 59), ResponsavelNaoIdentificado},
		// 10:00 <= 10:00: Z from the instant he came in force.
		{"at Z's start", at(10, 0), z},
		// 10:00 <= 11:30 < 12:00: Z, though A's event arrived first.
		{"renamed before A came in", at(11, 30), z},
		// 12:00 <= 12:00: A and B both; B's event came after A's.
		{"at the same instant, the later event", at(12, 0), b},
		// 12:00 <= 12:30: still B.
		{"after both", at(12, 30), b},
	}
	for _, c := range cases {
		got := ResponsavelEmVigor(historico, c.em)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", c.name, diff)
		}
	}
	if got := ResponsavelEmVigor(nil, at(12, 0)); got != ResponsavelNaoIdentificado {
		t.Errorf("no history: %q", got)
	}
}
