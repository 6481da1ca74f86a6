package apuracao

import (
	"context"
	"reflect"
	"testing"
	"time"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// semana is one employee (id 5) on 08:00-17:00 with lunch 12:00-13:00,
// Monday to Friday (480 minutes), over the week of Monday 2026-10-19, in
// São Paulo (UTC-3), with its facts in memory:
//
//	Mon 19  08:00 12:00 13:00 18:00  540 worked, 60 overtime at 50%
//	Tue 20  08:30 12:00 13:00 17:00  450 worked, 30 late
//	Wed 21  no punch, marked absent  -480, the absence costs Sunday's DSR
//	Thu 22  a whole-day abono        480 excused, nothing owed
//	Fri 23  08:00 12:00 13:00, 17:00 included by the company, 17:30
//	        disregarded              480 worked
//	Sat 24, Sun 25: no shift; Sunday 25 is the weekly rest, lost.
func semana() (*Memoria, Consulta) {
	m := &Memoria{}
	var id int64
	punch := func(dia int, hhmm ...int) {
		for _, x := range hhmm {
			id++
			t := time.Date(2026, 10, dia, x/100+3, x%100, 0, 0, time.UTC) // local + 3h
			m.Marcacoes = append(m.Marcacoes, MarcacaoDe{Funcionario: 5, MarcacaoLida: MarcacaoLida{ID: id, NSR: id,
				Jornada: time.Date(2026, 10, dia, 0, 0, 0, 0, time.UTC), Registro: t, Efetivo: t, Fuso: -180,
				Tipo: []byte(core.NextTipo(len(m.Marcacoes) % 4))}})
		}
	}
	punch(19, 800, 1200, 1300, 1800)
	punch(20, 830, 1200, 1300, 1700)
	punch(23, 800, 1200, 1300, 1730)
	m.Desconsideradas = []int64{id} // Friday's 17:30
	sexta := time.Date(2026, 10, 23, 20, 0, 0, 0, time.UTC)
	m.Marcacoes = append(m.Marcacoes, MarcacaoDe{Funcionario: 5, MarcacaoLida: MarcacaoLida{ID: 900,
		Jornada: time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC), Registro: sexta, Efetivo: sexta, Fuso: -180}})
	m.Faltas = []FaltaLida{{Funcionario: 5, Data: time.Date(2026, 10, 21, 0, 0, 0, 0, time.UTC)}}
	m.Abonos = []AbonoLido{{Funcionario: 5, Data: time.Date(2026, 10, 22, 0, 0, 0, 0, time.UTC)}}
	turno := employee.Horario{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540}
	escalas, err := EscalasOf(map[int64]employee.Escala{3: {Horarios: []employee.Horario{turno, turno, turno, turno, turno}}})
	if err != nil {
		panic(err)
	}
	return m, Consulta{EmpresaID: 1, Escalas: escalas,
		Funcionarios: []employee.Funcionario{{Funcionario: employeeapi.Funcionario{ID: 5, EscalaTrabalhoID: 3}}},
		Inicio:       time.Date(2026, 10, 19, 0, 0, 0, 0, time.UTC), Fim: time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC),
		DSR: true, Detalhe: func(int) bool { return true }}
}

// apurado computes c from m, its only employee.
func apurado(t *testing.T, m *Memoria, c Consulta) Apurado {
	t.Helper()
	r, err := New(m).Apurar(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	all := r.Todos()
	if len(all) != 1 {
		t.Fatalf("%d employees", len(all))
	}
	return all[0]
}

func TestEngineWeek(t *testing.T) {
	m, c := semana()
	a := apurado(t, m, c)
	type fig struct {
		data                                     string
		trabalhados, previstos, extras50, atraso int
		saldo, abonados                          int
		falta                                    bool
	}
	want := []fig{
		{"2026-10-19", 540, 480, 60, 0, 60, 0, false},
		{"2026-10-20", 450, 480, 0, 30, -30, 0, false},
		{"2026-10-21", 0, 480, 0, 0, -480, 0, true},
		{"2026-10-22", 0, 480, 0, 0, 0, 480, false},
		{"2026-10-23", 480, 480, 0, 0, 0, 0, false},
	}
	if len(a.Dias) != len(want) {
		t.Fatalf("%d days, want %d: %+v", len(a.Dias), len(want), a.Dias)
	}
	for i, w := range want {
		d := a.Dias[i]
		got := fig{d.Data, d.MinutosTrabalhados, d.MinutosPrevistos, d.MinutosExtras50, d.MinutosAtraso, d.SaldoMinutos,
			d.MinutosAbonados, d.Falta}
		if got != w {
			t.Errorf("day %d: got %+v, want %+v", i, got, w)
		}
	}
	// Tuesday's rest: Monday 18:00 to Tuesday 08:30.
	if d := a.Dias[1].DescansoMinutos; d == nil || *d != 14*60+30 {
		t.Errorf("Tuesday's rest %v, want 870", d)
	}
	if len(a.Dias[4].Marcacoes.list()) != 5 || !a.Dias[4].Marcacoes.list()[3].Desconsiderada ||
		a.Dias[4].Marcacoes.list()[4].Origem != origemIncluida {
		t.Errorf("Friday's punches %+v", a.Dias[4].Marcacoes.list())
	}
	if len(a.DSR) != 1 || a.DSR[0].Data != "2026-10-25" || !a.DSR[0].Perdido ||
		len(a.DSR[0].Faltas) != 1 || a.DSR[0].Faltas[0] != "2026-10-21" {
		t.Errorf("DSR %+v", a.DSR)
	}
	tt := a.Totais
	if tt.MinutosTrabalhados != 1470 || tt.MinutosPrevistos != 2400 || tt.MinutosExtras50 != 60 || tt.MinutosAtraso != 30 ||
		tt.SaldoMinutos != -450 || tt.MinutosAbonados != 480 || tt.Faltas != 1 || tt.DSRPerdidos != 1 {
		t.Errorf("totals %+v", tt)
	}
	if a.Banco != nil {
		t.Errorf("a bank nobody asked for: %+v", a.Banco)
	}
}

// The rest days read the six days before the period: an absence on the
// Wednesday before a period starting on Sunday still costs that Sunday.
func TestEngineDSRLooksBack(t *testing.T) {
	m, c := semana()
	c.Inicio = time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC)
	a := apurado(t, m, c)
	if len(a.Dias) != 0 || len(a.DSR) != 1 || !a.DSR[0].Perdido || a.Totais.DSRPerdidos != 1 {
		t.Fatalf("days %+v, DSR %+v, totals %+v", a.Dias, a.DSR, a.Totais)
	}
	c.DSR = false // without rest days, nothing before the period is read
	if a := apurado(t, m, c); a.DSR != nil || a.Totais.DSRPerdidos != 0 {
		t.Fatalf("DSR %+v, totals %+v", a.DSR, a.Totais)
	}
}

