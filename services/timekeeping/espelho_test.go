package main

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// punchFrom clocks w in at instant t from position endereco.
func (e *env) punchFrom(w worker, t time.Time, endereco string) map[string]any {
	e.t.Helper()
	e.clock.Set(t)
	r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": endereco, "funcionarioId": w.id})
	want(e.t, r, 200)
	return r.obj(e.t)
}

type espelhoDia struct {
	reportDay
	DiaSemana                string   `json:"diaSemana"`
	MinutosExtras50          int      `json:"minutosExtras50"`
	MinutosExtras100         int      `json:"minutosExtras100"`
	MinutosNoturnos          int      `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int      `json:"minutosNoturnosReduzidos"`
	ToleranciaAplicada       bool     `json:"toleranciaAplicada"`
	DescansoMinutos          *int     `json:"descansoMinutos"`
	Feriado                  *string  `json:"feriado"`
	Alertas                  []string `json:"alertas"`
	MarcacoesOriginais       []struct {
		NSR     int64   `json:"nsr"`
		Horario string  `json:"horario"`
		Ajuste  *string `json:"ajuste"`
	} `json:"marcacoesOriginais"`
	MarcacoesTratadas []struct {
		Horario string  `json:"horario"`
		Origem  string  `json:"origem"`
		Motivo  *string `json:"motivo"`
	} `json:"marcacoesTratadas"`
	Desconsideradas []struct {
		Horario string `json:"horario"`
		Motivo  string `json:"motivo"`
	} `json:"desconsideradas"`
}

type espelhoTotais struct {
	reportTotals
	MinutosExtras50          int `json:"minutosExtras50"`
	MinutosExtras100         int `json:"minutosExtras100"`
	MinutosNoturnos          int `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int `json:"minutosNoturnosReduzidos"`
	Alertas                  int `json:"alertas"`
}

// setUpCLTMonth records March 2024 for Davi (standard schedule, Monday to
// Friday 08:00-17:00) at company 3, which has one work place and Good
// Friday as a holiday. Each day tries one rule at or just past its limit.
func setUpCLTMonth(e *env) (company, worker, worker) {
	t := e.t
	c := e.company(3)
	dep := e.departamento(c, "Produção")
	escala := e.escala(c, "Comercial", standard())
	davi := e.funcionario(c, escala, map[string]any{"nome": "Davi Araújo", "cpf": "123.456.789-09", "departamentoId": dep})
	colleague := e.funcionario(c, escala, nil)
	e.clock.Set(local(2024, 3, 1, 7, 0))
	want(t, e.pub("POST", "/registropontos/locais-trabalho", c.token, map[string]any{"nome": "Fábrica",
		"endereco": "Rua da Mooca, 100", "latitude": -23.5505, "longitude": -46.6333, "raioMetros": 200}), 200)
	want(t, e.pub("POST", "/registropontos/feriados", c.token, map[string]any{"data": "2024-03-29", "nome": "Sexta-feira Santa"}), 200)

	day := func(d int, times ...[2]int) []int64 {
		var ids []int64
		for _, hm := range times {
			ids = append(ids, id(e.punch(davi, local(2024, 3, d, hm[0], hm[1]))))
		}
		return ids
	}
	day(4, [2]int{7, 56}, [2]int{12, 3}, [2]int{12, 58}, [2]int{17, 2}) // 4+3+2+2 = 11: beyond the tolerance
	day(5, [2]int{8, 5}, [2]int{12, 0}, [2]int{13, 0}, [2]int{17, 0})   // 5 late: within it
	day(6, [2]int{8, 0}, [2]int{12, 0}, [2]int{13, 0}, [2]int{19, 1})   // 121 extra: past art. 59
	day(7, [2]int{4, 50}, [2]int{12, 0}, [2]int{13, 0}, [2]int{14, 0})  // 9 h 49 rest, 10 night minutes
	fri := day(8, [2]int{8, 0}, [2]int{12, 0}, [2]int{13, 0}, [2]int{16, 0})
	day(10, [2]int{9, 0})                                              // Sunday...
	e.punchFrom(davi, local(2024, 3, 10, 12, 0), "-22.9068, -43.1729") // ...ending in Rio
	day(29, [2]int{8, 0}, [2]int{12, 0}, [2]int{13, 0}, [2]int{17, 0}) // Good Friday
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-11", davi.id), c.token, nil), 200)
	want(t, e.solicitar(davi, fri[3], local(2024, 3, 8, 17, 0).UTC().Format(time.RFC3339), "Esqueci de bater o ponto"), 200)
	want(t, e.pub("PUT", path("/registropontos/%d/aprovar", fri[3]), c.token, nil), 200)
	e.clock.Set(local(2024, 4, 5, 9, 0))
	return c, davi, colleague
}

func TestEspelhoAndCLTRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, davi, colleague := setUpCLTMonth(e)

	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", davi.id), davi.token, nil)
	want(t, r, 200)
	var esp struct {
		Empregador  struct{ RazaoSocial, CNPJ string }
		Funcionario struct {
			ID        int64
			Nome, CPF string
		}
		Periodo struct {
			Mes, Inicio, Fim, ApuradoAte string
			TotalDeDias, DiasApurados    int
		}
		HorarioContratual []struct{ DiaSemana, Entrada, SaidaAlmoco, RetornoAlmoco, Saida string }
		Dias              []espelhoDia
		Totais            espelhoTotais
	}
	r.into(t, &esp)
	if esp.Empregador.RazaoSocial != "Panificação São João 3 Ltda" || esp.Funcionario.Nome != "Davi Araújo" ||
		esp.Funcionario.CPF != "123.456.789-09" || esp.Periodo.Inicio != "2024-03-01" || esp.Periodo.Fim != "2024-03-31" ||
		len(esp.HorarioContratual) != 5 || esp.HorarioContratual[0].DiaSemana != "segunda-feira" ||
		esp.HorarioContratual[0].SaidaAlmoco != "12:00" || esp.HorarioContratual[4].Saida != "17:00" {
		t.Fatalf("header: %s", r.body)
	}
	if ate, err := time.Parse(time.DateOnly, esp.Periodo.ApuradoAte); err != nil ||
		esp.Periodo.TotalDeDias != 31 || esp.Periodo.DiasApurados != ate.Day() {
		t.Fatalf("period counts: %+v", esp.Periodo)
	}
	days := map[string]espelhoDia{}
	for _, d := range esp.Dias {
		days[d.Data] = d
	}
	// worked/expected/extra/late/saldo, then extras 50/100, night, tolerance, alerts.
	for data, w := range map[string]struct {
		figures         string
		e50, e100       int
		noturno, reduz  int
		tolerancia      bool
		alertas         []string
		feriado, semana string
	}{
		"2024-03-04": {"491/480/11/0/11", 11, 0, 0, 0, false, []string{"intervalo_insuficiente"}, "", "segunda-feira"},
		"2024-03-05": {"475/480/0/0/0", 0, 0, 0, 0, true, []string{}, "", "terça-feira"},
		"2024-03-06": {"601/480/121/0/121", 121, 0, 0, 0, false, []string{"extras_acima_do_limite"}, "", "quarta-feira"},
		"2024-03-07": {"490/480/10/0/10", 10, 0, 10, 11, false, []string{"descanso_insuficiente"}, "", "quinta-feira"},
		"2024-03-08": {"480/480/0/0/0", 0, 0, 0, 0, true, []string{}, "", "sexta-feira"},
		"2024-03-10": {"180/0/180/0/180", 0, 180, 0, 0, false, []string{"fora_do_local"}, "", "domingo"}, // 100%: no art. 59 alert
		"2024-03-11": {"0/480/0/0/-480", 0, 0, 0, 0, false, []string{}, "", "segunda-feira"},
		"2024-03-29": {"480/0/480/0/480", 0, 480, 0, 0, false, []string{}, "Sexta-feira Santa", "sexta-feira"}, // 100%: no art. 59 alert
	} {
		d, ok := days[data]
		if !ok {
			t.Errorf("%s missing", data)
			continue
		}
		got := itoa(int64(d.MinutosTrabalhados)) + "/" + itoa(int64(d.MinutosPrevistos)) + "/" + itoa(int64(d.MinutosExtras)) +
			"/" + itoa(int64(d.MinutosAtraso)) + "/" + itoa(int64(d.SaldoMinutos))
		feriado := ""
		if d.Feriado != nil {
			feriado = *d.Feriado
		}
		if got != w.figures || d.MinutosExtras50 != w.e50 || d.MinutosExtras100 != w.e100 || d.MinutosNoturnos != w.noturno ||
			d.MinutosNoturnosReduzidos != w.reduz || d.ToleranciaAplicada != w.tolerancia || !slices.Equal(d.Alertas, w.alertas) ||
			feriado != w.feriado || d.DiaSemana != w.semana {
			t.Errorf("%s: %s e50 %d e100 %d night %d/%d tol %v alerts %v holiday %q %s; want %+v", data, got, d.MinutosExtras50,
				d.MinutosExtras100, d.MinutosNoturnos, d.MinutosNoturnosReduzidos, d.ToleranciaAplicada, d.Alertas, feriado, d.DiaSemana, w)
		}
	}
	if d := days["2024-03-07"]; d.DescansoMinutos == nil || *d.DescansoMinutos != 589 {
		t.Errorf("rest before Thursday: %v, want 589 (19:01 to 04:50)", d.DescansoMinutos)
	}
	if !days["2024-03-11"].Falta || len(days) != 22 { // 21 weekdays and the Sunday
		t.Errorf("absence or day count: %d days", len(days))
	}
	// Art. 71 §4 in minutes: the 4th's 55 minute lunch (491 worked) is 60 -
	// 55 = 5 short, the only short break of the month; art. 66: the 7th's
	// rest of 589 is 660 - 589 = 71 short.
	var raw struct {
		Dias []struct {
			Data                      string
			MinutosIntervaloSuprimido int `json:"minutosIntervaloSuprimido"`
			MinutosInterjornada       int `json:"minutosInterjornada"`
		} `json:"dias"`
		Totais struct {
			MinutosIntervaloSuprimido int `json:"minutosIntervaloSuprimido"`
			MinutosInterjornada       int `json:"minutosInterjornada"`
		} `json:"totais"`
	}
	r.into(t, &raw)
	for _, d := range raw.Dias {
		if (d.Data == "2024-03-04") != (d.MinutosIntervaloSuprimido == 5) || (d.Data == "2024-03-07") != (d.MinutosInterjornada == 71) {
			t.Errorf("%s: suppressed break %d, rest short %d", d.Data, d.MinutosIntervaloSuprimido, d.MinutosInterjornada)
		}
	}
	if raw.Totais.MinutosIntervaloSuprimido != 5 || raw.Totais.MinutosInterjornada != 71 {
		t.Errorf("totals: suppressed break %d, rest short %d", raw.Totais.MinutosIntervaloSuprimido, raw.Totais.MinutosInterjornada)
	}
	// The adjusted Friday: the original 16:00 disregarded, 17:00 included.
	fri := days["2024-03-08"]
	if len(fri.MarcacoesOriginais) != 4 || fri.MarcacoesOriginais[3].Horario != "16:00" ||
		len(fri.Desconsideradas) != 1 || fri.Desconsideradas[0].Horario != "16:00" || fri.Desconsideradas[0].Motivo != "Esqueci de bater o ponto" ||
		fri.MarcacoesTratadas[3].Horario != "17:00" || fri.MarcacoesTratadas[3].Origem != "incluída" ||
		fri.MarcacoesTratadas[0].Origem != "original" {
		t.Errorf("treated Friday: %+v", fri)
	}
	// 20 working days of 480 (Good Friday expects nothing), 15 of them
	// without punches: 15 absences by the one rule (core.FaltaInjustificada),
	// the 11th the company's mark among them. Alerts: 6 before the art. 59
	// alert left the 100% days (the Sunday and Good Friday): 4.
	if want := (espelhoTotais{reportTotals: reportTotals{MinutosTrabalhados: 3197, MinutosPrevistos: 9600, MinutosExtras: 802,
		SaldoMinutos: -6398, Faltas: 15}, MinutosExtras50: 142, MinutosExtras100: 660, MinutosNoturnos: 10,
		MinutosNoturnosReduzidos: 11, Alertas: 4}); esp.Totais != want {
		t.Errorf("totals %+v, want %+v", esp.Totais, want)
	}

	// The department report says the same.
	rr := e.pub("GET", "/registropontos/departamento/"+url.PathEscape("Produção")+"?inicio=2024-03-01&fim=2024-03-31", c.token, nil)
	want(t, rr, 200)
	var rep struct {
		Totais espelhoTotais `json:"totais"`
	}
	rr.into(t, &rep)
	if rep.Totais != esp.Totais {
		t.Errorf("department totals %+v, timesheet %+v", rep.Totais, esp.Totais)
	}

	// The PDF, read back.
	pdf := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03&formato=pdf", davi.id), c.token, nil)
	want(t, pdf, 200)
	wantText(t, pdfText(t, pdf), "Espelho de Ponto - 03/2024", "Panificação São João 3 Ltda", companyCNPJ(3),
		"Davi Araújo (CPF 123.456.789-09)", "Horário contratual: Comercial", "segunda-feira", "01/03/2024 a 31/03/2024",
		"08/03/2024: marcação das 16:00 desconsiderada; incluída às 17:00. Motivo: Esqueci de bater o ponto",
		"feriado: Sexta-feira Santa", "descanso entre jornadas menor que 11 horas", "marcação fora do local de trabalho",
		"Horas extras: 2:22 a 50%, 11:00 a 100%", "Adicional noturno: 0:10 (hora reduzida: 0:11)")

	// Who may see it.
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/espelho", davi.id), colleague.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/espelho", davi.id), e.company(4).token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/espelho", davi.id), "", nil), 401, "nao_autenticado")
	for _, q := range []string{"?mes=2024-13", "?mes=2024-05", "?mes=1999-12", "?formato=xlsx", "?mes=março"} {
		wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/espelho%s", davi.id, q), c.token, nil), 400, "validacao")
	}
}

