package main

import (
	"bytes"
	"encoding/csv"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// leaveDay is a timesheet's or report's day as this test reads it.
type leaveDay struct {
	Data             string   `json:"data"`
	MinutosPrevistos int      `json:"minutosPrevistos"`
	SaldoMinutos     int      `json:"saldoMinutos"`
	Falta            bool     `json:"falta"`
	Alertas          []string `json:"alertas"`
	Afastamento      *struct {
		ID   int64  `json:"id"`
		Tipo string `json:"tipo"`
	} `json:"afastamento"`
}

// leaveTotals are the totals this test compares.
type leaveTotals struct {
	MinutosPrevistos int            `json:"minutosPrevistos"`
	Faltas           int            `json:"faltas"`
	DSRPerdidos      int            `json:"dsrPerdidos"`
	DiasAfastamento  map[string]int `json:"diasAfastamento"`
}

// leaveFigures are one employee's figures as a view says them.
type leaveFigures struct {
	previstos, faltas, dsr int
	dias                   map[string]int
}

// June 2024 (no national holiday; Sundays 2, 9, 16, 23, 30) on the
// standard schedule (Monday to Friday, 480 minutes), every weekday
// worked 08:00-12:00, 13:00-17:00 but on leave. By hand:
//
//	Ana    vacation 10-19 (10 days, 8 weekdays): 12 weekdays × 480 =
//	       5760 expected; a punch pair on the 12th is kept and flagged;
//	Bruno  sick leave 10 June-9 July (30 days, the INSS's from 25 June):
//	       21 days in June (15 weekdays), 5 × 480 = 2400 expected;
//	Carla  suspension 18-19 (Tue-Wed): 18 × 480 = 8640 expected, 2
//	       absences, Sunday 23's DSR lost (Lei 605/49 art. 6).
//
// The timesheet, the department report (JSON and CSV), the AEJ's type-07
// records and the payroll export say the same figures.
func TestAfastamentosNaApuracao(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	dep := e.departamento(c, "Loja")
	escala := e.escala(c, "Comercial", standard())
	const admissao = "01/06/2024" // May's unpunched days are no absences
	ana := e.funcionario(c, escala, map[string]any{"departamentoId": dep, "nome": "Ana Lima", "dataAdmissao": admissao})
	bruno := e.funcionario(c, escala, map[string]any{"departamentoId": dep, "nome": "Bruno Reis", "dataAdmissao": admissao})
	carla := e.funcionario(c, escala, map[string]any{"departamentoId": dep, "nome": "Carla Souza", "dataAdmissao": admissao})
	type leave struct {
		w              worker
		tipo, ini, fim string
	}
	leaves := []leave{{ana, "ferias", "2024-06-10", "2024-06-19"}, {bruno, "doenca", "2024-06-10", "2024-07-09"},
		{carla, "suspensao", "2024-06-18", "2024-06-19"}}
	onLeave := func(w worker, d string) bool {
		for _, l := range leaves {
			if l.w.id == w.id && d >= l.ini && d <= l.fim {
				return true
			}
		}
		return false
	}
	for d := 3; d <= 28; d++ {
		day := time.Date(2024, 6, d, 0, 0, 0, 0, time.UTC)
		if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
			continue
		}
		for _, w := range []worker{ana, bruno, carla} {
			if onLeave(w, day.Format(time.DateOnly)) {
				continue
			}
			for _, hm := range [][2]int{{8, 0}, {12, 0}, {13, 0}, {17, 0}} {
				e.punch(w, local(2024, 6, d, hm[0], hm[1]))
			}
		}
	}
	e.punch(ana, local(2024, 6, 12, 8, 0)) // on vacation: kept, flagged
	e.punch(ana, local(2024, 6, 12, 12, 0))
	e.clock.Set(local(2024, 7, 9, 10, 0)) // Bruno's last day on leave
	ids := map[int64]int64{}
	for _, l := range leaves {
		r := e.pub("POST", path("/registropontos/funcionario/%d/afastamentos", l.w.id), c.token,
			map[string]any{"tipo": l.tipo, "inicio": l.ini, "fim": l.fim, "motivo": "registrado pelo RH"})
		want(t, r, 201)
		ids[l.w.id] = id(r.obj(t))
	}
	want(t, e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"inicio": "2024-06-01"}), 200)
	wantFig := map[int64]leaveFigures{
		ana.id:   {5760, 0, 0, map[string]int{"ferias": 10}},
		bruno.id: {2400, 0, 0, map[string]int{"doenca": 21}},
		carla.id: {8640, 2, 1, map[string]int{"suspensao": 2}},
	}
	workers := []worker{ana, bruno, carla}
	check := func(view string, w worker, got leaveFigures) {
		t.Helper()
		wf := wantFig[w.id]
		if got.previstos != wf.previstos || got.faltas != wf.faltas || got.dsr != wf.dsr || len(got.dias) != len(wf.dias) {
			t.Fatalf("%s, employee %d: %+v, want %+v", view, w.id, got, wf)
		}
		for k, v := range wf.dias {
			if got.dias[k] != v {
				t.Fatalf("%s, employee %d: leave days %v, want %v", view, w.id, got.dias, wf.dias)
			}
		}
	}
	// countDays counts a view's days by leave kind, checking each names
	// its leave and owes nothing.
	countDays := func(view string, w worker, dias []leaveDay) map[string]int {
		t.Helper()
		out := map[string]int{}
		for _, d := range dias {
			if d.Afastamento == nil {
				continue
			}
			if d.Afastamento.ID != ids[w.id] || d.MinutosPrevistos != 0 || d.SaldoMinutos != 0 ||
				d.Falta != (d.Afastamento.Tipo == "suspensao") {
				t.Fatalf("%s, employee %d: leave day %+v", view, w.id, d)
			}
			out[d.Afastamento.Tipo]++
		}
		return out
	}

	// The timesheet.
	for _, w := range workers {
		var esp struct {
			Totais     leaveTotals `json:"totais"`
			Dias       []leaveDay  `json:"dias"`
			BancoHoras bancoSaldo  `json:"bancoHoras"`
		}
		r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-06", w.id), c.token, nil)
		want(t, r, 200)
		r.into(t, &esp)
		tt := esp.Totais
		check("timesheet", w, leaveFigures{tt.MinutosPrevistos, tt.Faltas, tt.DSRPerdidos, tt.DiasAfastamento})
		check("timesheet days", w, leaveFigures{tt.MinutosPrevistos, tt.Faltas, tt.DSRPerdidos, countDays("timesheet", w, esp.Dias)})
		// Worked days are exact and leave days bank nothing: Ana's 240
		// minutes on vacation are neither a credit nor a debit.
		if b := esp.BancoHoras; !b.Ativo || b.SaldoMinutos != 0 || len(b.Movimentos) != 0 {
			t.Fatalf("employee %d: hour bank %+v", w.id, b)
		}
		if w.id == ana.id {
			for _, d := range esp.Dias {
				if flagged := len(d.Alertas) == 1 && d.Alertas[0] == core.AlertaAfastamento; flagged != (d.Data == "2024-06-12") {
					t.Fatalf("Ana's %s alerts %v", d.Data, d.Alertas)
				}
			}
		}
	}
	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-06&formato=pdf", carla.id), c.token, nil)
	want(t, r, 200)
	wantText(t, pdfText(t, r), "afastamento: suspensão disciplinar (CLT art. 474")
	// Bruno's leave goes on into July: 9 days up to today.
	var julho struct {
		Totais leaveTotals `json:"totais"`
	}
	r = e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-07", bruno.id), c.token, nil)
	want(t, r, 200)
	r.into(t, &julho)
	if julho.Totais.DiasAfastamento["doenca"] != 9 {
		t.Fatalf("July's sick days %v", julho.Totais.DiasAfastamento)
	}

	// The department report, JSON and CSV.
	base := "/registropontos/departamento/" + url.PathEscape("Loja") + "?inicio=2024-06-01&fim=2024-06-30"
	var rel struct {
		Itens []struct {
			Funcionario struct {
				ID int64 `json:"id"`
			} `json:"funcionario"`
			Totais leaveTotals `json:"totais"`
			Dias   []leaveDay  `json:"dias"`
		} `json:"itens"`
	}
	r = e.pub("GET", base, c.token, nil)
	want(t, r, 200)
	r.into(t, &rel)
	if len(rel.Itens) != 3 {
		t.Fatalf("%d employees in the report", len(rel.Itens))
	}
	for i, w := range workers { // by name
		it := rel.Itens[i]
		tt := it.Totais
		check("report", w, leaveFigures{tt.MinutosPrevistos, tt.Faltas, tt.DSRPerdidos, tt.DiasAfastamento})
		check("report days", w, leaveFigures{tt.MinutosPrevistos, tt.Faltas, tt.DSRPerdidos, countDays("report", w, it.Dias)})
	}
	r = e.pub("GET", base+"&formato=csv", c.token, nil)
	want(t, r, 200)
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.body, []byte("\uFEFF"))))
	cr.Comma = ';'
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	totals := map[string]string{}
	for _, rec := range recs[1:] {
		if rec[col["data"]] == "TOTAL" {
			totals[rec[col["funcionarioId"]]] = rec[col["afastamento"]] + " " + rec[col["minutosPrevistos"]] + " " +
				rec[col["falta"]]
		}
	}
	if totals[itoa(ana.id)] != "ferias=10 5760 0" || totals[itoa(bruno.id)] != "doenca=21 2400 0" ||
		totals[itoa(carla.id)] != "suspensao=2 8640 2" {
		t.Fatalf("report CSV totals %v", totals)
	}

	// The AEJ: Carla's suspension days are type-07 code 2 (falta não
	// justificada), her lost DSR no code 1; nothing else for the leaves.
	r = e.pub("GET", "/registropontos/aej?inicio=2024-06-01&fim=2024-06-30", c.token, nil)
	want(t, r, 200)
	lido, err := core.ParseAEJ(r.body)
	if err != nil {
		t.Fatal(err)
	}
	vinculo := map[string]int64{}
	for _, rec := range lido.Registros["03"] {
		for _, w := range workers {
			if rec[2] == digits(w.cpf) {
				vinculo[rec[1]] = w.id
			}
		}
	}
	faltas, dsrs := map[int64][]string{}, map[int64]int{}
	for _, rec := range lido.Registros["07"] {
		switch rec[2] {
		case core.AusenciaFalta:
			faltas[vinculo[rec[1]]] = append(faltas[vinculo[rec[1]]], rec[3])
		case core.AusenciaDSR:
			dsrs[vinculo[rec[1]]]++
		}
	}
	if strings.Join(faltas[carla.id], ",") != "2024-06-18,2024-06-19" || len(faltas[ana.id])+len(faltas[bruno.id]) != 0 ||
		dsrs[carla.id] != 4 || dsrs[ana.id] != 5 || dsrs[bruno.id] != 5 {
		t.Fatalf("AEJ absences %v, DSR %v", faltas, dsrs)
	}

	// The payroll export: leave days by kind, absences and DSR lost.
	r = e.pub("GET", "/registropontos/folha?inicio=2024-06-01&fim=2024-06-30", c.token, nil)
	want(t, r, 200)
	_, byCPF := parseFolhaCSV(t, r.body)
	for _, w := range workers {
		got := byCPF[digits(w.cpf)]
		f := leaveFigures{wantFig[w.id].previstos, got["faltas"][1], got["dsrPerdidos"][1], map[string]int{}}
		for ev, q := range got {
			if tipo, ok := strings.CutPrefix(ev, "afastamento_"); ok {
				if q[0] != 0 {
					t.Fatalf("export %s counts minutes: %v", ev, q)
				}
				f.dias[tipo] = q[1]
			}
		}
		check("export", w, f)
	}

	// The company sees the vacation's punches among the days to treat, and
	// Bruno away today.
	var hoje struct {
		Funcionarios []struct {
			ID       int64  `json:"id"`
			Situacao string `json:"situacao"`
		} `json:"funcionarios"`
		Pendencias struct {
			Alertas []struct {
				FuncionarioID int64    `json:"funcionarioId"`
				Data          string   `json:"data"`
				Alertas       []string `json:"alertas"`
			} `json:"alertas"`
		} `json:"pendencias"`
	}
	r = e.pub("GET", "/registropontos/hoje", c.token, nil)
	want(t, r, 200)
	r.into(t, &hoje)
	found := false
	for _, p := range hoje.Pendencias.Alertas {
		if p.FuncionarioID == ana.id && p.Data == "2024-06-12" && len(p.Alertas) == 1 && p.Alertas[0] == core.AlertaAfastamento {
			found = true
		}
	}
	if !found {
		t.Fatalf("the vacation's punches are not among the days to treat: %s", r.body)
	}
	if len(hoje.Funcionarios) != 3 {
		t.Fatalf("today lists %d employees", len(hoje.Funcionarios))
	}
	for _, f := range hoje.Funcionarios {
		if (f.Situacao == string(core.SituacaoAfastado)) != (f.ID == bruno.id) {
			t.Fatalf("today: %+v", hoje.Funcionarios)
		}
	}
}
