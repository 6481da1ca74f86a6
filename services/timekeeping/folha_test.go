package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// folhaEspelho is what the export is checked against: an employee's
// timesheet JSON (its totals, its days' absences and its hour bank).
type folhaEspelho struct {
	Funcionario struct {
		CPF string `json:"cpf"`
	} `json:"funcionario"`
	Totais struct {
		Extras50           int `json:"minutosExtras50"`
		Extras100          int `json:"minutosExtras100"`
		Noturnos           int `json:"minutosNoturnos"`
		NoturnosReduzidos  int `json:"minutosNoturnosReduzidos"`
		Atraso             int `json:"minutosAtraso"`
		Faltas             int `json:"faltas"`
		DSRPerdidos        int `json:"dsrPerdidos"`
		IntervaloSuprimido int `json:"minutosIntervaloSuprimido"`
		Interjornada       int `json:"minutosInterjornada"`
	} `json:"totais"`
	Dias []struct {
		Falta            bool `json:"falta"`
		MinutosPrevistos int  `json:"minutosPrevistos"`
	} `json:"dias"`
	BancoHoras struct {
		Movimentos []struct {
			Tipo    string `json:"tipo"`
			Minutos int    `json:"minutos"`
		} `json:"movimentos"`
	} `json:"bancoHoras"`
}

// figures are an employee's events as {evento: [minutos, dias]}.
type figures map[string][2]int

// fromEspelho is what the export must say of the employee whose
// timesheet esp is: its non-zero totals.
func fromEspelho(esp folhaEspelho) figures {
	t := esp.Totais
	out := figures{}
	put := func(ev string, min, dias int) {
		if min != 0 || dias != 0 {
			out[ev] = [2]int{min, dias}
		}
	}
	faltaMin := 0
	for _, d := range esp.Dias {
		if d.Falta {
			faltaMin += d.MinutosPrevistos
		}
	}
	pago, descontado := 0, 0
	for _, m := range esp.BancoHoras.Movimentos {
		switch m.Tipo {
		case "pagamento":
			pago += max(m.Minutos, -m.Minutos)
		case "desconto":
			descontado += max(m.Minutos, -m.Minutos)
		}
	}
	put("extras50", t.Extras50, 0)
	put("extras100", t.Extras100, 0)
	put("noturnos", t.Noturnos, 0)
	put("noturnosReduzidos", t.NoturnosReduzidos, 0)
	put("atrasos", t.Atraso, 0)
	put("faltas", faltaMin, t.Faltas)
	put("dsrPerdidos", 0, t.DSRPerdidos)
	put("bancoPago", pago, 0)
	put("bancoDescontado", descontado, 0)
	put("intervaloSuprimido", t.IntervaloSuprimido, 0)
	put("interjornada", t.Interjornada, 0)
	return out
}

