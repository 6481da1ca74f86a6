package core

import (
	"testing"
	"time"
)

func TestFeriadosNacionais(t *testing.T) {
	d := func(s string) time.Time { x, _ := time.Parse(time.DateOnly, s); return x }
	sem := NewCalendario(Facultativos{})
	com := NewCalendario(Facultativos{Carnaval: true, CorpusChristi: true})
	for _, c := range []struct {
		data     string
		sem, com string // the holiday's name, "" for none
	}{
		{"2024-03-29", "Sexta-feira Santa", "Sexta-feira Santa"}, // Easter 2024-03-31
		{"2025-04-18", "Sexta-feira Santa", "Sexta-feira Santa"}, // Easter 2025-04-20
		{"2024-05-30", "", "Corpus Christi"},
		{"2025-06-19", "", "Corpus Christi"},
		{"2024-02-12", "", "Carnaval (segunda-feira)"},
		{"2024-02-13", "", "Carnaval"},
		{"2024-02-14", "", ""}, // Ash Wednesday
		{"2024-11-20", "Dia Nacional de Zumbi e da Consciência Negra", "Dia Nacional de Zumbi e da Consciência Negra"},
		{"2023-11-20", "", ""}, // before Lei 14.759/2023
		{"2024-04-21", "Tiradentes", "Tiradentes"},
		{"2024-12-25", "Natal", "Natal"},
		{"2024-03-28", "", ""},
	} {
		for _, x := range []struct {
			cal  *Calendario
			want string
		}{{sem, c.sem}, {com, c.com}} {
			nome, ok := x.cal.Feriado(d(c.data))
			if nome != x.want || ok != (x.want != "") {
				t.Errorf("%s: got %q %v, want %q", c.data, nome, ok, x.want)
			}
		}
	}
	ano := FeriadosNacionais(2024, Facultativos{})
	if len(ano) != 13 || ano[0].Data != "2024-01-01" || ano[1].Data != "2024-02-12" || !ano[1].Facultativo || ano[1].Feriado {
		t.Fatalf("2024: %+v", ano)
	}
}

// A night shift starting on a holiday, and one starting on its eve: the
// minutes on the holiday's calendar day are not expected and are overtime
// at 100% (Lei 605/49 art. 9), the rest is an ordinary shift; night
// minutes are counted as usual.
func TestNightShiftOnAHoliday(t *testing.T) {
	turno := &Turno{Entrada: 22 * 60, SaidaAlmoco: 180, RetornoAlmoco: 240, Saida: 420}
	marcas := []int{22 * 60, 25 * 60, 26 * 60, 29 * 60} // 22:00-01:00, 02:00-05:00
	// Starting on the holiday: 22:00-24:00 = 120 on it. Expected 360 -
	// 120 = 240; worked off it 360 - 120 = 240: balance 0 + 120.
	a := ComputeApuracao(Dia{Marcas: marcas, Turno: turno, Feriado: true})
	if a.Previstos != 240 || a.Trabalhados != 360 || a.Extras != 120 || a.Extras100 != 120 || a.Extras50 != 0 ||
		a.Noturnos != 360 || a.NoturnosReduzidos != 411 || a.Saldo != 120 {
		t.Fatalf("holiday night shift: %+v", a)
	}
	// Into the holiday: 00:00-01:00 and 02:00-05:00 = 60 + 180 = 240 on
	// it. Expected 360 - 240 = 120, worked off it 120: balance 0 + 240.
	b := ComputeApuracao(Dia{Marcas: marcas, Turno: turno, FeriadoSeguinte: true})
	if b.Previstos != 120 || b.Extras != 240 || b.Extras100 != 240 || b.Extras50 != 0 || b.Saldo != 240 || b.Atraso != 0 {
		t.Fatalf("night shift into a holiday: %+v", b)
	}
	// Late by 30 on the eve: 22:30-01:00 = 90 off the holiday; 90 - 120 =
	// -30 ordinary, 240 at 100%: balance 210, overtime 240, lateness 30.
	c := ComputeApuracao(Dia{Marcas: []int{22*60 + 30, 25 * 60, 26 * 60, 29 * 60}, Turno: turno, FeriadoSeguinte: true})
	if c.Previstos != 120 || c.Extras != 240 || c.Extras100 != 240 || c.Saldo != 210 || c.Atraso != 30 {
		t.Fatalf("late into a holiday: %+v", c)
	}
	normal := ComputeApuracao(Dia{Marcas: marcas, Turno: turno})
	if normal.Previstos != 360 || normal.Extras != 0 || normal.Saldo != 0 {
		t.Fatalf("the same shift on a normal day: %+v", normal)
	}
}
