package main

import (
	"strings"
	"testing"
	"time"
)

// diaTratado is one day of the timesheet as the tests read it.
type diaTratado struct {
	Data               string `json:"data"`
	MinutosTrabalhados int    `json:"minutosTrabalhados"`
	MinutosAbonados    int    `json:"minutosAbonados"`
	SaldoMinutos       int    `json:"saldoMinutos"`
	Falta              bool   `json:"falta"`
	FaltaMarcada       bool   `json:"faltaMarcada"`
	Incompleto         bool   `json:"incompleto"`
	Marcacoes          []struct {
		ID             int64  `json:"id"`
		Tipo           string `json:"tipo"`
		Origem         string `json:"origem"`
		Desconsiderada bool   `json:"desconsiderada"`
	} `json:"marcacoes"`
}

// diaTratadoDe reads day data of w's March 2024 timesheet, as the company
// sees it.
func (e *env) diaTratadoDe(c company, w worker, data string) diaTratado {
	e.t.Helper()
	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", w.id), c.token, nil)
	want(e.t, r, 200)
	var out struct {
		Dias []diaTratado `json:"dias"`
	}
	r.into(e.t, &out)
	for _, d := range out.Dias {
		if d.Data == data {
			return d
		}
	}
	e.t.Fatalf("no day %s in the timesheet: %s", data, r.body)
	return diaTratado{}
}

// afdPunches counts the type-7 records (punches) of the March 2024 AFD.
func (e *env) afdPunches(c company) int {
	e.t.Helper()
	r := e.pub("GET", "/registropontos/afd?inicio=2024-03-01&fim=2024-03-31", c.token, nil)
	want(e.t, r, 200)
	n := 0
	for _, l := range strings.Split(string(r.body), "\r\n") {
		if len(l) > 10 && l[9] == '7' {
			n++
		}
	}
	return n
}

func TestIncluirMarcacaoEsquecida(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, stranger := e.outsider()
	for _, h := range []int{8, 12, 13} { // the exit was forgotten
		e.punch(w, local(2024, 3, 4, h, 0))
	}
	e.clock.Set(local(2024, 3, 8, 10, 0))
	if d := e.diaTratadoDe(c, w, "2024-03-04"); !d.Incompleto || d.MinutosTrabalhados != 240 {
		t.Fatalf("before the inclusion: %+v", d)
	}
	url := path("/registropontos/funcionario/%d/marcacoes", w.id)
	body := map[string]any{"horario": "2024-03-04T17:00:00-03:00", "motivo": "esqueceu de registrar a saída"}
	r := e.pub("POST", url, c.token, body)
	want(t, r, 201)
	m := r.obj(t)
	if m["origem"] != "incluída" || m["nsr"] != nil || m["data"] != "2024-03-04" || m["horario"] != "2024-03-04T20:00:00.000Z" ||
		m["funcionarioId"] != float64(w.id) || m["desconsiderada"] != false || m["motivo"] != "esqueceu de registrar a saída" {
		t.Fatalf("included: %s", r.body)
	}
	d := e.diaTratadoDe(c, w, "2024-03-04")
	if d.Incompleto || d.MinutosTrabalhados != 480 || d.SaldoMinutos != 0 || len(d.Marcacoes) != 4 ||
		d.Marcacoes[3].Origem != "incluída" || d.Marcacoes[3].Tipo != "saída" {
		t.Fatalf("after the inclusion: %+v", d)
	}
	// Never in the AFD: only the three REP punches.
	if n := e.afdPunches(c); n != 3 {
		t.Fatalf("AFD has %d punches, want the 3 originals", n)
	}

	// Refusals write nothing.
	wantErr(t, e.pub("POST", url, c.token, body), 409, "marcacao_duplicada")
	wantErr(t, e.pub("POST", url, c.token, map[string]any{"horario": "2024-03-04T12:00:30-03:00", "motivo": "mesmo minuto"}),
		409, "marcacao_duplicada")
	wantErr(t, e.pub("POST", url, c.token, map[string]any{"horario": "2024-03-08T11:00:00-03:00", "motivo": "futuro"}),
		400, "validacao")
	wantErr(t, e.pub("POST", url, c.token, map[string]any{"horario": "2019-03-01T08:00:00-03:00", "motivo": "antiga demais"}),
		400, "validacao")
	for _, bad := range []map[string]any{
		{"horario": "2024-03-04T17:00:00", "motivo": "sem fuso"},
		{"horario": "2024-03-04T17:00:00-03:00"},
		{"horario": "2024-03-04T17:00:00-03:00", "motivo": "  x  "},
		{"motivo": "sem horário"},
	} {
		wantErr(t, e.pub("POST", url, c.token, bad), 400, "validacao")
	}
	wantErr(t, e.pub("POST", path("/registropontos/funcionario/%d/marcacoes", stranger.id), c.token, body), 404, "nao_encontrado")
	wantErr(t, e.pub("POST", url, other.token, body), 404, "nao_encontrado")
	wantErr(t, e.pub("POST", url, w.token, body), 403, "acesso_negado")
	if n := e.count("marcacoes_incluidas"); n != 1 {
		t.Fatalf("%d inclusions stored, want 1", n)
	}
	// The table is append-only.
	if _, err := e.db.Exec(t.Context(), `UPDATE marcacoes_incluidas SET motivo = 'x'`); err == nil {
		t.Fatal("an inclusion was updated")
	}
}