// parseFolhaCSV reads the export's CSV apart from its writer: the
// preamble lines ("# ..."), then by CPF (digits) each event's minutes
// and days, checking that horas (H:MM) says the minutes again.
func parseFolhaCSV(t *testing.T, body []byte) (preamble []string, byCPF map[string]figures) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() && strings.HasPrefix(sc.Text(), "# ") {
		preamble = append(preamble, sc.Text())
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "cpf,nome,evento,codigo,minutos,horas,dias" {
		t.Fatalf("header %v", recs[0])
	}
	byCPF = map[string]figures{}
	for _, rec := range recs[1:] {
		mins, err := strconv.Atoi(rec[4])
		h, m, ok := strings.Cut(rec[5], ":")
		hh, err2 := strconv.Atoi(h)
		mm, err3 := strconv.Atoi(m)
		if err != nil || err2 != nil || err3 != nil || !ok || len(m) != 2 || hh*60+mm != mins {
			t.Fatalf("minutos/horas of %v", rec)
		}
		dias := 0
		if rec[6] != "" {
			if dias, err = strconv.Atoi(rec[6]); err != nil {
				t.Fatalf("dias of %v", rec)
			}
		}
		if byCPF[rec[0]] == nil {
			byCPF[rec[0]] = figures{}
		}
		byCPF[rec[0]][rec[2]] = [2]int{mins, dias}
	}
	return preamble, byCPF
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// setUpFolhaMonth is the CLT month (setUpCLTMonth) plus an employee
// whose break is cut short, an active hour bank with a payment and a
// discount, and two pending requests.
func setUpFolhaMonth(e *env) (company, []worker) {
	t := e.t
	c, davi, colega := setUpCLTMonth(e)
	ana := e.funcionario(c, davi.escalaID, map[string]any{"nome": "Ana Lima"})
	for _, hm := range [][2]int{{8, 0}, {12, 0}, {12, 20}, {17, 0}} { // a 20-minute lunch: art. 71 §4
		e.punch(ana, local(2024, 3, 12, hm[0], hm[1]))
	}
	p := e.punch(colega, local(2024, 3, 13, 8, 10))
	e.clock.Set(local(2024, 4, 5, 9, 0))
	want(t, e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"inicio": "2024-03-01"}), 200)
	mov := func(w worker, body map[string]any) {
		want(t, e.pub("POST", path("/registropontos/funcionario/%d/banco-horas/movimentos", w.id), c.token, body), 201)
	}
	mov(davi, map[string]any{"data": "2024-03-29", "tipo": "pagamento", "minutos": 60, "motivo": "pago na folha"})
	mov(colega, map[string]any{"data": "2024-03-30", "tipo": "desconto", "minutos": 30, "motivo": "descontado"})
	want(t, e.solicitar(colega, id(p), local(2024, 3, 13, 8, 0).UTC().Format(time.RFC3339), "cheguei às oito"), 200)
	want(t, e.pub("POST", "/registropontos/solicitacoes", ana.token, map[string]any{"horario": "2024-03-14T08:00:00-03:00",
		"motivo": "esqueci a entrada"}), 201)
	return c, []worker{davi, colega, ana}
}

