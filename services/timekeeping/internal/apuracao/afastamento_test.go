package apuracao

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// licencas is semana's employee over the same week with leaves instead
// of its absence and abono: Mon 19 worked 08:00-18:00 (540, 60 over),
// Fri 23 08:00-17:00 (480), vacation (id 7) Tue 20-Wed 21 with a punch 08:00-12:00 on Wed,
// and leave kind tipo (id 8) on Thu 22.
func licencas(tipo string) (*Memoria, Consulta) {
	m, c := semana()
	m.Faltas, m.Abonos, m.Desconsideradas = nil, nil, nil
	keep := m.Marcacoes[:0]
	for _, x := range m.Marcacoes {
		if d := x.Jornada.Day(); d == 19 && x.ID <= 4 || d == 20 && x.ID <= 6 {
			keep = append(keep, x) // Monday's four, Tuesday's first two
		}
	}
	m.Marcacoes = keep
	// Tuesday's two punches (08:30, 12:00) move to Wednesday, on vacation.
	for i := range m.Marcacoes {
		if x := &m.Marcacoes[i]; x.Jornada.Day() == 20 {
			x.Jornada, x.Registro, x.Efetivo = x.Jornada.AddDate(0, 0, 1), x.Registro.AddDate(0, 0, 1), x.Efetivo.AddDate(0, 0, 1)
		}
	}
	// Friday 08:00-12:00, 13:00-17:00.
	for k, hhmm := range []int{800, 1200, 1300, 1700} {
		at := time.Date(2026, 10, 23, hhmm/100+3, hhmm%100, 0, 0, time.UTC)
		m.Marcacoes = append(m.Marcacoes, MarcacaoDe{Funcionario: 5, MarcacaoLida: MarcacaoLida{ID: int64(50 + k),
			NSR: int64(50 + k), Jornada: time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC), Registro: at, Efetivo: at,
			Fuso: -180, Tipo: []byte(core.NextTipo(k))}})
	}
	d := func(day int) time.Time { return time.Date(2026, 10, day, 0, 0, 0, 0, time.UTC) }
	m.Afastamentos = []AfastamentoLido{
		{Funcionario: 5, ID: 7, Afastamento: core.Afastamento{Tipo: core.AfastamentoFerias, Inicio: d(20), Fim: d(21)}},
		{Funcionario: 5, ID: 8, Afastamento: core.Afastamento{Tipo: tipo, Inicio: d(22), Fim: d(22)}},
		{Funcionario: 6, ID: 9, Afastamento: core.Afastamento{Tipo: core.AfastamentoFerias, Inicio: d(19), Fim: d(23)}},
	}
	return m, c
}

// By hand: expected 480 + 0 + 0 + 0 + 480 = 960; worked 540 + 0 + 210
// (Wednesday's 08:30-12:00, shown) + 0 + 480 = 1230, balance and overtime
// Monday's 60 alone (the vacation's punches bank nothing); a suspension is 1 absence and costs
// Sunday 25's DSR, an unpaid leave costs it without an absence, an
// "outro" leave costs nothing.
func TestEngineAfastamentos(t *testing.T) {
	cases := []struct {
		tipo   string
		faltas int
		dsr    int
	}{{core.AfastamentoSuspensao, 1, 1}, {core.AfastamentoNaoRemunerada, 0, 1}, {core.AfastamentoOutro, 0, 0}}
	for _, tc := range cases {
		m, c := licencas(tc.tipo)
		a := apurado(t, m, c)
		tot := a.Totais
		if tot.MinutosPrevistos != 960 || tot.MinutosTrabalhados != 1230 || tot.SaldoMinutos != 60 ||
			tot.MinutosExtras != 60 || tot.Faltas != tc.faltas || tot.DSRPerdidos != tc.dsr ||
			tot.DiasAfastamento[core.AfastamentoFerias] != 2 || tot.DiasAfastamento[tc.tipo] != 1 {
			t.Errorf("%s: totals %+v", tc.tipo, tot)
		}
		byDate := map[string]Dia{}
		for _, d := range a.Dias {
			byDate[d.Data] = d
		}
		qua := byDate["2026-10-21"]
		if qua.Afastamento == nil || qua.Afastamento.ID != 7 || qua.Afastamento.Tipo != "ferias" || qua.MinutosTrabalhados != 210 ||
			len(qua.Alertas) != 1 || qua.Alertas[0] != core.AlertaAfastamento || qua.Falta {
			t.Errorf("%s: Wednesday %+v", tc.tipo, qua)
		}
		if qui := byDate["2026-10-22"]; qui.Afastamento == nil || qui.Afastamento.ID != 8 || qui.Falta != (tc.faltas == 1) ||
			qui.MinutosPrevistos != 0 || qui.SaldoMinutos != 0 {
			t.Errorf("%s: Thursday %+v", tc.tipo, qui)
		}
		if seg := byDate["2026-10-19"]; seg.Afastamento != nil {
			t.Errorf("Monday on leave: %+v", seg.Afastamento)
		}
		f := a.Folha(c.Inicio, c.Fim)
		if f.Afastamentos["ferias"] != 2 || f.Afastamentos[tc.tipo] != 1 || f.FaltasDias != tc.faltas || f.DSRPerdidos != tc.dsr {
			t.Errorf("%s: payroll %+v", tc.tipo, f)
		}
		if len(a.DSR) != 1 || a.DSR[0].Perdido != (tc.dsr == 1) {
			t.Errorf("%s: DSR %+v", tc.tipo, a.DSR)
		}
	}
}

// The timesheet's day names its leave as {"id", "tipo"}; a day without
// one says nothing of it.
func TestEngineAfastamentoJSON(t *testing.T) {
	m, c := licencas(core.AfastamentoSuspensao)
	a := apurado(t, m, c)
	for _, d := range a.Dias {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		switch d.Data {
		case "2026-10-20":
			if !strings.Contains(s, `"afastamento":{"id":7,"tipo":"ferias"}`) {
				t.Errorf("Tuesday: %s", s)
			}
		case "2026-10-19":
			if strings.Contains(s, "afastamento") {
				t.Errorf("Monday: %s", s)
			}
		}
	}
}