func TestFeriadosAndLocaisTrabalho(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, other := e.company(1), e.company(2)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	e.clock.Set(local(2024, 3, 4, 7, 0))

	want(t, e.pub("POST", "/registropontos/feriados", c.token, map[string]any{"data": "2024-11-20", "nome": "Consciência Negra"}), 200)
	wantErr(t, e.pub("POST", "/registropontos/feriados", c.token, map[string]any{"data": "2024-11-20", "nome": "Outro"}), 409, "feriado_duplicado")
	r := e.pub("POST", "/registropontos/feriados", c.token, map[string]any{"data": "2024-02-30", "nome": " "})
	wantErr(t, r, 400, "validacao")
	if f := r.fields(t); f["data"] == nil || f["nome"] == nil {
		t.Errorf("fields %v", f)
	}
	want(t, e.pub("POST", "/registropontos/feriados", other.token, map[string]any{"data": "2024-11-20", "nome": "Deles"}), 200)
	r = e.pub("GET", "/registropontos/feriados", c.token, nil)
	want(t, r, 200)
	if !strings.HasPrefix(string(r.body), `{"ano":2024,"itens":[{"data":"2024-11-20","nome":"Consciência Negra"}],"nacionais":[`) {
		t.Errorf("holidays: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/feriados", w.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/registropontos/feriados?ano=1999", c.token, nil), 400, "validacao")
	want(t, e.pub("DELETE", "/registropontos/feriados/2024-11-20", c.token, nil), 204)
	wantErr(t, e.pub("DELETE", "/registropontos/feriados/2024-11-20", c.token, nil), 404, "nao_encontrado")

	// Work places: a punch outside is accepted and flagged, never refused.
	r = e.pub("POST", "/registropontos/locais-trabalho", c.token, map[string]any{"nome": "Loja Centro", "endereco": "Praça da Sé",
		"latitude": -23.5505, "longitude": -46.6333, "raioMetros": 100})
	want(t, r, 200)
	loja := id(r.obj(t))
	r = e.pub("POST", "/registropontos/locais-trabalho", c.token, map[string]any{"nome": "", "latitude": 91, "raioMetros": 5})
	wantErr(t, r, 400, "validacao")
	if f := r.fields(t); f["nome"] == nil || f["latitude"] == nil || f["longitude"] == nil || f["raioMetros"] == nil {
		t.Errorf("fields %v", f)
	}
	inside := e.punchFrom(w, local(2024, 3, 4, 8, 0), "-23.5510, -46.6333")   // about 56 m away
	outside := e.punchFrom(w, local(2024, 3, 4, 12, 0), "-23.5520, -46.6333") // about 167 m away
	for _, x := range []struct {
		rec       map[string]any
		fora      bool
		distancia int
	}{{inside, false, 56}, {outside, true, 167}} {
		var fora bool
		var distancia int
		var localID int64
		if err := e.db.QueryRow(t.Context(), `SELECT fora_do_local, distancia_metros, local_trabalho_id FROM registros_ponto WHERE id = $1`,
			id(x.rec)).Scan(&fora, &distancia, &localID); err != nil || fora != x.fora || distancia != x.distancia || localID != loja {
			t.Errorf("punch %v: fora %v distancia %d local %d (%v)", x.rec["localizacao"], fora, distancia, localID, err)
		}
	}
	wantText(t, pdfText(t, e.pub("GET", path("/registropontos/%d/comprovante", id(outside)), w.token, nil)),
		"Local de prestação do serviço: Loja Centro - Praça da Sé (marcação fora do raio do local, a 167 m)")
	r = e.pub("GET", "/registropontos/locais-trabalho", c.token, nil)
	want(t, r, 200)
	var list struct{ Itens []map[string]any }
	r.into(t, &list)
	if len(list.Itens) != 1 || list.Itens[0]["nome"] != "Loja Centro" || list.Itens[0]["raioMetros"] != float64(100) {
		t.Errorf("places: %s", r.body)
	}
	wantErr(t, e.pub("DELETE", path("/registropontos/locais-trabalho/%d", loja), other.token, nil), 404, "nao_encontrado")
	want(t, e.pub("DELETE", path("/registropontos/locais-trabalho/%d", loja), c.token, nil), 204)
	// Without places, nothing to check: no flag.
	p := e.punchFrom(w, local(2024, 3, 4, 13, 0), "10, 10")
	var fora *bool
	if err := e.db.QueryRow(t.Context(), `SELECT fora_do_local FROM registros_ponto WHERE id = $1`, id(p)).Scan(&fora); err != nil || fora != nil {
		t.Errorf("punch without places: fora %v (%v)", fora, err)
	}
}