// The export's figures equal every employee's timesheet totals to the
// minute; an open month is provisional and names its pending requests;
// the closed month exports final, in the CSV and in a layout.
func TestFolhaExportMatchesTimesheets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, workers := setUpFolhaMonth(e)
	const period = "inicio=2024-03-01&fim=2024-03-31"

	r := e.pub("GET", "/registropontos/folha?"+period, c.token, nil)
	want(t, r, 200)
	if r.header.Get("Folha-Situacao") != "provisoria" || r.header.Get("Folha-Pendencias") != "2" ||
		!strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(r.header.Get("Content-Disposition"), "folha-2024-03-01-2024-03-31.csv") {
		t.Fatalf("headers %v", r.header)
	}
	preamble, byCPF := parseFolhaCSV(t, r.body)
	if len(preamble) != 3 || !strings.HasPrefix(preamble[0], "# PROVISÓRIO") ||
		!strings.Contains(preamble[1], "ajuste") || !strings.Contains(preamble[1], "funcionário "+itoa(workers[1].id)) ||
		!strings.Contains(preamble[2], "inclusao") || !strings.Contains(preamble[2], "2024-03-14") {
		t.Fatalf("preamble %q", preamble)
	}
	compareWithTimesheets(t, e, c, workers, byCPF)

	// Decided and closed: final, no preamble, the same figures.
	pendentes := e.pub("GET", "/registropontos/solicitacoes", c.token, nil)
	want(t, pendentes, 200)
	var sol struct {
		Itens []struct {
			ID int64 `json:"id"`
		} `json:"itens"`
	}
	pendentes.into(t, &sol)
	for _, s := range sol.Itens {
		want(t, e.pub("PUT", path("/registropontos/solicitacoes/%d/reprovar", s.ID), c.token, nil), 200)
	}
	fechar := func() int64 {
		r := e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-03-01", "fim": "2024-03-31"})
		want(t, r, 201)
		return id(r.obj(t))
	}
	fechamento := fechar()
	r = e.pub("GET", "/registropontos/folha?"+period, c.token, nil)
	want(t, r, 200)
	// Closed: final, but the adjustment still pending is listed.
	if r.header.Get("Folha-Situacao") != "final" || r.header.Get("Folha-Pendencias") != "1" ||
		!strings.HasPrefix(string(r.body), "# PENDENTE: solicitação de ajuste") {
		t.Fatalf("closed with a punch adjustment still pending: %v %s", r.header, r.body)
	}
	// Reopened, decided and closed again: final, nothing before the header.
	want(t, e.pub("POST", path("/registropontos/fechamentos/%d/reabrir", fechamento), c.token,
		map[string]any{"motivo": "decidir o ajuste pendente"}), 200)
	want(t, e.pub("PUT", path("/registropontos/%d/reprovar", pendingPunch(t, e, c)), c.token, nil), 200)
	fechar()
	r = e.pub("GET", "/registropontos/folha?"+period, c.token, nil)
	want(t, r, 200)
	if r.header.Get("Folha-Situacao") != "final" || r.header.Get("Folha-Pendencias") != "0" ||
		!strings.HasPrefix(string(r.body), "cpf,nome,") {
		t.Fatalf("final export: %v %s", r.header, r.body)
	}
	_, byCPF = parseFolhaCSV(t, r.body)
	compareWithTimesheets(t, e, c, workers, byCPF)

	// The Calima layout, read back by its positions: the same figures.
	r = e.pub("GET", "/registropontos/folha?"+period+"&formato=layout&layout=calima", c.token, nil)
	want(t, r, 200)
	mapa := e.pub("GET", "/registropontos/folha/eventos", c.token, nil)
	want(t, mapa, 200)
	var codes map[string]string
	mapa.into(t, &codes)
	evento := map[string]string{}
	for ev, cod := range codes {
		evento[cod] = ev
	}
	calima := map[string]figures{}
	for _, l := range strings.Split(strings.TrimSpace(string(r.body)), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if len(l) != 19 || l[5:11] != "202403" {
			t.Fatalf("calima line %q", l)
		}
		matricula, _ := strconv.Atoi(l[0:5])
		hh, _ := strconv.Atoi(l[14:17])
		mm, _ := strconv.Atoi(l[17:19])
		key := strconv.Itoa(matricula)
		if calima[key] == nil {
			calima[key] = figures{}
		}
		calima[key][evento[l[11:14]]] = [2]int{hh*60 + mm, 0}
	}
	for _, w := range workers {
		want := fromEspelho(espelhoOf(t, e, c, w))
		for ev, f := range want {
			q := f[0]
			if ev == "dsrPerdidos" {
				q = f[1] * 60 // days ride in the hours
			}
			if got := calima[itoa(w.id)][ev][0]; got != q {
				t.Fatalf("calima %d %s = %d, want %d", w.id, ev, got, q)
			}
		}
		if len(calima[itoa(w.id)]) != len(want) {
			t.Fatalf("calima %d: %v, want %v", w.id, calima[itoa(w.id)], want)
		}
	}
}

// pendingPunch is the punch whose adjustment is still pending.
func pendingPunch(t *testing.T, e *env, c company) int64 {
	t.Helper()
	r := e.pub("GET", "/registropontos/ajustes?status=pendente", c.token, nil)
	want(t, r, 200)
	var page struct {
		Itens []struct {
			ID int64 `json:"id"`
		} `json:"itens"`
	}
	r.into(t, &page)
	if len(page.Itens) != 1 {
		t.Fatalf("pending adjustments: %s", r.body)
	}
	return page.Itens[0].ID
}

func espelhoOf(t *testing.T, e *env, c company, w worker) folhaEspelho {
	t.Helper()
	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", w.id), c.token, nil)
	want(t, r, 200)
	var esp folhaEspelho
	r.into(t, &esp)
	return esp
}

