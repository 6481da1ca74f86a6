package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/password"
)

func TestFuncionarioCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "Padrão")
	body := funcionarioBody(a, esc, nil)
	r := e.pub("POST", "/funcionarios", a.token, body)
	want(t, r, 200)
	got := r.obj(t)

	keys := sortedKeys(got)
	wantKeys := []string{"cargo", "cpf", "dataNascimento", "email", "empresaId", "escalaTrabalhoId", "estabelecimentoId", "id",
		"nome", "password", "telefone"}
	if !reflect.DeepEqual(keys, wantKeys) {
		t.Fatalf("keys %v, want %v", keys, wantKeys)
	}
	hash, _ := got["password"].(string)
	if hash == body["password"] || !password.Matches(hash, body["password"].(string)) {
		t.Fatalf("password %q is not the bcrypt hash of the one sent", hash)
	}
	for _, k := range []string{"cargo", "cpf", "dataNascimento", "email", "nome", "telefone"} {
		if got[k] != body[k] {
			t.Errorf("%s = %v, want %v as sent", k, got[k], body[k])
		}
	}
	if got["empresaId"] != float64(a.id) || got["escalaTrabalhoId"] != float64(esc) {
		t.Errorf("ids = %v, %v", got["empresaId"], got["escalaTrabalhoId"])
	}

	// The stored record, read by the company.
	r = e.pub("GET", path("/funcionarios/%d", int64(got["id"].(float64))), a.token, nil)
	want(t, r, 200)
	rec := r.obj(t)
	if rec["dataNascimento"] != "1990-08-15T00:00:00.000Z" || rec["cpfcnpj"] != body["cpf"] || rec["ativo"] != true ||
		rec["horarioTrabalho"] != float64(480) || rec["role"] != "funcionario" || rec["sentimento"] != "Neutro" {
		t.Fatalf("record = %s", r.body)
	}
	if strings.Contains(string(r.body), hash) || strings.Contains(string(r.body), "password") {
		t.Fatalf("record shows the password: %s", r.body)
	}
}