func TestDesconsiderarMarcacaoDupla(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, _ := e.outsider()
	var ids []int64
	for _, at := range []time.Time{local(2024, 3, 5, 8, 0), local(2024, 3, 5, 8, 1), local(2024, 3, 5, 12, 0),
		local(2024, 3, 5, 13, 0), local(2024, 3, 5, 17, 0)} {
		ids = append(ids, id(e.punch(w, at)))
	}
	e.clock.Set(local(2024, 3, 8, 10, 0))
	if d := e.diaTratadoDe(c, w, "2024-03-05"); d.MinutosTrabalhados == 480 {
		t.Fatalf("the double punch should break the pairs: %+v", d)
	}
	double := ids[1]
	motivo := map[string]any{"motivo": "marcação em duplicidade"}
	wantErr(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", double), other.token, motivo), 404, "nao_encontrado")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", double), w.token, motivo), 403, "acesso_negado")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", double), c.token, map[string]any{}), 400, "validacao")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/reconsiderar", double), c.token, motivo), 409, "marcacao_nao_desconsiderada")
	if n := e.count("desconsideracoes"); n != 0 {
		t.Fatalf("%d disregards stored after refusals", n)
	}

	r := e.pub("PUT", path("/registropontos/%d/desconsiderar", double), c.token, motivo)
	want(t, r, 200)
	if m := r.obj(t); m["desconsiderada"] != true || m["origem"] != "original" || m["nsr"] == nil ||
		m["motivoDesconsideracao"] != "marcação em duplicidade" {
		t.Fatalf("disregarded: %s", r.body)
	}
	wantErr(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", double), c.token, motivo), 409, "marcacao_ja_desconsiderada")
	d := e.diaTratadoDe(c, w, "2024-03-05")
	if d.MinutosTrabalhados != 480 || d.SaldoMinutos != 0 || d.Incompleto || len(d.Marcacoes) != 5 || !d.Marcacoes[1].Desconsiderada {
		t.Fatalf("after the disregard: %+v", d)
	}
	// The original stays in the AFD.
	if n := e.afdPunches(c); n != 5 {
		t.Fatalf("AFD has %d punches, want 5", n)
	}

	want(t, e.pub("PUT", path("/registropontos/%d/reconsiderar", double), c.token, map[string]any{"motivo": "engano"}), 200)
	if d := e.diaTratadoDe(c, w, "2024-03-05"); d.MinutosTrabalhados == 480 {
		t.Fatalf("reconsidered, the punch counts again: %+v", d)
	}
	if n := e.count("desconsideracoes"); n != 2 {
		t.Fatalf("%d disregard steps, want 2 (kept as history)", n)
	}
}

