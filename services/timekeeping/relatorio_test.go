package main

import (
	"bytes"
	"encoding/csv"
	"net/url"
	"strings"
	"testing"
	"time"
)

// reportDay is a day of the report as the tests read it.
type reportDay struct {
	Data               string `json:"data"`
	MinutosTrabalhados int    `json:"minutosTrabalhados"`
	MinutosPrevistos   int    `json:"minutosPrevistos"`
	MinutosExtras      int    `json:"minutosExtras"`
	MinutosAtraso      int    `json:"minutosAtraso"`
	SaldoMinutos       int    `json:"saldoMinutos"`
	Falta              bool   `json:"falta"`
	AjustesPendentes   int    `json:"ajustesPendentes"`
	Incompleto         bool   `json:"incompleto"`
	Marcacoes          []struct {
		ID              int64  `json:"id"`
		Tipo            string `json:"tipo"`
		HorarioRegistro string `json:"horarioRegistro"`
		HorarioEfetivo  string `json:"horarioEfetivo"`
		HoraLocal       string `json:"horaLocal"`
		Status          string `json:"status"`
	} `json:"marcacoes"`
}

type reportTotals struct {
	MinutosTrabalhados int `json:"minutosTrabalhados"`
	MinutosPrevistos   int `json:"minutosPrevistos"`
	MinutosExtras      int `json:"minutosExtras"`
	MinutosAtraso      int `json:"minutosAtraso"`
	SaldoMinutos       int `json:"saldoMinutos"`
	Faltas             int `json:"faltas"`
	AjustesPendentes   int `json:"ajustesPendentes"`
}

type report struct {
	Departamento struct {
		ID   int64  `json:"id"`
		Nome string `json:"nome"`
	} `json:"departamento"`
	Inicio, Fim string
	Totais      reportTotals `json:"totais"`
	Itens       []struct {
		Funcionario struct {
			ID   int64  `json:"id"`
			Nome string `json:"nome"`
		} `json:"funcionario"`
		Dias   []reportDay  `json:"dias"`
		Totais reportTotals `json:"totais"`
	} `json:"itens"`
	Pagina, Tamanho, Total int
}

// day summarises a report day as "data worked/expected/extra/late/saldo
// falta pendentes incompleto".
func (d reportDay) String() string {
	return d.Data + " " + itoa(int64(d.MinutosTrabalhados)) + "/" + itoa(int64(d.MinutosPrevistos)) + "/" +
		itoa(int64(d.MinutosExtras)) + "/" + itoa(int64(d.MinutosAtraso)) + "/" + itoa(int64(d.SaldoMinutos)) +
		" falta=" + yes(d.Falta) + " pend=" + itoa(int64(d.AjustesPendentes)) + " inc=" + yes(d.Incompleto)
}

func yes(b bool) string {
	if b {
		return "s"
	}
	return "n"
}