// compareWithTimesheets fails unless byCPF holds, for every worker,
// exactly his timesheet's figures, and nobody else.
func compareWithTimesheets(t *testing.T, e *env, c company, workers []worker, byCPF map[string]figures) {
	t.Helper()
	if len(byCPF) != len(workers) {
		t.Fatalf("%d employees exported, want %d: %v", len(byCPF), len(workers), byCPF)
	}
	nonZero := 0
	for _, w := range workers {
		esp := espelhoOf(t, e, c, w)
		want, got := fromEspelho(esp), byCPF[digits(esp.Funcionario.CPF)]
		if len(got) != len(want) {
			t.Fatalf("employee %d: exported %v, timesheet %v", w.id, got, want)
		}
		for ev, f := range want {
			if got[ev] != f {
				t.Fatalf("employee %d %s: exported %v, timesheet %v", w.id, ev, got[ev], f)
			}
		}
		nonZero += len(want)
	}
	if nonZero < 10 {
		t.Fatalf("the month tries too few events: %d", nonZero)
	}
}

// The mapping and the layouts: defaults, edits, refusals that store
// nothing, a code too long for the layout's field, and each company its
// own.
func TestFolhaMappingLayoutsAndBadInput(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, _ := e.outsider()
	for _, hm := range [][2]int{{8, 0}, {12, 0}, {13, 0}, {18, 30}} {
		e.punch(w, local(2024, 3, 5, hm[0], hm[1]))
	}
	e.clock.Set(local(2024, 4, 5, 9, 0))
	const period = "/registropontos/folha?inicio=2024-03-01&fim=2024-03-31"
	eventos := func(tok string) map[string]string {
		r := e.pub("GET", "/registropontos/folha/eventos", tok, nil)
		want(t, r, 200)
		var m map[string]string
		r.into(t, &m)
		return m
	}
	if m := eventos(c.token); m["extras50"] != "150" || m["afastamento_ferias"] != "400" || len(m) != 23 {
		t.Fatalf("defaults %v", m)
	}
	r := e.pub("PUT", "/registropontos/folha/eventos", c.token, map[string]any{"extras50": "0150", "interjornada": ""})
	want(t, r, 200)
	if m := r.obj(t); m["extras50"] != "0150" || m["interjornada"] != "" || m["extras100"] != "200" {
		t.Fatalf("saved %s", r.body)
	}
	for field, bad := range map[string]map[string]any{"salario": {"salario": "1"}, "atrasos": {"atrasos": "a b"},
		"faltas": {"faltas": strings.Repeat("9", 21)}} {
		r := e.pub("PUT", "/registropontos/folha/eventos", c.token, bad)
		wantErr(t, r, 400, "validacao")
		if r.fields(t)[field] == nil {
			t.Fatalf("%s: %s", field, r.body)
		}
	}
	if m := eventos(c.token); m["extras50"] != "0150" || m["atrasos"] != "300" {
		t.Fatalf("a refusal changed the mapping: %v", m)
	}
	if m := eventos(other.token); m["extras50"] != "150" || m["interjornada"] != "171" {
		t.Fatalf("another company sees the first's codes: %v", m)
	}

	// Calima's EEE has 3 places: 0150 does not fit, named.
	r = e.pub("GET", period+"&formato=layout&layout=calima", c.token, nil)
	wantErr(t, r, 400, "validacao")
	if msg, _ := r.fields(t)["codigo"].(string); !strings.Contains(msg, "extras50") {
		t.Fatalf("the field and the event must be named: %s", r.body)
	}
	r = e.pub("GET", period+"&formato=layout&layout=generico", c.token, nil)
	want(t, r, 200)
	if !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") ||
		!strings.Contains(string(r.body), "0150") || !strings.Contains(string(r.body), digits(w.cpf)) {
		t.Fatalf("generico: %s", r.body)
	}

	// Bad input: 400 naming the parameter; roles; tenants.
	for field, q := range map[string]string{"formato": "&formato=xml", "layout": "&formato=layout&layout=Nope!",
		"estabelecimento": "&estabelecimento=-1"} {
		r := e.pub("GET", period+q, c.token, nil)
		wantErr(t, r, 400, "validacao")
		if r.fields(t)[field] == nil {
			t.Fatalf("%s: %s", field, r.body)
		}
	}
	r = e.pub("GET", period+"&formato=layout&layout=nao-existe", c.token, nil)
	wantErr(t, r, 400, "validacao")
	if r.fields(t)["layout"] == nil {
		t.Fatalf("unknown layout: %s", r.body)
	}
	r = e.pub("GET", "/registropontos/folha?inicio=2024-04-01&fim=2024-03-01", c.token, nil)
	wantErr(t, r, 400, "validacao")
	wantErr(t, e.pub("GET", period, w.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("PUT", "/registropontos/folha/eventos", w.token, map[string]any{}), 403, "acesso_negado")
	r = e.pub("GET", period, other.token, nil)
	want(t, r, 200)
	if strings.Contains(string(r.body), digits(w.cpf)) {
		t.Fatalf("another company's export lists this one's employee: %s", r.body)
	}
	r = e.pub("GET", period+"&estabelecimento=0", c.token, nil)
	want(t, r, 200)
	if !strings.Contains(string(r.body), digits(w.cpf)) {
		t.Fatalf("the principal establishment's export: %s", r.body)
	}
	r = e.pub("GET", period+"&estabelecimento=999", c.token, nil)
	want(t, r, 200)
	if _, byCPF := parseFolhaCSV(t, r.body); len(byCPF) != 0 {
		t.Fatalf("an establishment without employees: %s", r.body)
	}

	// A company's own layout: saved, read back, used; another company
	// does not see it; a bad one is refused and stores nothing.
	minha := map[string]any{"descricao": "matrícula, código e centésimos", "campos": []map[string]any{
		{"campo": "codigo", "inicio": 7, "tamanho": 4, "alinhamento": "direita", "preenchimento": "0"},
		{"campo": "matricula", "inicio": 1, "tamanho": 6, "alinhamento": "direita", "preenchimento": "0"},
		{"campo": "centesimos", "inicio": 11, "tamanho": 6, "alinhamento": "direita", "preenchimento": "0"}}}
	want(t, e.pub("PUT", "/registropontos/folha/layouts/minha", c.token, minha), 200)
	r = e.pub("GET", "/registropontos/folha/layouts/minha", c.token, nil)
	want(t, r, 200)
	var got struct {
		Campos []struct {
			Campo  string `json:"campo"`
			Inicio int    `json:"inicio"`
		} `json:"campos"`
	}
	r.into(t, &got)
	if len(got.Campos) != 3 || got.Campos[0].Campo != "matricula" || got.Campos[2].Inicio != 11 {
		t.Fatalf("read back: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/folha/layouts/minha", other.token, nil), 404, "nao_encontrado")
	r = e.pub("GET", period+"&formato=layout&layout=minha", c.token, nil)
	want(t, r, 200)
	// 2024-03-05: 18:30 is 90 minutes past 17:00, extras at 50%: 1.50 hours.
	if line := fmt.Sprintf("%06d0150000150", w.id); !strings.Contains(string(r.body), line) {
		t.Fatalf("want a line %s in %s", line, r.body)
	}
	bad := map[string]any{"campos": []map[string]any{
		{"campo": "codigo", "inicio": 1, "tamanho": 4, "alinhamento": "direita", "preenchimento": "0"},
		{"campo": "horas", "inicio": 3, "tamanho": 4, "alinhamento": "direita", "preenchimento": "0"}}}
	r = e.pub("PUT", "/registropontos/folha/layouts/minha", c.token, bad)
	wantErr(t, r, 400, "validacao")
	if r.fields(t)["campos[1].inicio"] == nil {
		t.Fatalf("overlap: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/folha/layouts/Nope!", c.token, nil), 400, "validacao")
	r = e.pub("GET", "/registropontos/folha/layouts", other.token, nil)
	want(t, r, 200)
	if strings.Contains(string(r.body), "minha") || !strings.Contains(string(r.body), "calima") {
		t.Fatalf("another company's layouts: %s", r.body)
	}
}