func TestAbonoAtestadoTarde(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, _ := e.outsider()
	e.punch(w, local(2024, 3, 6, 8, 0))
	e.punch(w, local(2024, 3, 6, 12, 0))
	e.clock.Set(local(2024, 3, 8, 10, 0))
	if d := e.diaTratadoDe(c, w, "2024-03-06"); d.SaldoMinutos != -240 {
		t.Fatalf("before the certificate: %+v", d)
	}
	url := path("/registropontos/funcionario/%d/abonos", w.id)
	body := map[string]any{"data": "2024-03-06", "inicio": "13:00", "fim": "17:00", "motivo": "consulta médica", "tipo": "atestado_medico"}
	r := e.pub("POST", url, c.token, body)
	want(t, r, 201)
	a := r.obj(t)
	if a["inicio"] != "13:00" || a["fim"] != "17:00" || a["tipo"] != "atestado_medico" || a["cancelamento"] != nil {
		t.Fatalf("abono: %s", r.body)
	}
	d := e.diaTratadoDe(c, w, "2024-03-06")
	if d.MinutosTrabalhados != 240 || d.MinutosAbonados != 240 || d.SaldoMinutos != 0 {
		t.Fatalf("with the certificate: %+v", d)
	}

	for _, overlap := range []map[string]any{
		{"data": "2024-03-06", "inicio": "16:00", "fim": "18:00", "motivo": "outra", "tipo": "outro"},
		{"data": "2024-03-06", "motivo": "dia inteiro", "tipo": "folga"},
	} {
		wantErr(t, e.pub("POST", url, c.token, overlap), 409, "abono_sobreposto")
	}
	for _, bad := range []map[string]any{
		{"data": "2024-03-06", "inicio": "13:00", "motivo": "sem fim", "tipo": "outro"},
		{"data": "2024-03-06", "inicio": "17:00", "fim": "13:00", "motivo": "invertido", "tipo": "outro"},
		{"data": "2024-03-06", "motivo": "tipo errado", "tipo": "ferias"},
		{"data": "06/03/2024", "motivo": "data errada", "tipo": "outro"},
	} {
		wantErr(t, e.pub("POST", url, c.token, bad), 400, "validacao")
	}
	wantErr(t, e.pub("POST", url, other.token, body), 404, "nao_encontrado")
	if n := e.count("abonos"); n != 1 {
		t.Fatalf("%d abonos stored, want 1", n)
	}
	// A morning abono the same day does not overlap.
	want(t, e.pub("POST", url, c.token, map[string]any{"data": "2024-03-06", "inicio": "07:00", "fim": "08:00",
		"motivo": "antes do turno", "tipo": "declaracao_comparecimento"}), 201)

	r = e.pub("GET", url+"?inicio=2024-03-01&fim=2024-03-31", c.token, nil)
	want(t, r, 200)
	var list struct {
		Itens []map[string]any `json:"itens"`
	}
	r.into(t, &list)
	if len(list.Itens) != 2 {
		t.Fatalf("list: %s", r.body)
	}
	wantErr(t, e.pub("GET", url, other.token, nil), 404, "nao_encontrado")

	cancel := path("/registropontos/abonos/%d/cancelar", id(a))
	wantErr(t, e.pub("POST", cancel, other.token, map[string]any{"motivo": "não é dela"}), 404, "nao_encontrado")
	r = e.pub("POST", cancel, c.token, map[string]any{"motivo": "atestado inválido"})
	want(t, r, 200)
	if cm, _ := r.obj(t)["cancelamento"].(map[string]any); cm["motivo"] != "atestado inválido" {
		t.Fatalf("cancelled: %s", r.body)
	}
	wantErr(t, e.pub("POST", cancel, c.token, map[string]any{"motivo": "de novo"}), 409, "abono_cancelado")
	if d := e.diaTratadoDe(c, w, "2024-03-06"); d.MinutosAbonados != 0 || d.SaldoMinutos != -240 {
		t.Fatalf("after cancelling: %+v", d)
	}
}

