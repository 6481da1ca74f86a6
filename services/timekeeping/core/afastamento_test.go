package core

import (
	"testing"
	"time"
)

// Every kind's rule, by hand from the articles in afastamento.go: only
// the suspension is an absence; the suspension and the unpaid leave cost
// the DSR and are unpaid; every kind zeroes the day's expected hours.
func TestRegraAfastamentoPorTipo(t *testing.T) {
	type want struct{ falta, perdeDSR, remunerado bool }
	cases := map[string]want{
		"ferias": {false, false, true}, "doenca": {false, false, true}, "acidente_trabalho": {false, false, true},
		"maternidade": {false, false, true}, "paternidade": {false, false, true}, "casamento": {false, false, true},
		"falecimento": {false, false, true}, "doacao_sangue": {false, false, true},
		"servico_militar": {false, false, true}, "suspensao": {true, true, false},
		"nao_remunerada": {false, true, false}, "outro": {false, false, true},
	}
	if len(cases) != len(TiposAfastamento) {
		t.Fatalf("%d kinds tested, %d known", len(cases), len(TiposAfastamento))
	}
	for _, tipo := range TiposAfastamento {
		r, ok := RegraAfastamento(tipo)
		w := cases[tipo]
		if !ok || !r.ZeraPrevisto || r.Falta != w.falta || r.PerdeDSR != w.perdeDSR || r.Remunerado != w.remunerado ||
			r.INSS || r.Artigo == "" {
			t.Errorf("%s: %+v", tipo, r)
		}
	}
	if _, ok := RegraAfastamento("licenca"); ok {
		t.Fatal("an unknown kind has a rule")
	}
}

// The legal lengths: maternity 120 days, paternity 5, marriage 3,
// bereavement 2, blood donation 1, suspension 30; vacations none.
func TestAfastamentoDiasLegais(t *testing.T) {
	for tipo, dias := range map[string]int{"maternidade": 120, "paternidade": 5, "casamento": 3, "falecimento": 2,
		"doacao_sangue": 1, "suspensao": 30, "ferias": 0, "doenca": 0} {
		if r, _ := RegraAfastamento(tipo); r.DiasLegais != dias {
			t.Errorf("%s: %d legal days, want %d", tipo, r.DiasLegais, dias)
		}
	}
	// A marriage leave from Thursday 2024-05-02 to Monday 05-06 is 5 days,
	// 2 past the law's 3 (an agreement may grant them).
	a := Afastamento{Tipo: "casamento", Inicio: date(2024, 5, 2), Fim: date(2024, 5, 6)}
	if a.Dias() != 5 || a.AlemDoLegal() != 2 {
		t.Fatalf("days %d, past the law %d", a.Dias(), a.AlemDoLegal())
	}
	// 120 days of maternity from 2024-01-10 end on 05-08 (21+29+31+30+8).
	m := Afastamento{Tipo: "maternidade", Inicio: date(2024, 1, 10), Fim: date(2024, 5, 8)}
	if m.Dias() != 120 || m.AlemDoLegal() != 0 {
		t.Fatalf("maternity: %d days, %d past", m.Dias(), m.AlemDoLegal())
	}
}

// A sick leave from 2024-02-20 (leap year): days 1 to 15 (02-20 to
// 03-05) are the employer's, the 16th (03-06) on the INSS's. The same
// for a work accident; a vacation's 16th day is still paid.
func TestRegraDiaDoencaINSSDoDecimoSexto(t *testing.T) {
	for _, tipo := range []string{"doenca", "acidente_trabalho"} {
		a := Afastamento{Tipo: tipo, Inicio: date(2024, 2, 20), Fim: date(2024, 4, 30)}
		for d, inss := range map[time.Time]bool{date(2024, 2, 20): false, date(2024, 3, 5): false,
			date(2024, 3, 6): true, date(2024, 4, 30): true} {
			r := a.RegraDia(d)
			if r.INSS != inss || r.Remunerado == inss || !r.ZeraPrevisto || r.Falta || r.PerdeDSR {
				t.Errorf("%s %s: %+v", tipo, d.Format(time.DateOnly), r)
			}
		}
	}
	f := Afastamento{Tipo: "ferias", Inicio: date(2024, 7, 1), Fim: date(2024, 7, 30)}
	if r := f.RegraDia(date(2024, 7, 16)); !r.Remunerado || r.INSS {
		t.Fatalf("vacation's 16th day: %+v", r)
	}
}

// Cobre holds from the first to the last day, both included, and
// AfastamentoDe finds the leave of a day among several.
func TestAfastamentoCobre(t *testing.T) {
	a := Afastamento{Tipo: "ferias", Inicio: date(2024, 7, 1), Fim: date(2024, 7, 30)}
	b := Afastamento{Tipo: "suspensao", Inicio: date(2024, 8, 5), Fim: date(2024, 8, 7)}
	for d, cobre := range map[time.Time]bool{date(2024, 6, 30): false, date(2024, 7, 1): true, date(2024, 7, 30): true,
		date(2024, 7, 31): false} {
		if a.Cobre(d) != cobre {
			t.Errorf("%s: %v", d.Format(time.DateOnly), !cobre)
		}
	}
	if got, ok := AfastamentoDe([]Afastamento{a, b}, date(2024, 8, 6)); !ok || got != b {
		t.Fatalf("08-06: %+v %v", got, ok)
	}
	if _, ok := AfastamentoDe([]Afastamento{a, b}, date(2024, 8, 1)); ok {
		t.Fatal("08-01 is on no leave")
	}
}