// setUpReportWeek records the week of 2024-03-04 (Monday) to 03-10 for
// the department "Operações": Ana on the standard schedule (08:00, 480
// minutes Monday to Friday) and Bruno on a half-day one (13:00, 240
// minutes Monday to Saturday); Carla, in another department, punches too.
func setUpReportWeek(e *env) (company, worker, worker) {
	t := e.t
	c := e.company(1)
	ops := e.departamento(c, "Operações")
	fin := e.departamento(c, "Financeiro")
	meio := horario("13:00", 120, 135, 255) // 13:00-17:15, 15 minutes of break: 240
	ana := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Lima", "departamentoId": ops})
	bruno := e.funcionario(c, e.escala(c, "Meio período", []map[string]any{meio, meio, meio, meio, meio, meio}),
		map[string]any{"nome": "Bruno Reis", "departamentoId": ops})
	carla := e.funcionario(c, e.escala(c, "Financeiro", standard()), map[string]any{"nome": "Carla Dias", "departamentoId": fin})

	punchAll := func(w worker, times ...time.Time) []int64 {
		var ids []int64
		for _, at := range times {
			ids = append(ids, id(e.punch(w, at)))
		}
		return ids
	}
	// Monday: 10 minutes late, 30 minutes more at the end: 230 + 270 = 500.
	punchAll(ana, local(2024, 3, 4, 8, 10), local(2024, 3, 4, 12, 0), local(2024, 3, 4, 13, 0), local(2024, 3, 4, 17, 30))
	// Tuesday: left at 16:00 by the clock, approved adjustment to 17:00: 240 + 240.
	tue := punchAll(ana, local(2024, 3, 5, 8, 0), local(2024, 3, 5, 12, 0), local(2024, 3, 5, 13, 0), local(2024, 3, 5, 16, 0))
	// Thursday: 07:55 (counted as is, 245 + 240 = 485, within the CLT
	// tolerance: no overtime), with a pending request to make it 08:00.
	thu := punchAll(ana, local(2024, 3, 7, 7, 55), local(2024, 3, 7, 12, 0), local(2024, 3, 7, 13, 0), local(2024, 3, 7, 17, 0))
	// Saturday, a rest day: 09:00-11:00 (120, all overtime); the request
	// to make the 11:00 punch 12:00 is rejected, so 11:00 stands.
	sat := punchAll(ana, local(2024, 3, 9, 9, 0), local(2024, 3, 9, 11, 0))
	// Bruno, Monday: 13:20 (20 late) to 15:00, 15:15 to 17:15: 100 + 120.
	punchAll(bruno, local(2024, 3, 4, 13, 20), local(2024, 3, 4, 15, 0), local(2024, 3, 4, 15, 15), local(2024, 3, 4, 17, 15))
	// Bruno, Tuesday: a lone entrada, on time: nothing worked, incomplete.
	punchAll(bruno, local(2024, 3, 5, 13, 0))
	punchAll(carla, local(2024, 3, 4, 8, 0), local(2024, 3, 4, 18, 0))

	e.clock.Set(local(2024, 3, 11, 9, 0))
	want(t, e.solicitar(ana, tue[3], local(2024, 3, 5, 17, 0).UTC().Format(time.RFC3339), "Saí às 17h, o celular descarregou"), 200)
	want(t, e.pub("PUT", path("/registropontos/%d/aprovar", tue[3]), c.token, nil), 200)
	want(t, e.solicitar(ana, thu[0], local(2024, 3, 7, 8, 0).UTC().Format(time.RFC3339), "Entrada às 8h"), 200)
	want(t, e.solicitar(ana, sat[1], local(2024, 3, 9, 12, 0).UTC().Format(time.RFC3339), "Fiquei até meio-dia"), 200)
	want(t, e.pub("PUT", path("/registropontos/%d/reprovar", sat[1]), c.token, nil), 200)
	// Wednesday: Ana absent.
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-06", ana.id), c.token, nil), 200)
	return c, ana, bruno
}