func TestDesfazerFalta(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, _ := e.outsider()
	e.clock.Set(local(2024, 3, 8, 10, 0))
	url := path("/registropontos/%d/marcar-falta/2024-03-07", w.id)
	first := e.pub("POST", url, c.token, nil)
	want(t, first, 200)
	if d := e.diaTratadoDe(c, w, "2024-03-07"); !d.Falta || !d.FaltaMarcada {
		t.Fatalf("absence not shown: %+v", d)
	}
	wantErr(t, e.pub("DELETE", url, c.token, nil), 400, "validacao") // no reason
	wantErr(t, e.pub("DELETE", url, other.token, map[string]any{"motivo": "não é dela"}), 404, "nao_encontrado")
	wantErr(t, e.pub("DELETE", url, w.token, map[string]any{"motivo": "eu estava lá"}), 403, "acesso_negado")
	r := e.pub("DELETE", url, c.token, map[string]any{"motivo": "estava em treinamento externo"})
	want(t, r, 204)
	// The mark is gone; the unpunched scheduled day is still the rule's
	// absence (core.FaltaInjustificada) until a punch or an abono covers it.
	if d := e.diaTratadoDe(c, w, "2024-03-07"); d.FaltaMarcada || !d.Falta {
		t.Fatalf("undone absence still shown: %+v", d)
	}
	wantErr(t, e.pub("DELETE", url+"?motivo=outra%20vez", c.token, nil), 404, "nao_encontrado")
	// Kept in the history, with who undid it and why.
	var autor int64
	var motivo string
	if err := e.db.QueryRow(t.Context(), `SELECT autor_id, motivo FROM faltas_desfeitas`).Scan(&autor, &motivo); err != nil ||
		autor != c.id || motivo != "estava em treinamento externo" || e.count("faltas") != 1 {
		t.Fatalf("history: %v %d %q, %d absences", err, autor, motivo, e.count("faltas"))
	}
	// The date may be marked again: a new absence.
	again := e.pub("POST", url, c.token, nil)
	want(t, again, 200)
	if id(again.obj(t)) == id(first.obj(t)) {
		t.Fatal("the undone absence came back instead of a new one")
	}
	// Undone by query string.
	want(t, e.pub("DELETE", url+"?motivo=lan%C3%A7ada%20por%20engano", c.token, nil), 204)
}

func TestFechamentoECiencia(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, map[string]any{"departamentoId": nil})
	dep := e.departamento(c, "Loja")
	a := e.funcionario(c, w.escalaID, map[string]any{"departamentoId": dep})
	b := e.funcionario(c, w.escalaID, map[string]any{"departamentoId": dep})
	other, _ := e.outsider()
	adjusted := e.punch(a, local(2024, 3, 4, 8, 0))
	e.clock.Set(local(2024, 4, 2, 10, 0))
	want(t, e.pub("PUT", path("/registropontos/solicitar/%d", id(adjusted)), a.token, map[string]any{
		"dataSolicitar": "2024-03-04T10:55:00Z", "funcionarioId": a.id, "motivo": "cheguei antes"}), 200)

	ciencia := path("/registropontos/funcionario/%d/espelho/ciencia?mes=2024-03", a.id)
	wantErr(t, e.pub("PUT", ciencia, a.token, nil), 409, "periodo_nao_fechado")

	wantErr(t, e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-03-31", "fim": "2024-03-01"}), 400, "validacao")
	wantErr(t, e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-04-01", "fim": "2024-04-30"}), 400, "validacao")
	wantErr(t, e.pub("POST", "/registropontos/fechamentos", a.token, map[string]any{"inicio": "2024-03-01", "fim": "2024-03-31"}), 403, "acesso_negado")
	r := e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-03-01", "fim": "2024-03-31"})
	want(t, r, 201)
	f := r.obj(t)
	wantErr(t, e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-03-15", "fim": "2024-04-01"}),
		409, "fechamento_sobreposto")

	// Every treatment inside is refused, and nothing is written.
	wantErr(t, e.pub("POST", path("/registropontos/funcionario/%d/marcacoes", a.id), c.token,
		map[string]any{"horario": "2024-03-04T17:00:00-03:00", "motivo": "saída esquecida"}), 409, "periodo_fechado")
	wantErr(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", a.id), c.token,
		map[string]any{"data": "2024-03-05", "motivo": "atestado", "tipo": "atestado_medico"}), 409, "periodo_fechado")
	wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", b.id), c.token, nil), 409, "periodo_fechado")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(adjusted)), c.token, nil), 409, "periodo_fechado")
	punchID := e.db.QueryRow
	var pid int64
	if err := punchID(t.Context(), `SELECT id FROM registros_ponto LIMIT 1`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	wantErr(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", pid), c.token, map[string]any{"motivo": "duplicada"}),
		409, "periodo_fechado")
	for _, table := range []string{"marcacoes_incluidas", "abonos", "faltas", "desconsideracoes"} {
		if n := e.count(table); n != 0 {
			t.Fatalf("%d rows in %s inside a closed period", n, table)
		}
	}

	// The employee acknowledges his own timesheet, once; nobody else can.
	wantErr(t, e.pub("PUT", ciencia, b.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("PUT", ciencia, c.token, nil), 403, "acesso_negado")
	r = e.pub("PUT", ciencia, a.token, nil)
	want(t, r, 200)
	ack := r.obj(t)
	if ack["mes"] != "2024-03" || ack["funcionarioId"] != float64(a.id) {
		t.Fatalf("acknowledgement: %s", r.body)
	}
	e.clock.Set(local(2024, 4, 3, 10, 0))
	again := e.pub("PUT", ciencia, a.token, nil)
	want(t, again, 200)
	if again.obj(t)["cienteEm"] != ack["cienteEm"] {
		t.Fatalf("a repeat changed the acknowledgement: %s", again.body)
	}
	// The company sees who has not acknowledged.
	r = e.pub("GET", "/registropontos/fechamentos/ciencias?mes=2024-03&departamento=Loja", c.token, nil)
	want(t, r, 200)
	var list struct {
		Fechado   bool `json:"fechado"`
		Pendentes int  `json:"pendentes"`
		Itens     []struct {
			FuncionarioID int64   `json:"funcionarioId"`
			CienteEm      *string `json:"cienteEm"`
		} `json:"itens"`
	}
	r.into(t, &list)
	if !list.Fechado || list.Pendentes != 1 || len(list.Itens) != 2 {
		t.Fatalf("acknowledgements: %s", r.body)
	}
	for _, it := range list.Itens {
		if (it.FuncionarioID == a.id) != (it.CienteEm != nil) {
			t.Fatalf("acknowledgements: %s", r.body)
		}
	}
	wantErr(t, e.pub("GET", "/registropontos/fechamentos/ciencias?mes=2024-03&departamento=Loja", other.token, nil), 404, "nao_encontrado")

	// Reopening takes a reason and is kept; then treatments are accepted.
	reabrir := path("/registropontos/fechamentos/%d/reabrir", id(f))
	wantErr(t, e.pub("POST", reabrir, c.token, map[string]any{}), 400, "validacao")
	wantErr(t, e.pub("POST", reabrir, other.token, map[string]any{"motivo": "outra empresa"}), 404, "nao_encontrado")
	r = e.pub("POST", reabrir, c.token, map[string]any{"motivo": "correção de atestado"})
	want(t, r, 200)
	if rb, _ := r.obj(t)["reabertura"].(map[string]any); rb["motivo"] != "correção de atestado" {
		t.Fatalf("reopened: %s", r.body)
	}
	wantErr(t, e.pub("POST", reabrir, c.token, map[string]any{"motivo": "de novo"}), 409, "fechamento_reaberto")
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", a.id), c.token,
		map[string]any{"data": "2024-03-05", "motivo": "atestado", "tipo": "atestado_medico"}), 201)
	want(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(adjusted)), c.token, nil), 200)
	r = e.pub("GET", "/registropontos/fechamentos", c.token, nil)
	want(t, r, 200)
	if r.obj(t)["total"] != float64(1) {
		t.Fatalf("closings: %s", r.body)
	}
}

