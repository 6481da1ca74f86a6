package core

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAntesDoUso(t *testing.T) {
	inicio := date(2024, 3, 6)
	for _, c := range []struct {
		name   string
		data   time.Time
		inicio *time.Time
		want   bool
	}{
		{"not set", date(2024, 3, 4), nil, false},
		{"the day before", date(2024, 3, 5), &inicio, true},
		{"the first day", date(2024, 3, 6), &inicio, false},
		{"the first day, late in another zone", time.Date(2024, 3, 6, 23, 0, 0, 0, time.FixedZone("", -3*3600)), &inicio, false},
		{"after", date(2024, 3, 7), &inicio, false},
	} {
		if got := AntesDoUso(c.data, c.inicio); got != c.want {
			t.Errorf("%s: AntesDoUso = %v, want %v", c.name, got, c.want)
		}
	}
}

// The week of 2024-03-04 (Monday) to 03-10 (Sunday, the DSR) on the
// 08:00–17:00 shift with a 12:00–13:00 break: 480 expected minutes a day.
// The company started using ponto on Wednesday 03-06 and the employee
// worked the standard shift Wednesday to Friday; Monday and Tuesday have
// no punch, as nothing was recorded then.
//
// With the setting: Mon and Tue are before the use, so expected 0, balance
// 0, no absence; Wed–Fri expect 3 × 480 = 1,440 and worked 3 × 480 =
// 1,440, balance 0; Sunday's DSR is paid.
// Without it: expected 5 × 480 = 2,400, worked 1,440, balance
// 1,440 − 2,400 = −960, two absences (Mon, Tue) and the DSR lost.
func TestDaysBeforeTheUseOweNothing(t *testing.T) {
	e := &Escala{}
	for i := range 5 {
		e.Semana[i] = standardTurno
	}
	type semana struct {
		Previstos, Trabalhados, Saldo int
		Faltas                        []string
		DSRPerdido                    bool
	}
	apurar := func(inicio *time.Time) semana {
		var s semana
		ausente := map[string]bool{}
		for d := date(2024, 3, 4); d.Before(date(2024, 3, 11)); d = d.AddDate(0, 0, 1) {
			dia := Dia{Turno: e.Turno(d), ForaDoVinculo: AntesDoUso(d, inicio)}
			if dia.Turno != nil && !d.Before(date(2024, 3, 6)) {
				dia.Marcas = standard
			}
			a := ComputeApuracao(dia)
			s.Previstos, s.Trabalhados, s.Saldo = s.Previstos+a.Previstos, s.Trabalhados+a.Trabalhados, s.Saldo+a.Saldo
			if a.Ausencia {
				ausente[d.Format(time.DateOnly)] = true
				s.Faltas = append(s.Faltas, d.Format(time.DateOnly))
			}
		}
		ds := DSRs(e, date(2024, 3, 10), date(2024, 3, 10), ausente)
		s.DSRPerdido = len(ds) == 1 && ds[0].Perdido
		return s
	}
	inicio := date(2024, 3, 6)
	for _, c := range []struct {
		name   string
		inicio *time.Time
		want   semana
	}{
		{"from Wednesday", &inicio, semana{Previstos: 1440, Trabalhados: 1440, Saldo: 0}},
		{"not set", nil, semana{Previstos: 2400, Trabalhados: 1440, Saldo: -960,
			Faltas: []string{"2024-03-04", "2024-03-05"}, DSRPerdido: true}},
	} {
		if diff := cmp.Diff(c.want, apurar(c.inicio)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}