func TestDepartmentReportFigures(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, ana, bruno := setUpReportWeek(e)

	base := "/registropontos/departamento/" + url.PathEscape("operações") // any case
	r := e.pub("GET", base+"?inicio=2024-03-04&fim=2024-03-10", c.token, nil)
	want(t, r, 200)
	var rep report
	r.into(t, &rep)
	if rep.Departamento.Nome != "Operações" || rep.Inicio != "2024-03-04" || rep.Fim != "2024-03-10" || rep.Total != 2 || len(rep.Itens) != 2 {
		t.Fatalf("report header: %s", r.body)
	}
	a, b := rep.Itens[0], rep.Itens[1]
	if a.Funcionario.ID != ana.id || b.Funcionario.ID != bruno.id {
		t.Fatalf("employees %d, %d; want Ana %d then Bruno %d", a.Funcionario.ID, b.Funcionario.ID, ana.id, bruno.id)
	}
	// Hand-computed: worked/expected/extra/late/saldo.
	wantDays(t, "Ana", a.Dias, []string{
		"2024-03-04 500/480/20/10/20 falta=n pend=0 inc=n",
		"2024-03-05 480/480/0/0/0 falta=n pend=0 inc=n",
		"2024-03-06 0/480/0/0/-480 falta=s pend=0 inc=n",
		// 07:55: 5 minutes early, within art. 58 §1's tolerance: no overtime.
		"2024-03-07 485/480/0/0/0 falta=n pend=1 inc=n",
		"2024-03-08 0/480/0/0/-480 falta=s pend=0 inc=n", // unpunched: the rule's absence (core.FaltaInjustificada)
		"2024-03-09 120/0/120/0/120 falta=n pend=0 inc=n",
	})
	wantTotals(t, "Ana", a.Totais, reportTotals{1585, 2400, 140, 10, -820, 2, 1})
	wantDays(t, "Bruno", b.Dias, []string{
		"2024-03-04 220/240/0/20/-20 falta=n pend=0 inc=n",
		"2024-03-05 0/240/0/0/-240 falta=n pend=0 inc=s",
		"2024-03-06 0/240/0/0/-240 falta=s pend=0 inc=n",
		"2024-03-07 0/240/0/0/-240 falta=s pend=0 inc=n",
		"2024-03-08 0/240/0/0/-240 falta=s pend=0 inc=n",
		"2024-03-09 0/240/0/0/-240 falta=s pend=0 inc=n",
	})
	wantTotals(t, "Bruno", b.Totais, reportTotals{220, 1440, 0, 20, -1220, 4, 0})
	wantTotals(t, "department", rep.Totais, reportTotals{1805, 3840, 140, 30, -2040, 6, 1})

	// The punches: original and effective times, in local time too.
	tue := a.Dias[1].Marcacoes
	if len(tue) != 4 || tue[3].Tipo != "saída" || tue[3].Status != "ajuste aprovado pela empresa" ||
		tue[3].HorarioRegistro != "2024-03-05T19:00:00.000Z" || tue[3].HorarioEfetivo != "2024-03-05T20:00:00.000Z" || tue[3].HoraLocal != "17:00" {
		t.Fatalf("Tuesday's punches: %+v", tue)
	}
	if sat := a.Dias[5].Marcacoes; len(sat) != 2 || sat[1].Status != "ajuste reprovado pela empresa" || sat[1].HoraLocal != "11:00" {
		t.Fatalf("Saturday's punches: %+v", sat)
	}
	if len(a.Dias[2].Marcacoes) != 0 || a.Dias[2].Marcacoes == nil {
		t.Fatalf("an absent day lists punches as %v, want []", a.Dias[2].Marcacoes)
	}

	// Pagination over employees; the department totals stay whole.
	r = e.pub("GET", base+"?inicio=2024-03-04&fim=2024-03-10&tamanho=1&pagina=2", c.token, nil)
	want(t, r, 200)
	var second report
	r.into(t, &second)
	if second.Total != 2 || second.Pagina != 2 || second.Tamanho != 1 || len(second.Itens) != 1 ||
		second.Itens[0].Funcionario.ID != bruno.id || second.Totais != rep.Totais {
		t.Fatalf("page 2: %s", r.body)
	}
	// Default period: the current month, computed up to today (the 11th).
	r = e.pub("GET", base, c.token, nil)
	want(t, r, 200)
	var month report
	r.into(t, &month)
	if month.Inicio != "2024-03-01" || month.Fim != "2024-03-31" {
		t.Fatalf("default period %s..%s", month.Inicio, month.Fim)
	}
	last := month.Itens[0].Dias[len(month.Itens[0].Dias)-1]
	if last.Data != "2024-03-11" || month.Itens[0].Dias[0].Data != "2024-03-01" {
		t.Fatalf("month days from %s to %s", month.Itens[0].Dias[0].Data, last.Data)
	}
}

