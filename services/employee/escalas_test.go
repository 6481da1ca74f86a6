package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestEscalaCreateEchoesBodyWithID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	body := map[string]any{
		"empresaId": a.id,
		"nome":      "Comercial 6x1",
		"horarios": []map[string]any{
			{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540},
			{"entrada": "22:00", "saidaAlmoco": 180, "retornoAlmoco": 240, "saida": 480}, // crosses midnight
			// a pre-assigned break (Portaria 671 art. 83)
			{"entrada": "09:00", "saidaAlmoco": 180, "retornoAlmoco": 240, "saida": 480, "intervaloPreAssinalado": true},
			{"entrada": "00:00", "saidaAlmoco": 1, "retornoAlmoco": 2, "saida": 1440},
		},
	}
	r := e.pub("POST", "/escalatrabalhos", a.token, body)
	want(t, r, 200)
	got := r.obj(t)
	id, ok := got["id"].(float64)
	if !ok || id < 1 {
		t.Fatalf("id = %v", got["id"])
	}
	delete(got, "id")
	sent := roundTrip(t, body)
	if !reflect.DeepEqual(got, sent) {
		t.Fatalf("answer %v\nwant the body as sent %v", got, sent)
	}

	// Read back: same schedule.
	r = e.pub("GET", path("/escalatrabalhos/%d", int64(id)), a.token, nil)
	want(t, r, 200)
	back := r.obj(t)
	delete(back, "id")
	if !reflect.DeepEqual(back, sent) {
		t.Fatalf("read back %v, want %v", back, sent)
	}
}