func TestFuncionarioCreateWithAdditions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "Padrão")
	dep := e.departamento(a, "Vendas", "Equipe A", "Equipe B")
	id := e.funcionario(a, esc, map[string]any{
		"departamentoId": dep, "segmento": 2, "clt": true, "dataAdmissao": "01/03/2024",
		"endereco": "Rua A, 10", "cidade": "São Paulo", "uf": "SP", "codeMatricula": "M-001",
		"nispis": "12345678919", "valorHora": 25.5, "sobreaviso": true,
	})
	r := e.pub("GET", path("/funcionarios/%d", id), a.token, nil)
	want(t, r, 200)
	rec := r.obj(t)
	for k, v := range map[string]any{
		"departamentoId": float64(dep), "segmento": float64(2), "clt": true, "pj": false,
		"dataAdmissao": "2024-03-01T00:00:00.000Z", "endereco": "Rua A, 10", "cidade": "São Paulo", "uf": "SP",
		"codeMatricula": "M-001", "nispis": "12345678919", "valorHora": 25.5, "sobreaviso": true,
	} {
		if rec[k] != v {
			t.Errorf("%s = %#v, want %#v", k, rec[k], v)
		}
	}
	// Matrícula is unique within the company.
	r = e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{"codeMatricula": "M-001"}))
	wantErr(t, r, 409, "matricula_duplicada")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestFuncionarioCreateValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "Padrão")
	dep := e.departamento(a, "Vendas", "A")
	today := time.Now()
	cases := []struct {
		name      string
		overrides map[string]any
		field     string
	}{
		{"cpf check digit", map[string]any{"cpf": "123.456.789-00"}, "cpf"},
		{"cpf without mask", map[string]any{"cpf": "52998224725"}, "cpf"},
		{"cpf repeated", map[string]any{"cpf": "111.111.111-11"}, "cpf"},
		{"cpf missing", map[string]any{"cpf": nil}, "cpf"},
		{"email", map[string]any{"email": "sem-arroba.com"}, "email"},
		{"email display name", map[string]any{"email": "Fulano <f@x.com>"}, "email"},
		{"email missing", map[string]any{"email": nil}, "email"},
		{"date 31/02", map[string]any{"dataNascimento": "31/02/1990"}, "dataNascimento"},
		{"date ISO", map[string]any{"dataNascimento": "1990-08-15"}, "dataNascimento"},
		{"date future", map[string]any{"dataNascimento": today.AddDate(1, 0, 0).Format("02/01/2006")}, "dataNascimento"},
		{"too young", map[string]any{"dataNascimento": today.AddDate(-13, 0, 0).Format("02/01/2006")}, "dataNascimento"},
		{"too old", map[string]any{"dataNascimento": today.AddDate(-101, 0, 0).Format("02/01/2006")}, "dataNascimento"},
		{"telefone mask", map[string]any{"telefone": "(11) 98765-4321"}, "telefone"},
		{"telefone short", map[string]any{"telefone": "987654321"}, "telefone"},
		{"telefone long", map[string]any{"telefone": "119876543210"}, "telefone"},
		{"telefone number", map[string]any{"telefone": 11987654321}, "telefone"},
		{"nome missing", map[string]any{"nome": nil}, "nome"},
		{"nome short", map[string]any{"nome": "A"}, "nome"},
		{"nome long", map[string]any{"nome": strings.Repeat("a", 151)}, "nome"},
		{"cargo blank", map[string]any{"cargo": "  "}, "cargo"},
		{"cargo long", map[string]any{"cargo": strings.Repeat("c", 101)}, "cargo"},
		{"password weak", map[string]any{"password": "abc"}, "password"},
		{"password no digit", map[string]any{"password": "abcdefghij"}, "password"},
		{"password missing", map[string]any{"password": nil}, "password"},
		{"escala missing", map[string]any{"escalaTrabalhoId": nil}, "escalaTrabalhoId"},
		{"escala string", map[string]any{"escalaTrabalhoId": "1"}, "escalaTrabalhoId"},
		{"empresa missing", map[string]any{"empresaId": nil}, "empresaId"},
		{"segmento without department", map[string]any{"segmento": 1}, "segmento"},
		{"segmento zero", map[string]any{"departamentoId": dep, "segmento": 0}, "segmento"},
		{"departamento negative", map[string]any{"departamentoId": -1}, "departamentoId"},
		{"clt and pj", map[string]any{"clt": true, "pj": true}, "pj"},
		{"uf", map[string]any{"uf": "XX"}, "uf"},
		{"nispis digit", map[string]any{"nispis": "12345678910"}, "nispis"},
		{"nispis letters", map[string]any{"nispis": "1234567891a"}, "nispis"},
		{"valorHora decimals", map[string]any{"valorHora": 10.123}, "valorHora"},
		{"valorHora negative", map[string]any{"valorHora": -1}, "valorHora"},
		{"dataAdmissao", map[string]any{"dataAdmissao": "2024-03-01"}, "dataAdmissao"},
		{"unknown field", map[string]any{"salario": 1}, "salario"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, tc.overrides))
			wantErr(t, r, 400, "validacao")
			if _, ok := r.fields(t)[tc.field]; !ok {
				t.Fatalf("fields %v do not name %s", r.fields(t), tc.field)
			}
		})
	}

	// Every invalid field is named in one answer.
	r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{
		"cpf": "000.000.000-01", "email": "x", "telefone": "abc", "nome": "", "password": "1",
	}))
	wantErr(t, r, 400, "validacao")
	if f := sortedKeys(r.fields(t)); !reflect.DeepEqual(f, []string{"cpf", "email", "nome", "password", "telefone"}) {
		t.Fatalf("fields = %v", f)
	}
	wantErr(t, e.pub("POST", "/funcionarios", a.token, `{"nome":`), 400, "json_invalido")
	wantErr(t, e.pub("POST", "/funcionarios", a.token, `[]`), 400, "validacao")

	if n := e.count("funcionarios"); n != 0 {
		t.Fatalf("%d employees created by invalid requests", n)
	}
}