// The art. 84 timesheet: admission date, issue date, the pre-assigned
// break, included and disregarded punches each marked, and abonos, in
// the JSON and printed on the PDF.
func TestEspelhoArt84Tratamentos(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	pre := horario("08:00", 240, 300, 540)
	pre["intervaloPreAssinalado"] = true
	w := e.funcionario(c, e.escala(c, "Pré-assinalada", []map[string]any{pre, pre, pre, pre, pre}),
		map[string]any{"dataAdmissao": "01/02/2024"})
	// Monday: in and out only, the break pre-assigned.
	e.punch(w, local(2024, 3, 4, 8, 0))
	e.punch(w, local(2024, 3, 4, 17, 0))
	// Tuesday: a double entrada disregarded, the exit included, the
	// afternoon under a medical certificate.
	e.punch(w, local(2024, 3, 5, 8, 0))
	double := e.punch(w, local(2024, 3, 5, 8, 2))
	e.clock.Set(local(2024, 3, 8, 10, 0))
	want(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", id(double)), c.token, map[string]any{"motivo": "duplicidade"}), 200)
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/marcacoes", w.id), c.token,
		map[string]any{"horario": "2024-03-05T12:00:00-03:00", "motivo": "saída esquecida"}), 201)
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", w.id), c.token,
		map[string]any{"data": "2024-03-05", "inicio": "13:00", "fim": "17:00", "motivo": "consulta", "tipo": "atestado_medico"}), 201)

	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", w.id), c.token, nil)
	want(t, r, 200)
	var es struct {
		Funcionario struct {
			DataAdmissao *string `json:"dataAdmissao"`
		} `json:"funcionario"`
		Dias []struct {
			Data               string `json:"data"`
			MinutosTrabalhados int    `json:"minutosTrabalhados"`
			MinutosAbonados    int    `json:"minutosAbonados"`
			SaldoMinutos       int    `json:"saldoMinutos"`
			MarcacoesOriginais []struct {
				Desconsiderada bool `json:"desconsiderada"`
			} `json:"marcacoesOriginais"`
			MarcacoesTratadas []struct {
				Tipo, Horario, Origem string
			} `json:"marcacoesTratadas"`
			Desconsideradas []struct {
				Horario, Motivo string
			} `json:"desconsideradas"`
			Abonos []struct {
				Tipo string `json:"tipo"`
			} `json:"abonos"`
		} `json:"dias"`
	}
	r.into(t, &es)
	if es.Funcionario.DataAdmissao == nil || *es.Funcionario.DataAdmissao != "2024-02-01" {
		t.Fatalf("admission date: %s", r.body)
	}
	mon, tue := es.Dias[1], es.Dias[2] // after Friday the 1st
	if mon.Data != "2024-03-04" || tue.Data != "2024-03-05" || mon.MinutosTrabalhados != 480 || mon.SaldoMinutos != 0 || len(mon.MarcacoesTratadas) != 4 ||
		mon.MarcacoesTratadas[1].Origem != "pré-assinalada" || mon.MarcacoesTratadas[1].Horario != "12:00" ||
		mon.MarcacoesTratadas[2].Tipo != "retorno almoço" || mon.MarcacoesTratadas[3].Origem != "original" {
		t.Fatalf("Monday (pre-assigned break): %+v", mon)
	}
	if tue.MinutosTrabalhados != 240 || tue.MinutosAbonados != 240 || tue.SaldoMinutos != 0 || len(tue.MarcacoesTratadas) != 2 ||
		tue.MarcacoesTratadas[1].Origem != "incluída" || tue.MarcacoesTratadas[1].Tipo != "almoço" ||
		len(tue.Desconsideradas) != 1 || tue.Desconsideradas[0].Horario != "08:02" || !tue.MarcacoesOriginais[1].Desconsiderada ||
		len(tue.Abonos) != 1 || tue.Abonos[0].Tipo != "atestado_medico" {
		t.Fatalf("Tuesday (every treatment): %+v", tue)
	}
	pdf := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03&formato=pdf", w.id), c.token, nil)
	wantText(t, pdfText(t, pdf), "Data de admissão: 01/02/2024", "Data de emissão: 08/03/2024 10:00 (UTC-03:00)",
		"almoço às 12:00 pré-assinalada", "marcação das 08:02 desconsiderada. Motivo: duplicidade",
		"marcação incluída às 12:00. Motivo: saída esquecida", "abono (atestado_medico), 13:00 a 17:00. Motivo: consulta",
		"Horas abonadas: 4:00")
}

