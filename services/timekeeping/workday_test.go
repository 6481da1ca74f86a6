package main

import (
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// nightly is a schedule of seven 22:00 → 05:30 shifts with a break from
// 01:30 to 02:30: 390 minutes of work a night.
func nightly() []map[string]any {
	d := horario("22:00", 210, 270, 450)
	return []map[string]any{d, d, d, d, d, d, d}
}

// A night shift's four punches, through the API, are one workday dated by
// its start: the tipo sequence goes on after midnight, and the timesheet
// and the report count 390 worked and 390 night minutes (the 30 after
// 05:00 by Súmula 60), with no false rest alert.
func TestNightShiftIsOneWorkday(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	dep := e.departamento(c, "Vigilância")
	w := e.funcionario(c, e.escala(c, "Noturno", nightly()), map[string]any{"departamentoId": dep})
	tipos := []string{}
	for _, at := range []time.Time{local(2026, 3, 9, 22, 0), local(2026, 3, 10, 1, 30), local(2026, 3, 10, 2, 30),
		local(2026, 3, 10, 5, 30), local(2026, 3, 10, 21, 58)} {
		r := e.punch(w, at)
		if r["data"] != "2026-03-09" && !at.Equal(local(2026, 3, 10, 21, 58)) {
			t.Errorf("punch at %v: workday %v, want 2026-03-09", at, r["data"])
		}
		tipos = append(tipos, r["tipo"].(string))
	}
	if want := []string{"entrada", "almoço", "retorno almoço", "saída", "entrada"}; strings.Join(tipos, ",") != strings.Join(want, ",") {
		t.Fatalf("tipos %v, want %v", tipos, want)
	}
	e.clock.Set(local(2026, 3, 11, 9, 0))

	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2026-03", w.id), c.token, nil)
	want(t, r, 200)
	var esp struct {
		Dias []struct {
			Data                     string   `json:"data"`
			MinutosTrabalhados       int      `json:"minutosTrabalhados"`
			MinutosNoturnos          int      `json:"minutosNoturnos"`
			MinutosNoturnosReduzidos int      `json:"minutosNoturnosReduzidos"`
			DescansoMinutos          *int     `json:"descansoMinutos"`
			Alertas                  []string `json:"alertas"`
			MarcacoesOriginais       []any    `json:"marcacoesOriginais"`
		} `json:"dias"`
	}
	r.into(t, &esp)
	days := map[string]int{}
	for i, d := range esp.Dias {
		days[d.Data] = i
	}
	d9, d10 := esp.Dias[days["2026-03-09"]], esp.Dias[days["2026-03-10"]]
	if len(d9.MarcacoesOriginais) != 4 || d9.MinutosTrabalhados != 390 || d9.MinutosNoturnos != 390 ||
		d9.MinutosNoturnosReduzidos != 446 || len(d9.Alertas) != 0 {
		t.Errorf("timesheet, the night of the 9th: %+v", d9)
	}
	// The next night began at 21:58, 16 h 28 after the 05:30 saída.
	if len(d10.MarcacoesOriginais) != 1 || d10.DescansoMinutos == nil || *d10.DescansoMinutos != 16*60+28 ||
		strings.Contains(strings.Join(d10.Alertas, ","), core.AlertaDescanso) {
		t.Errorf("timesheet, the 10th: %+v", d10)
	}

	r = e.pub("GET", "/registropontos/departamento/Vigil%C3%A2ncia?inicio=2026-03-09&fim=2026-03-10", c.token, nil)
	want(t, r, 200)
	var rel struct {
		Itens []struct {
			Dias []struct {
				Data               string `json:"data"`
				MinutosTrabalhados int    `json:"minutosTrabalhados"`
				MinutosNoturnos    int    `json:"minutosNoturnos"`
				Marcacoes          []struct {
					HoraLocal string `json:"horaLocal"`
				} `json:"marcacoes"`
			} `json:"dias"`
		} `json:"itens"`
	}
	r.into(t, &rel)
	if len(rel.Itens) != 1 || len(rel.Itens[0].Dias) != 2 {
		t.Fatalf("report %s", r.body)
	}
	day := rel.Itens[0].Dias[0]
	if day.Data != "2026-03-09" || day.MinutosTrabalhados != 390 || day.MinutosNoturnos != 390 ||
		len(day.Marcacoes) != 4 || day.Marcacoes[3].HoraLocal != "05:30" {
		t.Errorf("report, the night of the 9th: %+v", day)
	}
}

// dhField matches a DH field: seconds 00 and an offset.
var dhField = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:(\d{2})([-+]\d{4})`)

// A company in Manaus: its punches, its AFD and its receipts are at
// -04:00, every DH field ends in ":00" and the offset, and the collector
// is the one the client sent.
func TestCompanyZoneAndCollectorInTheAFD(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.billing.mu.Lock()
	e.billing.zones["8"] = "America/Manaus"
	e.billing.mu.Unlock()
	c := e.company(8)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	// 03:30 UTC on the 10th is 23:30 of the 9th in Manaus (a Monday).
	e.clock.Set(time.Date(2026, 3, 10, 3, 30, 17, 0, time.UTC))
	r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "-3.1, -60.0", "funcionarioId": w.id,
		"coletor": "02"})
	want(t, r, 200)
	if d := r.obj(t)["data"]; d != "2026-03-09" {
		t.Errorf("workday %v, want 2026-03-09 (Manaus)", d)
	}
	for _, bad := range []any{"06", "1", "", 2, "00"} {
		before := e.count("registros_ponto")
		wantErr(t, e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "-3.1, -60.0",
			"funcionarioId": w.id, "coletor": bad}), 400, "validacao")
		if e.count("registros_ponto") != before {
			t.Fatalf("coletor %v: a punch was written", bad)
		}
	}
	e.clock.Set(time.Date(2026, 3, 20, 15, 0, 42, 0, time.UTC))
	r = e.pub("GET", "/registropontos/afd?inicio=2026-03-01&fim=2026-03-31", c.token, nil)
	want(t, r, 200)
	a, err := core.ParseAFD(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Marcacoes) != 1 || a.Marcacoes[0].Horario != "2026-03-09T23:30:00-0400" ||
		a.Marcacoes[0].Gravacao != "2026-03-09T23:30:00-0400" || a.Marcacoes[0].Coletor != "02" {
		t.Fatalf("type 7 %+v", a.Marcacoes)
	}
	if a.Cabecalho.Geracao != "2026-03-20T11:00:00-0400" {
		t.Errorf("header generated %s", a.Cabecalho.Geracao)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range dhField.FindAllStringSubmatch(string(r.body), -1) {
		n++
		if m[1] != "00" || m[2] != "-0400" {
			t.Errorf("DH field %s: want seconds 00 and -0400", m[0])
		}
	}
	if n != 4 { // the header, the type-5 inclusion, the punch and its recording
		t.Errorf("%d DH fields", n)
	}
}

// An employee's own zone wins over his company's.
func TestEmployeeZone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"fusoHorario": "America/Rio_Branco"})
	// 04:30 UTC on the 10th is 23:30 of the 9th in Rio Branco (-05:00) and
	// 01:30 of the 10th in São Paulo.
	e.clock.Set(time.Date(2026, 3, 10, 4, 30, 0, 0, time.UTC))
	r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "-9.97, -67.8", "funcionarioId": w.id})
	want(t, r, 200)
	if d := r.obj(t)["data"]; d != "2026-03-09" {
		t.Errorf("workday %v, want 2026-03-09 (Rio Branco)", d)
	}
	var offset int
	if err := e.db.QueryRow(t.Context(), `SELECT fuso_minutos FROM registros_ponto WHERE funcionario_id = $1`, w.id).Scan(&offset); err != nil || offset != -300 {
		t.Fatalf("stored offset %d, %v", offset, err)
	}
}

// Punches recorded under hash rule version 1 (the recording time with its
// seconds) stay as they were; the punches after them are version 2, and
// the chain verifies across the change: from the stored fields (the
// chain audit) and from the AFD, where every DH field ends in ":00".
func TestChainAcrossTheHashRuleChange(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	// Two punches as the service recorded them before the change.
	prev := ""
	cpf := core.CPF12(w.cpf)
	for i, at := range []time.Time{time.Date(2026, 3, 9, 11, 0, 17, 0, time.UTC), time.Date(2026, 3, 9, 15, 0, 43, 0, time.UTC)} {
		nsr := int64(i + 1)
		h, err := core.Hash(core.Marcacao{NSR: nsr, Horario: at, OffsetMinutes: -180, CPF: cpf, Coletor: "01",
			Versao: core.HashV1}, prev)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.db.Exec(t.Context(), `INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada,
			horario_registro, tipo, localizacao, nsr, hash, hash_versao, cpf, fuso_minutos, coletor)
			VALUES (1, $1, '2026-03-09', $2, $3, '-23.5, -46.6', $4, $5, 1, $6, -180, '01')`,
			w.id, at, core.NextTipo(i), nsr, h, cpf); err != nil {
			t.Fatal(err)
		}
		prev = h
	}
	if _, err := e.db.Exec(t.Context(), `INSERT INTO cadeias (empresa_id, ultimo_nsr, ultimo_hash) VALUES (1, 2, $1)`, prev); err != nil {
		t.Fatal(err)
	}
	// The service's first punch of his writes his inclusion (type 5), and
	// its punches are version 2.
	e.punch(w, local(2026, 3, 9, 13, 0))
	e.punch(w, local(2026, 3, 9, 17, 0))
	var versions []int
	rows, _ := e.db.Query(t.Context(), `SELECT hash_versao FROM registros_ponto WHERE empresa_id = 1 ORDER BY nsr`)
	for rows.Next() {
		var v int
		_ = rows.Scan(&v)
		versions = append(versions, v)
	}
	if fmt.Sprint(versions) != "[1 1 2 2]" {
		t.Fatalf("hash versions %v", versions)
	}
	e.clock.Set(local(2026, 3, 20, 10, 0))
	r := e.pub("GET", "/registropontos/afd?inicio=2026-03-01&fim=2026-03-31", c.token, nil)
	want(t, r, 200)
	a, err := core.ParseAFD(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Marcacoes) != 4 || a.Marcacoes[0].Gravacao != "2026-03-09T08:00:00-0300" {
		t.Fatalf("punches %+v", a.Marcacoes)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatalf("the AFD's chain across the rule change: %v", err)
	}
	res, err := chainaudit.New(e.db, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.New(time.Now), chainaudit.Limits{}).Once(t.Context())
	if err != nil || res.Broken != 0 || res.Records != 5 {
		t.Fatalf("chain audit across the rule change: %+v, %v", res, err)
	}
}