func TestFuncionarioDuplicates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	escA, escB := e.escala(a, "A"), e.escala(b, "B")
	first := funcionarioBody(a, escA, nil)
	want(t, e.pub("POST", "/funcionarios", a.token, first), 200)

	wantErr(t, e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, escA, map[string]any{"cpf": first["cpf"]})), 409, "cpf_duplicado")
	upper := strings.ToUpper(first["email"].(string))
	wantErr(t, e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, escA, map[string]any{"email": upper})), 409, "email_duplicado")
	if n := e.count("funcionarios"); n != 1 {
		t.Fatalf("%d employees, want 1", n)
	}

	// One person, several employers: another company registers the same
	// CPF and e-mail (and learns nothing of the first).
	second := funcionarioBody(b, escB, map[string]any{"cpf": first["cpf"], "email": upper})
	want(t, e.pub("POST", "/funcionarios", b.token, second), 200)
	if n := e.count("funcionarios"); n != 2 {
		t.Fatalf("%d employees, want 2", n)
	}
	// Auth's lookups: both employments, or the one of a company; without
	// a company the single lookup is ambiguous.
	q := "email=" + url.QueryEscape(first["email"].(string))
	r := e.in("GET", "/internal/funcionarios/vinculos?"+q, nil)
	want(t, r, 200)
	var v struct{ Funcionarios []map[string]any }
	if err := json.Unmarshal(r.body, &v); err != nil || len(v.Funcionarios) != 2 ||
		v.Funcionarios[0]["empresaId"] != float64(a.id) || v.Funcionarios[1]["empresaId"] != float64(b.id) {
		t.Fatalf("employments: %s", r.body)
	}
	wantErr(t, e.in("GET", "/internal/funcionarios/por-email?"+q, nil), 409, "email_ambiguo")
	r = e.in("GET", "/internal/funcionarios/por-email?"+q+"&empresaId="+strconv.FormatInt(b.id, 10), nil)
	if want(t, r, 200); r.obj(t)["empresaId"] != float64(b.id) {
		t.Fatalf("by e-mail in company B: %s", r.body)
	}
}

func TestFuncionarioCreateCrossCompany(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	escA := e.escala(a, "A")
	escB := e.escala(b, "Escala sigilosa de B")
	depA := e.departamento(a, "Vendas", "Equipe A")
	depB := e.departamento(b, "Departamento sigiloso de B", "Time B")

	r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(b, escA, nil))
	wantErr(t, r, 403, "empresa_divergente")

	for name, tc := range map[string]struct {
		overrides map[string]any
		field     string
	}{
		"B's schedule":       {map[string]any{"escalaTrabalhoId": escB}, "escalaTrabalhoId"},
		"unknown schedule":   {map[string]any{"escalaTrabalhoId": 999999}, "escalaTrabalhoId"},
		"B's department":     {map[string]any{"departamentoId": depB}, "departamentoId"},
		"B's department+seg": {map[string]any{"departamentoId": depB, "segmento": 1}, "departamentoId"},
		"unknown segment":    {map[string]any{"departamentoId": depA, "segmento": 2}, "segmento"},
	} {
		t.Run(name, func(t *testing.T) {
			r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, escA, tc.overrides))
			wantErr(t, r, 404, "nao_encontrado")
			if _, ok := r.fields(t)[tc.field]; !ok {
				t.Fatalf("fields %v do not name %s", r.fields(t), tc.field)
			}
			if strings.Contains(string(r.body), "sigilos") || strings.Contains(string(r.body), "Time B") {
				t.Fatalf("answer reveals B's data: %s", r.body)
			}
		})
	}
	if n := e.count("funcionarios"); n != 0 {
		t.Fatalf("%d employees created", n)
	}
}

func TestFuncionarioRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	joao := e.funcionario(a, esc, map[string]any{"nome": "João Segredo"})
	maria := e.funcionario(a, esc, nil)
	pedro := e.funcionario(b, e.escala(b, "B"), nil)

	want(t, e.pub("GET", path("/funcionarios/%d", joao), a.token, nil), 200)
	r := e.pub("GET", path("/funcionarios/%d", joao), b.token, nil)
	wantErr(t, r, 404, "nao_encontrado")
	if strings.Contains(string(r.body), "Segredo") {
		t.Fatalf("404 reveals data: %s", r.body)
	}

	// The employee reads himself, not a colleague nor anyone elsewhere.
	tok := e.iss.Funcionario(t, a.id, joao)
	r = e.pub("GET", path("/funcionarios/%d", joao), tok, nil)
	want(t, r, 200)
	if r.obj(t)["nome"] != "João Segredo" {
		t.Fatalf("self = %s", r.body)
	}
	wantErr(t, e.pub("GET", path("/funcionarios/%d", maria), tok, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/funcionarios/%d", pedro), tok, nil), 404, "nao_encontrado")
	// A token naming him in the wrong company finds nothing either.
	wantErr(t, e.pub("GET", path("/funcionarios/%d", joao), e.iss.Funcionario(t, b.id, joao), nil), 404, "nao_encontrado")

	wantErr(t, e.pub("GET", "/funcionarios/abc", a.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/funcionarios/-3", a.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/funcionarios/99999999999999999999", a.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", path("/funcionarios/%d", joao), e.iss.Admin(t), nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", path("/funcionarios/%d", joao), "", nil), 401, "nao_autenticado")
	wantErr(t, e.pub("GET", path("/funcionarios/%d", joao), "not-a-token", nil), 401, "nao_autenticado")
}

func TestFuncionarioCompanyRoutesRefuseEmployees(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "A")
	id := e.funcionario(a, esc, nil)
	tok := e.iss.Funcionario(t, a.id, id)
	wantErr(t, e.pub("POST", "/funcionarios", tok, funcionarioBody(a, esc, nil)), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/funcionarios", tok, nil), 403, "acesso_negado")
	wantErr(t, e.pub("PATCH", path("/funcionarios/%d", id), tok, map[string]any{"nome": "Eu Mesmo"}), 403, "acesso_negado")
	if n := e.count("funcionarios"); n != 1 {
		t.Fatalf("%d employees", n)
	}
}

func TestFuncionarioList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	dep := e.departamento(a, "Vendas")
	var all, inDep []int64
	for i := range 5 {
		o := map[string]any{}
		if i%2 == 0 {
			o["departamentoId"] = dep
		}
		id := e.funcionario(a, esc, o)
		all = append(all, id)
		if i%2 == 0 {
			inDep = append(inDep, id)
		}
	}
	e.funcionario(b, e.escala(b, "B"), nil)
	want(t, e.pub("PATCH", path("/funcionarios/%d", all[1]), a.token, map[string]any{"ativo": false}), 200)

	list := func(q string) ([]int64, int) {
		t.Helper()
		r := e.pub("GET", "/funcionarios"+q, a.token, nil)
		want(t, r, 200)
		var res struct {
			Itens []struct {
				ID        int64 `json:"id"`
				EmpresaID int64 `json:"empresaId"`
			} `json:"itens"`
			Total int `json:"total"`
		}
		r.into(t, &res)
		ids := []int64{}
		for _, it := range res.Itens {
			if it.EmpresaID != a.id {
				t.Fatalf("another company's employee listed: %s", r.body)
			}
			ids = append(ids, it.ID)
		}
		return ids, res.Total
	}
	check := func(q string, wantIDs []int64, wantTotal int) {
		t.Helper()
		ids, total := list(q)
		if !reflect.DeepEqual(ids, wantIDs) || total != wantTotal {
			t.Fatalf("%s: %v (total %d), want %v (total %d)", q, ids, total, wantIDs, wantTotal)
		}
	}
	check("", all, 5)
	check("?tamanho=2", all[:2], 5)
	check("?tamanho=2&pagina=3", all[4:], 5)
	check("?tamanho=2&pagina=4", []int64{}, 5)
	check(fmt.Sprintf("?departamentoId=%d", dep), inDep, 3)
	check("?ativo=false", all[1:2], 1)
	check(fmt.Sprintf("?ativo=true&departamentoId=%d", dep), inDep, 3)
	check("?departamentoId=999999", []int64{}, 0)
	for _, q := range []string{"?pagina=0", "?tamanho=101", "?pagina=abc", "?departamentoId=abc", "?departamentoId=0", "?ativo=sim"} {
		wantErr(t, e.pub("GET", "/funcionarios"+q, a.token, nil), 400, "validacao")
	}
}