// The employee asks for an inclusion; the company approves (the punch is
// then included and counts) or rejects.
func TestSolicitacaoDeInclusao(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, stranger := e.outsider()
	for _, h := range []int{8, 12, 13} {
		e.punch(w, local(2024, 3, 4, h, 0))
	}
	e.clock.Set(local(2024, 3, 8, 10, 0))
	body := map[string]any{"horario": "2024-03-04T17:00:00-03:00", "motivo": "esqueci de registrar a saída"}
	wantErr(t, e.pub("POST", "/registropontos/solicitacoes", c.token, body), 403, "acesso_negado")
	wantErr(t, e.pub("POST", "/registropontos/solicitacoes", w.token, map[string]any{"horario": "2024-03-09T17:00:00-03:00",
		"motivo": "futuro"}), 400, "validacao")
	wantErr(t, e.pub("POST", "/registropontos/solicitacoes", w.token, map[string]any{"horario": "2024-03-04T12:00:00-03:00",
		"motivo": "mesmo minuto"}), 409, "marcacao_duplicada")
	r := e.pub("POST", "/registropontos/solicitacoes", w.token, body)
	want(t, r, 201)
	s := r.obj(t)
	if s["status"] != "pendente" || s["data"] != "2024-03-04" || s["marcacaoId"] != nil || s["funcionarioId"] != float64(w.id) {
		t.Fatalf("request: %s", r.body)
	}
	rejected := e.pub("POST", "/registropontos/solicitacoes", w.token, map[string]any{"horario": "2024-03-05T09:00:00-03:00",
		"motivo": "não estava lá"})
	want(t, rejected, 201)
	if n := e.count("marcacoes_incluidas"); n != 0 {
		t.Fatalf("a request included %d punches before approval", n)
	}

	r = e.pub("GET", "/registropontos/solicitacoes", c.token, nil)
	want(t, r, 200)
	if r.obj(t)["total"] != float64(2) {
		t.Fatalf("pending: %s", r.body)
	}
	if r := e.pub("GET", "/registropontos/solicitacoes", other.token, nil); r.obj(t)["total"] != float64(0) {
		t.Fatalf("another company sees the requests: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/solicitacoes?status=talvez", c.token, nil), 400, "validacao")

	aprovar := path("/registropontos/solicitacoes/%d/aprovar", id(s))
	wantErr(t, e.pub("PUT", aprovar, w.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("PUT", aprovar, other.token, nil), 404, "nao_encontrado")
	r = e.pub("PUT", aprovar, c.token, nil)
	want(t, r, 200)
	if a := r.obj(t); a["status"] != "aprovada" || a["marcacaoId"] == nil || a["decididoEm"] == nil {
		t.Fatalf("approved: %s", r.body)
	}
	wantErr(t, e.pub("PUT", aprovar, c.token, nil), 409, "solicitacao_nao_pendente")
	if d := e.diaTratadoDe(c, w, "2024-03-04"); d.MinutosTrabalhados != 480 || d.Incompleto {
		t.Fatalf("after the approval: %+v", d)
	}
	want(t, e.pub("PUT", path("/registropontos/solicitacoes/%d/reprovar", id(rejected.obj(t))), c.token, nil), 200)
	if n := e.count("marcacoes_incluidas"); n != 1 {
		t.Fatalf("%d inclusions, want the approved one", n)
	}
	r = e.pub("GET", "/registropontos/solicitacoes?status=reprovada", c.token, nil)
	want(t, r, 200)
	if r.obj(t)["total"] != float64(1) {
		t.Fatalf("rejected: %s", r.body)
	}
	_ = stranger
}

// The department report counts the treatment like the timesheet: an
// included exit, a disregarded double punch, an abono.
func TestRelatorioComTratamentos(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	dep := e.departamento(c, "Loja")
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"departamentoId": dep})
	e.punch(w, local(2024, 3, 4, 8, 0))
	double := e.punch(w, local(2024, 3, 4, 8, 1))
	e.punch(w, local(2024, 3, 4, 12, 0))
	e.clock.Set(local(2024, 3, 8, 10, 0))
	want(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", id(double)), c.token, map[string]any{"motivo": "duplicidade"}), 200)
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/marcacoes", w.id), c.token,
		map[string]any{"horario": "2024-03-04T13:00:00-03:00", "motivo": "retorno esquecido"}), 201)
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", w.id), c.token,
		map[string]any{"data": "2024-03-04", "inicio": "14:00", "fim": "17:00", "motivo": "consulta", "tipo": "atestado_medico"}), 201)
	e.punch(w, local(2024, 3, 8, 14, 0)) // the clock moves on: a punch of another day
	r := e.pub("GET", "/registropontos/departamento/Loja?inicio=2024-03-04&fim=2024-03-04", c.token, nil)
	want(t, r, 200)
	var rep struct {
		Itens []struct {
			Dias []struct {
				MinutosTrabalhados, MinutosAbonados, SaldoMinutos int
				Incompleto                                        bool
				Marcacoes                                         []struct {
					Tipo, Origem, Status string
					Desconsiderada       bool
				}
			}
			Totais struct{ MinutosAbonados int }
		}
		Totais struct{ MinutosAbonados int }
	}
	r.into(t, &rep)
	d := rep.Itens[0].Dias[0]
	// 08:00-12:00 and 13:00-14:00 punched (the 13:00 included, 14:00 is
	// not punched: the day is incomplete), 14:00-17:00 excused.
	if len(d.Marcacoes) != 4 || !d.Marcacoes[1].Desconsiderada || d.Marcacoes[3].Origem != "incluída" ||
		d.Marcacoes[3].Status != "marcação incluída pela empresa" || d.Marcacoes[3].Tipo != "retorno almoço" ||
		d.MinutosTrabalhados != 240 || d.MinutosAbonados != 180 || !d.Incompleto ||
		rep.Itens[0].Totais.MinutosAbonados != 180 || rep.Totais.MinutosAbonados != 180 {
		t.Fatalf("report: %s", r.body)
	}
}