// roundTrip renders v as JSON and back, as a client would see it.
func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEscalaValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	day := func(entrada any, sa, ra, s any) map[string]any {
		return map[string]any{"entrada": entrada, "saidaAlmoco": sa, "retornoAlmoco": ra, "saida": s}
	}
	valid := day("08:00", 240, 300, 540)
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"no empresaId", map[string]any{"nome": "X", "horarios": []any{valid}}, "empresaId"},
		{"no nome", map[string]any{"empresaId": 1, "horarios": []any{valid}}, "nome"},
		{"long nome", map[string]any{"empresaId": 1, "nome": strings.Repeat("a", 101), "horarios": []any{valid}}, "nome"},
		{"no horarios", map[string]any{"empresaId": 1, "nome": "X"}, "horarios"},
		{"empty horarios", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{}}, "horarios"},
		{"eight horarios", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{valid, valid, valid, valid, valid, valid, valid, valid}}, "horarios"},
		{"entrada 24:00", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("24:00", 240, 300, 540)}}, "horarios[0].entrada"},
		{"entrada 8:00", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{valid, day("8:00", 240, 300, 540)}}, "horarios[1].entrada"},
		{"entrada missing", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{map[string]any{"saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540}}}, "horarios[0].entrada"},
		{"saida missing", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{map[string]any{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300}}}, "horarios[0].saida"},
		{"lunch back before out", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", 300, 300, 540)}}, "horarios[0].retornoAlmoco"},
		{"saida before return", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", 240, 300, 290)}}, "horarios[0].saida"},
		{"saida over 24h", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", 240, 300, 1441)}}, "horarios[0].saida"},
		{"saidaAlmoco zero", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", 0, 300, 540)}}, "horarios[0].saidaAlmoco"},
		{"negative", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", -5, 300, 540)}}, "horarios[0].saidaAlmoco"},
		{"fraction", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", 240.5, 300, 540)}}, "horarios.saidaAlmoco"},
		{"string minutes", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{day("08:00", "240", 300, 540)}}, "horarios.saidaAlmoco"},
		{"unknown field", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{valid}, "extra": 1}, "extra"},
		// Windows that overlap: Monday 22:00 → Tuesday 05:30 against Tuesday from 05:00.
		{"night into the next shift", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{
			day("22:00", 180, 240, 450), day("05:00", 240, 300, 480)}}, "horarios[0]"},
		{"Wednesday into Thursday", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{
			valid, valid, day("20:00", 240, 300, 720), day("07:00", 240, 300, 540)}}, "horarios[2]"},
		// Seven days: Sunday 23:00 → Monday 07:00 against Monday from 06:00.
		{"Sunday into Monday", map[string]any{"empresaId": 1, "nome": "X", "horarios": []any{
			day("06:00", 240, 300, 540), valid, valid, valid, valid, valid, day("23:00", 240, 300, 480)}}, "horarios[6]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.pub("POST", "/escalatrabalhos", a.token, tc.body)
			wantErr(t, r, 400, "validacao")
			if _, ok := r.fields(t)[tc.field]; !ok {
				t.Fatalf("fields %v do not name %s", r.fields(t), tc.field)
			}
		})
	}
	if n := e.count("escalas_trabalho"); n != 0 {
		t.Fatalf("%d schedules stored by invalid requests", n)
	}
	wantErr(t, e.pub("POST", "/escalatrabalhos", a.token, `{"empresaId":1,`), 400, "json_invalido")

	// Shifts that just meet are accepted: a night shift ending at 05:30,
	// the next day's starting then; seven nights in a row.
	night := day("22:00", 180, 240, 450)
	want(t, e.pub("POST", "/escalatrabalhos", a.token, map[string]any{"empresaId": 1, "nome": "Noturna",
		"horarios": []any{night, day("05:30", 240, 300, 480)}}), 200)
	want(t, e.pub("POST", "/escalatrabalhos", a.token, map[string]any{"empresaId": 1, "nome": "Noturna 7x0",
		"horarios": []any{night, night, night, night, night, night, night}}), 200)
}

func TestEscalaTenancy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	bEscala := e.escala(b, "Segredo de B")

	r := e.pub("POST", "/escalatrabalhos", a.token, map[string]any{"empresaId": b.id, "nome": "X", "horarios": standardHorarios()})
	wantErr(t, r, 403, "empresa_divergente")
	if n := e.count("escalas_trabalho"); n != 1 {
		t.Fatalf("%d schedules, want only B's", n)
	}

	r = e.pub("GET", path("/escalatrabalhos/%d", bEscala), a.token, nil)
	wantErr(t, r, 404, "nao_encontrado")
	if strings.Contains(string(r.body), "Segredo") {
		t.Fatalf("404 reveals B's data: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/escalatrabalhos/abc", a.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/escalatrabalhos/0", a.token, nil), 400, "validacao")

	// Roles: an employee may not use company routes; no token is 401.
	emp := e.iss.Funcionario(t, a.id, 7)
	wantErr(t, e.pub("POST", "/escalatrabalhos", emp, map[string]any{"empresaId": a.id, "nome": "X", "horarios": standardHorarios()}), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/escalatrabalhos", emp, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", path("/escalatrabalhos/%d", bEscala), e.iss.Funcionario(t, b.id, 7), nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/escalatrabalhos", e.iss.Admin(t), nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/escalatrabalhos", "", nil), 401, "nao_autenticado")
}

func TestEscalaList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	for i := range 5 {
		e.escala(a, path("Escala %d", i))
	}
	e.escala(b, "De B")

	var res struct {
		Itens   []map[string]any `json:"itens"`
		Pagina  int              `json:"pagina"`
		Tamanho int              `json:"tamanho"`
		Total   int              `json:"total"`
	}
	r := e.pub("GET", "/escalatrabalhos?pagina=2&tamanho=2", a.token, nil)
	want(t, r, 200)
	r.into(t, &res)
	if res.Total != 5 || res.Pagina != 2 || res.Tamanho != 2 || len(res.Itens) != 2 || res.Itens[0]["nome"] != "Escala 2" {
		t.Fatalf("page 2 = %+v", res)
	}
	r = e.pub("GET", "/escalatrabalhos?pagina=4&tamanho=2", a.token, nil)
	want(t, r, 200)
	r.into(t, &res)
	if res.Total != 5 || len(res.Itens) != 0 {
		t.Fatalf("page past the end = %+v", res)
	}
	for _, q := range []string{"pagina=0", "pagina=10001", "tamanho=0", "tamanho=101", "tamanho=x"} {
		wantErr(t, e.pub("GET", "/escalatrabalhos?"+q, a.token, nil), 400, "validacao")
	}
	r = e.pub("GET", "/escalatrabalhos", b.token, nil)
	r.into(t, &res)
	if res.Total != 1 || res.Itens[0]["nome"] != "De B" || res.Tamanho != 20 || res.Pagina != 1 {
		t.Fatalf("B's list = %+v", res)
	}
}
