package core

import (
	"testing"
	"time"
)

// The week of 2024-03-04 (Monday) to 03-10: an unexcused absence on
// Wednesday costs Sunday's DSR; the next Sunday is paid; an absence
// excused by an abono, or on a holiday, costs nothing.
func TestDSRLostForAnUnexcusedAbsence(t *testing.T) {
	e := &Escala{}
	for i := range 5 {
		e.Semana[i] = standardTurno
	}
	ausente := map[string]bool{}
	for d := date(2024, 3, 4); d.Before(date(2024, 3, 18)); d = d.AddDate(0, 0, 1) {
		dia := Dia{Turno: e.Turno(d), Marcas: standard}
		switch d.Day() {
		case 6: // Wednesday: no punch, no abono
			dia.Marcas = nil
		case 12: // Tuesday: no punch, the whole day excused
			dia.Marcas, dia.Tratamento = nil, Tratamento{AbonoDiaInteiro: true}
		case 13: // Wednesday: late, not absent
			dia.Marcas = []int{hm(10, 0), hm(12, 0), hm(13, 0), hm(17, 0)}
		}
		if dia.Turno == nil {
			dia.Marcas = nil
		}
		if ComputeApuracao(dia).Ausencia {
			ausente[d.Format(time.DateOnly)] = true
		}
	}
	if len(ausente) != 1 || !ausente["2024-03-06"] {
		t.Fatalf("absences: %v", ausente)
	}
	ds := DSRs(e, date(2024, 3, 4), date(2024, 3, 17), ausente)
	if len(ds) != 2 || ds[0].Data != date(2024, 3, 10) || !ds[0].Perdido || len(ds[0].Faltas) != 1 ||
		ds[0].Faltas[0] != date(2024, 3, 6) || ds[1].Perdido || Perdidos(ds) != 1 {
		t.Fatalf("DSRs: %+v", ds)
	}

	// A company's mark counts even on a day with punches; a holiday
	// without punches is no absence.
	if !ComputeApuracao(Dia{Turno: standardTurno, Marcas: standard, Falta: true}).Ausencia {
		t.Fatal("a marked absence is unexcused")
	}
	if ComputeApuracao(Dia{Turno: standardTurno, Feriado: true}).Ausencia {
		t.Fatal("a holiday is no absence")
	}
}

// The schedule names its rest days: Saturday and Sunday both depend on
// the six days before each; a 12x36 has no DSR to lose.
func TestDSRRestDaysOfTheSchedule(t *testing.T) {
	e := &Escala{DescansoSemanal: []int{5, 6}}
	ausente := map[string]bool{"2024-03-04": true} // Monday
	ds := DSRs(e, date(2024, 3, 4), date(2024, 3, 10), ausente)
	if len(ds) != 2 || !ds[0].Perdido || ds[0].Data != date(2024, 3, 9) || !ds[1].Perdido {
		t.Fatalf("Saturday and Sunday: %+v", ds)
	}
	// The month's first rest day sees the end of the month before.
	ds = DSRs(&Escala{}, date(2024, 3, 1), date(2024, 3, 3), map[string]bool{"2024-02-28": true})
	if len(ds) != 1 || !ds[0].Perdido {
		t.Fatalf("across the month: %+v", ds)
	}
	c := &Escala{Ciclo: &Ciclo12x36{Base: date(2024, 3, 1), Turno: standardTurno}}
	if ds := DSRs(c, date(2024, 3, 1), date(2024, 3, 31), ausente); len(ds) != 0 {
		t.Fatalf("12x36: %+v", ds)
	}
}

// Lei 605/49 art. 6: an unexcused absence or a suspension/unpaid leave
// day costs the DSR; a vacation or sick day (art. 6 §1) does not.
func TestCustaDSR(t *testing.T) {
	ferias, _ := RegraAfastamento(AfastamentoFerias)
	susp, _ := RegraAfastamento(AfastamentoSuspensao)
	nr, _ := RegraAfastamento(AfastamentoNaoRemunerada)
	if !CustaDSR(true, nil) || CustaDSR(false, nil) || CustaDSR(false, &ferias) || !CustaDSR(false, &susp) ||
		!CustaDSR(false, &nr) {
		t.Fatal("CustaDSR")
	}
}