// A day under way (EmCurso) is left as read: Wednesday's mark stays the
// company's, no rule makes it the day's verdict yet.
func TestEngineEmCurso(t *testing.T) {
	m, c := semana()
	c.Inicio, c.Fim, c.DSR, c.EmCurso = time.Date(2026, 10, 21, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 21, 0, 0, 0, 0, time.UTC), false, true
	a := apurado(t, m, c)
	if len(a.Dias) != 1 || !a.Dias[0].FaltaMarcada || a.Dias[0].Falta || a.Dias[0].MinutosPrevistos != 0 {
		t.Fatalf("days %+v", a.Dias)
	}
}

// The hour bank (policy from 2026-10-01, daily caps of 120 minutes):
// Monday's 60 credited, Tuesday's 30 debited, the absence not banked,
// and the company's payment of 60 on Friday: -30 at Sunday. The payroll
// totals take the payment and the absence's 480 minutes.
func TestEngineBankAndPayroll(t *testing.T) {
	m, c := semana()
	inicio := "2026-10-01"
	m.PoliticaBanco = Politica{Ativo: true, PeriodoMeses: 6, Inicio: &inicio, LimiteCreditoMinutos: 120,
		LimiteDebitoMinutos: 120}
	m.MovimentosBanco = map[int64][]core.MovimentoBanco{5: {{ID: 77, Data: time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC),
		Tipo: core.MovPagamento, Minutos: -60, Motivo: "pago na folha"}}}
	c.Banco = &ConsultaBanco{Ate: c.Fim, ApurarAte: c.Fim, Desde: c.Inicio}
	a := apurado(t, m, c)
	b := a.Banco
	if b == nil || !b.Ativo || b.SaldoMinutos != -30 || b.Periodo.Inicio != "2026-10-01" || b.Periodo.Fim != "2027-03-31" {
		t.Fatalf("bank %+v", b)
	}
	var tipos []string
	for _, mv := range b.Movimentos {
		tipos = append(tipos, mv.Data+" "+mv.Tipo)
	}
	if len(tipos) != 3 || tipos[0] != "2026-10-19 credito" || tipos[1] != "2026-10-20 debito" ||
		tipos[2] != "2026-10-23 pagamento" {
		t.Errorf("movements %v", tipos)
	}
	want := Folha{Extras50: 60, Atrasos: 30, FaltasDias: 1, FaltasMinutos: 480, DSRPerdidos: 1, BancoPago: 60,
		Afastamentos: map[string]int{}}
	if got := a.Folha(c.Inicio, c.Fim); !reflect.DeepEqual(got, want) {
		t.Errorf("payroll %+v, want %+v", got, want)
	}
}

// An inactive bank answers every asked employee's, empty, without reading
// the workdays again.
func TestEngineBankOff(t *testing.T) {
	m, c := semana()
	s, err := New(m).Saldos(context.Background(), Consulta{EmpresaID: 1, Funcionarios: c.Funcionarios,
		Banco: &ConsultaBanco{Ate: c.Fim, ApurarAte: c.Fim}})
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := s[5]; !ok || b.Ativo || b.Periodo != nil || len(b.Movimentos) != 0 || b.ApuradoAte != "2026-10-25" {
		t.Fatalf("bank %+v", s)
	}
}
