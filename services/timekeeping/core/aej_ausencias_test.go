package core

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A week of a bond: an absence on Wednesday the 6th costs Sunday the
// 10th (no code 1 that day), Sunday the 3rd is paid (code 1); Monday the
// 4th banked 30 minutes of overtime (code 3, "1", 30), Tuesday the 5th
// owed 15 (code 3, "2", 15); a zero movement writes nothing.
func TestAusenciasAEJ(t *testing.T) {
	got := AusenciasAEJ(2, []time.Time{date(2024, 3, 6)},
		[]DSR{{Data: date(2024, 3, 3)}, {Data: date(2024, 3, 10), Perdido: true, Faltas: []time.Time{date(2024, 3, 6)}}},
		[]MovimentoBanco{{Data: date(2024, 3, 5), Tipo: MovDebito, Minutos: -15}, {Data: date(2024, 3, 4), Tipo: MovCredito, Minutos: 30},
			{Data: date(2024, 3, 7), Tipo: MovCredito, Minutos: 0}})
	trinta, quinze := 30, 15
	want := []AEJAusencia{
		{Vinculo: 2, Tipo: AusenciaDSR, Data: date(2024, 3, 3)},
		{Vinculo: 2, Tipo: AusenciaBancoHoras, Data: date(2024, 3, 4), Minutos: &trinta, Movimento: MovBHInclusao},
		{Vinculo: 2, Tipo: AusenciaBancoHoras, Data: date(2024, 3, 5), Minutos: &quinze, Movimento: MovBHCompensacao},
		{Vinculo: 2, Tipo: AusenciaFalta, Data: date(2024, 3, 6)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("type-07 records (-want +got):\n%s", diff)
	}
}

// A worked rest day names the contractual shift, not an invented one:
// the weekly schedule's first working day, the 12x36's shift; nothing
// (SEM_JORNADA) only without a schedule.
func TestTurnoContratual(t *testing.T) {
	semana := &Escala{}
	semana.Semana[1] = standardTurno // Tuesday only
	ciclo := &Escala{Ciclo: &Ciclo12x36{Base: date(2024, 3, 1), Turno: doze}}
	for _, c := range []struct {
		name  string
		e     *Escala
		turno *Turno
		want  *Turno
	}{
		{"a scheduled day keeps its shift", semana, doze, doze},
		{"a weekly schedule's rest day", semana, nil, standardTurno},
		{"a 12x36's day off", ciclo, nil, doze},
		{"no schedule", nil, nil, nil},
	} {
		if got := TurnoContratual(c.e, c.turno); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if HorarioAEJ(nil).Codigo != SemJornada || HorarioAEJ(standardTurno).Codigo != "0800-1200-1300-1700" {
		t.Fatal("codes")
	}
}