func wantDays(t *testing.T, who string, got []reportDay, want []string) {
	t.Helper()
	var lines []string
	for _, d := range got {
		lines = append(lines, d.String())
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s's days:\n%s\nwant:\n%s", who, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func wantTotals(t *testing.T, who string, got, want reportTotals) {
	t.Helper()
	if got != want {
		t.Fatalf("%s's totals %+v, want %+v", who, got, want)
	}
}

func TestDepartmentReportCSV(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, ana, bruno := setUpReportWeek(e)

	r := e.pub("GET", "/registropontos/departamento/"+url.PathEscape("Operações")+"?inicio=2024-03-04&fim=2024-03-10&formato=csv", c.token, nil)
	want(t, r, 200)
	if ct := r.header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="relatorio-operacoes-2024-03-04-2024-03-10.csv"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	body, ok := bytes.CutPrefix(r.body, []byte("\uFEFF"))
	if !ok || !bytes.Contains(body, []byte("\r\n")) {
		t.Fatalf("want a UTF-8 BOM and CRLF line ends: %q", r.body)
	}
	rd := csv.NewReader(bytes.NewReader(body))
	rd.Comma = ';'
	rows, err := rd.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Header, 6 days + TOTAL for each of the two, the department's total.
	if len(rows) != 1+7+7+1 {
		t.Fatalf("%d rows:\n%s", len(rows), body)
	}
	if strings.Join(rows[0], ";") != "funcionarioId;nome;cpf;data;marcacoes;minutosTrabalhados;minutosPrevistos;minutosExtras;minutosAtraso;saldoMinutos;falta;ajustesPendentes;incompleto;minutosExtras50;minutosExtras100;minutosNoturnos;minutosNoturnosReduzidos;feriado;alertas;minutosIntervaloSuprimido;minutosInterjornada;faltaMarcada;afastamento" {
		t.Fatalf("header %v", rows[0])
	}
	anaID, brunoID := itoa(ana.id), itoa(bruno.id)
	for i, w := range [][]string{
		{anaID, "Ana Lima", ana.cpf, "2024-03-04", "08:10 entrada | 12:00 almoço | 13:00 retorno almoço | 17:30 saída", "500", "480", "20", "10", "20", "não", "0", "não", "20", "0", "0", "0", "", "", "0", "0", "não", ""},
		{anaID, "Ana Lima", ana.cpf, "2024-03-05", "08:00 entrada | 12:00 almoço | 13:00 retorno almoço | 17:00 saída (ajustada)", "480", "480", "0", "0", "0", "não", "0", "não", "0", "0", "0", "0", "", "", "0", "0", "não", ""},
		{anaID, "Ana Lima", ana.cpf, "2024-03-06", "", "0", "480", "0", "0", "-480", "sim", "0", "não", "0", "0", "0", "0", "", "", "0", "0", "sim", ""},
		{anaID, "Ana Lima", ana.cpf, "2024-03-07", "07:55 entrada (ajuste pendente) | 12:00 almoço | 13:00 retorno almoço | 17:00 saída", "485", "480", "0", "0", "0", "não", "1", "não", "0", "0", "0", "0", "", "", "0", "0", "não", ""},
	} {
		if got := strings.Join(rows[1+i], ";"); got != strings.Join(w, ";") {
			t.Errorf("row %d:\n got %s\nwant %s", 1+i, got, strings.Join(w, ";"))
		}
	}
	for i, w := range map[int][]string{
		7:  {anaID, "Ana Lima", ana.cpf, "TOTAL", "", "1585", "2400", "140", "10", "-820", "2", "1", "", "140", "0", "0", "0", "", "0", "0", "0", "", ""},
		14: {brunoID, "Bruno Reis", bruno.cpf, "TOTAL", "", "220", "1440", "0", "20", "-1220", "4", "0", "", "0", "0", "0", "0", "", "0", "0", "0", "", ""},
		15: {"", "TOTAL DO DEPARTAMENTO Operações", "", "2024-03-04 a 2024-03-10", "", "1805", "3840", "140", "30", "-2040", "6", "1", "", "140", "0", "0", "0", "", "0", "0", "0", "", ""},
	} {
		if got := strings.Join(rows[i], ";"); got != strings.Join(w, ";") {
			t.Errorf("row %d:\n got %s\nwant %s", i, got, strings.Join(w, ";"))
		}
	}
}

func TestDepartmentReportRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	e.departamento(c, "Vendas")
	other := e.company(2)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	e.clock.Set(local(2024, 3, 11, 9, 0))

	// Empty department: no employees, zero totals.
	r := e.pub("GET", "/registropontos/departamento/Vendas", c.token, nil)
	want(t, r, 200)
	var rep report
	r.into(t, &rep)
	if rep.Total != 0 || len(rep.Itens) != 0 || rep.Totais != (reportTotals{}) {
		t.Fatalf("empty department: %s", r.body)
	}
	// Another company's department, or an unknown one: 404.
	wantErr(t, e.pub("GET", "/registropontos/departamento/Vendas", other.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/departamento/Compras", c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/departamento/Vendas", w.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/registropontos/departamento/Vendas", "", nil), 401, "nao_autenticado")
	for _, q := range []string{"?inicio=2024-03-10&fim=2024-03-01", "?inicio=2023-01-01&fim=2024-03-01", "?inicio=2024-13-01",
		"?fim=ontem", "?formato=xlsx", "?tamanho=101", "?pagina=0"} {
		wantErr(t, e.pub("GET", "/registropontos/departamento/Vendas"+q, c.token, nil), 400, "validacao")
	}
	wantErr(t, e.pub("GET", "/registropontos/departamento/"+strings.Repeat("x", 101), c.token, nil), 400, "validacao")
	// A year is fine.
	want(t, e.pub("GET", "/registropontos/departamento/Vendas?inicio=2023-03-12&fim=2024-03-11", c.token, nil), 200)
}
