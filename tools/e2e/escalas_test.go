package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// The night, 12x36 and holiday scenario of the golden month
// (services/timekeeping/testdata/escalas_golden.py), built through the
// public API in November 2025 (Thursday 20 is a national holiday): a
// night shift (22:00-05:30, break 02:00-03:00) from Wednesday 19 into
// the holiday and one from the holiday into Friday, and a 12x36 shift on
// the holiday, the punches included by the company. The timesheet, the
// department report and the AEJ agree with each other, and the
// timesheet's figures are the golden month's for the same shifts.
func TestNightAnd12x36AcrossAHoliday(t *testing.T) {
	e := sharedEnv(t)
	api := e.api
	c := e.registerCompany(t, "Padaria Noturna")
	e.setUp(t, c)
	n := map[string]any{"entrada": "22:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 450}
	noturno := api.do(t, request{Method: http.MethodPost, Path: "/escalatrabalhos", Token: c.Token, CheckRequest: true,
		Body: map[string]any{"empresaId": c.ID, "nome": "Noturno", "horarios": []any{n, n, n, n, n}}}).
		expect(t, http.StatusOK).object(t).int("id")
	plantao := api.do(t, request{Method: http.MethodPost, Path: "/escalatrabalhos", Token: c.Token, CheckRequest: true,
		Body: map[string]any{"empresaId": c.ID, "nome": "Plantão", "tipo": "12x36", "dataInicio": "2025-11-20",
			"horarios": []any{map[string]any{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}}}).
		expect(t, http.StatusOK).object(t).int("id")
	hire := func(nome string, escala int64, admissao, demissao string) int64 {
		body := employeeBody(t, c, nome, uniqueEmail("escala"))
		body["escalaTrabalhoId"], body["dataAdmissao"], body["dataDemissao"] = escala, admissao, demissao
		return api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: c.Token, CheckRequest: true, Body: body}).
			expect(t, http.StatusOK).object(t).int("id")
	}
	noite := hire("Noite", noturno, "19/11/2025", "20/11/2025")
	doze := hire("Plantão", plantao, "20/11/2025", "20/11/2025")
	include := func(id int64, horarios ...string) {
		for _, h := range horarios {
			api.do(t, request{Method: http.MethodPost, Path: "/registropontos/funcionario/" + itoa(id) + "/marcacoes",
				Token: c.Token, CheckRequest: true, Body: map[string]any{"horario": h, "motivo": "registro em papel"}}).
				expect(t, http.StatusCreated)
		}
	}
	include(noite, "2025-11-19T22:00:00-03:00", "2025-11-20T02:00:00-03:00", "2025-11-20T03:00:00-03:00",
		"2025-11-20T05:30:00-03:00", "2025-11-20T22:00:00-03:00", "2025-11-21T02:00:00-03:00",
		"2025-11-21T03:00:00-03:00", "2025-11-21T05:30:00-03:00")
	include(doze, "2025-11-20T07:00:00-03:00", "2025-11-20T12:00:00-03:00", "2025-11-20T13:00:00-03:00",
		"2025-11-20T19:00:00-03:00")

	figures := []string{"minutosTrabalhados", "minutosPrevistos", "minutosExtras50", "minutosExtras100", "minutosNoturnos",
		"saldoMinutos", "falta", "foraDoVinculo"}
	pick := func(d obj) string {
		var b strings.Builder
		for _, k := range figures {
			b.WriteString(k + "=" + strings.Trim(string(mustJSON(d[k])), `"`) + " ")
		}
		return b.String()
	}
	timesheet := func(id int64) map[string]obj {
		out := map[string]obj{}
		r := api.do(t, request{Method: http.MethodGet, Path: "/registropontos/funcionario/" + itoa(id) + "/espelho?mes=2025-11",
			Token: c.Token}).expect(t, http.StatusOK).object(t)
		for _, d := range r.list("dias") {
			out[d.str("data")] = d
		}
		return out
	}
	tn, tp := timesheet(noite), timesheet(doze)

	// The golden month's figures of the same shifts.
	b, err := os.ReadFile("../../services/timekeeping/testdata/escalas-2024-11.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden []struct {
		Funcionario string           `json:"funcionario"`
		Dias        []map[string]any `json:"dias"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{}
	for _, g := range golden {
		for _, d := range g.Dias {
			for k, v := range d {
				if f, ok := v.(float64); ok {
					d[k] = json.Number(itoa(int64(f)))
				}
			}
			gold[g.Funcionario+" "+d["data"].(string)] = pick(d)
		}
	}
	for _, x := range []struct{ what, got, want string }{
		{"night into the holiday", pick(tn["2025-11-19"]), gold["Noite 2024-11-19"]},
		{"night from the holiday", pick(tn["2025-11-20"]), gold["Noite 2024-11-20"]},
		{"12x36 on the holiday", pick(tp["2025-11-20"]), gold["Plantão 2024-11-15"]},
	} {
		if x.got != x.want || x.want == "" {
			t.Errorf("%s: timesheet %s; golden %s", x.what, x.got, x.want)
		}
	}

	// The department report says the same.
	q := url.Values{"inicio": {"2025-11-19"}, "fim": {"2025-11-21"}}
	rep := api.do(t, request{Method: http.MethodGet, Path: "/registropontos/departamento/" + url.PathEscape(c.DeptNome) + "?" +
		q.Encode(), Token: c.Token}).expect(t, http.StatusOK).object(t)
	seen := 0
	for _, it := range rep.list("itens") {
		ts := map[int64]map[string]obj{noite: tn, doze: tp}[it.obj("funcionario").int("id")]
		for _, d := range it.list("dias") {
			if w, ok := ts[d.str("data")]; ok {
				seen++
				if pick(d) != pick(w) {
					t.Errorf("report %s: %s; timesheet %s", d.str("data"), pick(d), pick(w))
				}
			}
		}
	}
	if seen < 3 {
		t.Errorf("the report shows %d of the timesheets' days", seen)
	}

	// The AEJ: the contractual schedules (the night one with reduced
	// minutes), each bond's punches as the timesheet treated them, and no
	// absence.
	a := api.do(t, request{Method: http.MethodGet, Path: "/registropontos/aej?inicio=2025-11-19&fim=2025-11-21", Token: c.Token}).
		expect(t, http.StatusOK)
	text, err := charmap.ISO8859_1.NewDecoder().Bytes(a.Body)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\r\n")
	has := func(s string) bool {
		for _, l := range lines {
			if l == s {
				return true
			}
		}
		return false
	}
	for _, want := range []string{"04|2200-0200-0300-0530|446|2200|0200|0300|0530", "04|0700-1200-1300-1900|660|0700|1200|1300|1900"} {
		if !has(want) {
			t.Errorf("the AEJ lacks %s:\n%s", want, text)
		}
	}
	var marks [3][]string // by bond (1 Noite, 2 Plantão)
	for _, l := range lines {
		f := strings.Split(l, "|")
		if f[0] == "07" {
			t.Errorf("an absence record: %s", l)
		}
		if f[0] == "05" && len(f) == 9 && (f[1] == "1" || f[1] == "2") {
			if f[6] != "I" || f[8] != "registro em papel" {
				t.Errorf("an included punch as %s", l)
			}
			k := int(f[1][0] - '0')
			marks[k] = append(marks[k], f[2][11:16])
		}
	}
	for k, ts := range map[int]map[string]obj{1: tn, 2: tp} {
		var want []string
		for _, data := range []string{"2025-11-19", "2025-11-20"} {
			for _, m := range ts[data].list("marcacoesTratadas") {
				want = append(want, m.str("horario"))
			}
		}
		if strings.Join(marks[k], " ") != strings.Join(want, " ") {
			t.Errorf("bond %d: AEJ punches %v; timesheet %v", k, marks[k], want)
		}
	}
}