// Validation: an unknown kind, an end before the start, more than 731
// days (2024-01-01 to 2026-01-01 is 732), a 31-day suspension.
func TestAfastamentoValida(t *testing.T) {
	cases := []struct {
		a     Afastamento
		campo string
	}{
		{Afastamento{"ferias", date(2024, 7, 1), date(2024, 7, 30)}, ""},
		{Afastamento{"ferias", date(2024, 7, 1), date(2024, 7, 1)}, ""},
		{Afastamento{"licenca", date(2024, 7, 1), date(2024, 7, 30)}, "tipo"},
		{Afastamento{"ferias", date(2024, 7, 2), date(2024, 7, 1)}, "fim"},
		{Afastamento{"doenca", date(2024, 1, 1), date(2025, 12, 31)}, ""},
		{Afastamento{"doenca", date(2024, 1, 1), date(2026, 1, 1)}, "fim"},
		{Afastamento{"suspensao", date(2024, 3, 1), date(2024, 3, 30)}, ""},
		{Afastamento{"suspensao", date(2024, 3, 1), date(2024, 3, 31)}, "fim"},
	}
	for _, c := range cases {
		err := c.a.Valida()
		if (c.campo == "") != (err == nil) || (err != nil && err.Campo != c.campo) {
			t.Errorf("%+v: %v", c.a, err)
		}
	}
}

// Overlap: touching ranges share no day; a range inside another does.
// Blood donations: 2024-03-10 blocks until 2025-03-09 included.
func TestAfastamentoConflito(t *testing.T) {
	ferias := Afastamento{"ferias", date(2024, 7, 1), date(2024, 7, 30)}
	doacao := Afastamento{"doacao_sangue", date(2024, 3, 10), date(2024, 3, 10)}
	existentes := []Afastamento{ferias, doacao}
	cases := []struct {
		a        Afastamento
		conflito bool
	}{
		{Afastamento{"doenca", date(2024, 7, 31), date(2024, 8, 2)}, false},
		{Afastamento{"doenca", date(2024, 6, 25), date(2024, 7, 1)}, true},
		{Afastamento{"casamento", date(2024, 7, 10), date(2024, 7, 12)}, true},
		{Afastamento{"doacao_sangue", date(2025, 3, 9), date(2025, 3, 9)}, true},
		{Afastamento{"doacao_sangue", date(2025, 3, 10), date(2025, 3, 10)}, false},
		{Afastamento{"doacao_sangue", date(2023, 3, 11), date(2023, 3, 11)}, true},
		{Afastamento{"outro", date(2024, 3, 11), date(2024, 3, 11)}, false},
	}
	for _, c := range cases {
		if _, got := c.a.Conflito(existentes); got != c.conflito {
			t.Errorf("%+v: conflict %v", c.a, got)
		}
	}
}

// A day with punches on a leave goes to treatment; without punches, or
// with punches off a leave, it does not.
func TestFlagTratamento(t *testing.T) {
	if !FlagTratamento(2, true) || FlagTratamento(0, true) || FlagTratamento(4, false) {
		t.Fatal("FlagTratamento")
	}
}

// A leave day of the 08:00-17:00 shift (break 12:00-13:00, 480 minutes
// expected), by hand: every kind expects 0 minutes and banks nothing; the
// suspension is an absence and costs the DSR (CLT art. 474, Lei 605/49
// art. 6), the unpaid leave costs the DSR without being an absence, the
// vacation neither.
func TestComputeApuracaoNoAfastamento(t *testing.T) {
	regra := func(tipo string) *Regra { r, _ := RegraAfastamento(tipo); return &r }
	cases := []struct {
		tipo               string
		ausencia, perdeDSR bool
	}{{"ferias", false, false}, {"doenca", false, false}, {"suspensao", true, true}, {"nao_remunerada", false, true}}
	for _, c := range cases {
		a := ComputeApuracao(Dia{Turno: standardTurno, Afastamento: regra(c.tipo)})
		if a.Previstos != 0 || a.Saldo != 0 || a.Atraso != 0 || a.Ausencia != c.ausencia ||
			CustaDSR(a.Ausencia, regra(c.tipo)) != c.perdeDSR ||
			len(a.Alertas) != 0 {
			t.Errorf("%s: %+v", c.tipo, a)
		}
	}
	// Without the leave the same unpunched day is an absence: 480 owed,
	// the DSR lost.
	if a := ComputeApuracao(Dia{Turno: standardTurno}); a.Previstos != 480 || a.Saldo != -480 || !a.Ausencia || !CustaDSR(a.Ausencia, nil) {
		t.Fatalf("no leave: %+v", a)
	}
	// Before the admission a suspension costs nothing.
	if a := ComputeApuracao(Dia{Turno: standardTurno, ForaDoVinculo: true, Afastamento: regra("suspensao")}); a.Ausencia || a.Previstos != 0 {
		t.Fatalf("outside the bond: %+v", a)
	}
}

// Punches on a vacation day 07:00-12:00, 13:00-18:00 are kept (600
// minutes worked, shown) but neither overtime nor balance (the bank is
// untouched), and the day is flagged for treatment.
func TestComputeApuracaoMarcasNoAfastamento(t *testing.T) {
	r, _ := RegraAfastamento(AfastamentoFerias)
	a := ComputeApuracao(Dia{Marcas: []int{hm(7, 0), hm(12, 0), hm(13, 0), hm(18, 0)}, Turno: standardTurno, Afastamento: &r})
	if a.Trabalhados != 600 || a.Previstos != 0 || a.Extras != 0 || a.Extras50 != 0 || a.Saldo != 0 || a.Ausencia ||
		len(a.Alertas) != 1 || a.Alertas[0] != AlertaAfastamento {
		t.Fatalf("%+v", a)
	}
}
