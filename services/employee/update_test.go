package main

import (
	"context"
	"net/http"
	"reflect"
	"testing"
)

func TestFuncionarioUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	r := e.pub("POST", "/escalatrabalhos", a.token, map[string]any{"empresaId": a.id, "nome": "Meio período",
		"horarios": []map[string]any{{"entrada": "08:00", "saidaAlmoco": 120, "retornoAlmoco": 135, "saida": 255}}})
	want(t, r, 200)
	meio := int64(r.obj(t)["id"].(float64))
	dep := e.departamento(a, "Vendas", "A", "B")
	rh := e.departamento(a, "RH")
	escB, depB := e.escala(b, "B"), e.departamento(b, "B", "B1")
	id := e.funcionario(a, esc, map[string]any{"departamentoId": dep, "segmento": 2, "pj": true})

	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{
		"nome": "Novo Nome", "cargo": "Gerente", "telefone": "1133334444", "escalaTrabalhoId": meio,
		"sobreaviso": true, "uf": "RJ", "valorHora": 40, "cidade": nil,
	})
	want(t, r, 200)
	rec := r.obj(t)
	for k, v := range map[string]any{"nome": "Novo Nome", "cargo": "Gerente", "telefone": "1133334444",
		"escalaTrabalhoId": float64(meio), "horarioTrabalho": float64(240), "sobreaviso": true, "uf": "RJ",
		"valorHora": float64(40), "cidade": nil, "segmento": float64(2), "departamentoId": float64(dep)} {
		if rec[k] != v {
			t.Errorf("%s = %#v, want %#v", k, rec[k], v)
		}
	}
	before := e.pub("GET", path("/funcionarios/%d", id), a.token, nil).obj(t)

	// Refused changes leave the record as it was.
	for name, tc := range map[string]struct {
		body   any
		status int
		field  string
	}{
		"empty":                 {map[string]any{}, 400, "corpo"},
		"null nome":             {map[string]any{"nome": nil}, 400, "nome"},
		"short nome":            {map[string]any{"nome": "X", "cargo": "Diretor"}, 400, "nome"},
		"telefone":              {map[string]any{"telefone": "11-3333"}, 400, "telefone"},
		"null ativo":            {map[string]any{"ativo": nil}, 400, "ativo"},
		"ativo string":          {map[string]any{"ativo": "false"}, 400, "ativo"},
		"escala zero":           {map[string]any{"escalaTrabalhoId": 0}, 400, "escalaTrabalhoId"},
		"segmento zero":         {map[string]any{"segmento": 0}, 400, "segmento"},
		"segmento without dept": {map[string]any{"departamentoId": nil, "segmento": 1}, 400, "segmento"},
		"clt while pj":          {map[string]any{"clt": true}, 400, "pj"},
		"email is fixed":        {map[string]any{"email": "outro@x.com"}, 400, "email"},
		"B's schedule":          {map[string]any{"escalaTrabalhoId": escB, "nome": "Outro Nome"}, 404, "escalaTrabalhoId"},
		"B's department":        {map[string]any{"departamentoId": depB}, 404, "departamentoId"},
		"unknown segment":       {map[string]any{"segmento": 3}, 404, "segmento"},
		"segment of other dept": {map[string]any{"departamentoId": rh, "segmento": 1}, 404, "segmento"},
	} {
		t.Run(name, func(t *testing.T) {
			r := e.pub("PATCH", path("/funcionarios/%d", id), a.token, tc.body)
			want(t, r, tc.status)
			if _, ok := r.fields(t)[tc.field]; !ok {
				t.Fatalf("fields %v do not name %s", r.fields(t), tc.field)
			}
			after := e.pub("GET", path("/funcionarios/%d", id), a.token, nil).obj(t)
			if !reflect.DeepEqual(after, before) {
				t.Fatalf("record changed by a refused update:\n%v\n%v", before, after)
			}
		})
	}

	// Moving to another department without a segment leaves none.
	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"departamentoId": rh})
	want(t, r, 200)
	if rec := r.obj(t); rec["departamentoId"] != float64(rh) || rec["segmento"] != nil {
		t.Fatalf("after move: %s", r.body)
	}
	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"departamentoId": dep, "segmento": 1, "pj": false, "clt": true})
	want(t, r, 200)
	if rec := r.obj(t); rec["segmento"] != float64(1) || rec["clt"] != true || rec["pj"] != false {
		t.Fatalf("after move back: %s", r.body)
	}
	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"departamentoId": nil})
	want(t, r, 200)
	if rec := r.obj(t); rec["departamentoId"] != nil || rec["segmento"] != nil {
		t.Fatalf("after leaving: %s", r.body)
	}

	// Another company's employee: 404, unchanged.
	wantErr(t, e.pub("PATCH", path("/funcionarios/%d", id), b.token, map[string]any{"nome": "Invasor"}), 404, "nao_encontrado")
	wantErr(t, e.pub("PATCH", "/funcionarios/999999", a.token, map[string]any{"nome": "Ninguém"}), 404, "nao_encontrado")
	if got := e.pub("GET", path("/funcionarios/%d", id), a.token, nil).obj(t)["nome"]; got != "Novo Nome" {
		t.Fatalf("nome = %v", got)
	}
}

func TestFuncionarioDeactivationRevokesSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "A")
	id := e.funcionario(a, esc, nil)

	r := e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"ativo": false})
	want(t, r, 200)
	if r.obj(t)["ativo"] != false {
		t.Fatalf("after deactivation: %s", r.body)
	}
	calls := e.auth.Calls()
	if len(calls) != 1 || !reflect.DeepEqual(calls[0], map[string]any{"funcionarioId": float64(id)}) {
		t.Fatalf("revocation calls = %v", calls)
	}
	// Already inactive: nothing more to revoke. Reactivating revokes nothing.
	want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"ativo": false, "cargo": "Ex-analista"}), 200)
	want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"ativo": true}), 200)
	if n := len(e.auth.Calls()); n != 1 {
		t.Fatalf("%d revocation calls, want 1", n)
	}
	// Another change alone never calls auth.
	want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"nome": "Reativado Silva"}), 200)
	if n := len(e.auth.Calls()); n != 1 {
		t.Fatalf("%d revocation calls, want 1", n)
	}
}

func TestFuncionarioDeactivationAuthDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "A")
	id := e.funcionario(a, esc, map[string]any{"nome": "Nome Original"})

	stillActive := func() {
		t.Helper()
		var ativo bool
		var nome string
		if err := e.db.QueryRow(context.Background(), "SELECT ativo, nome FROM funcionarios WHERE id = $1", id).Scan(&ativo, &nome); err != nil {
			t.Fatal(err)
		}
		if !ativo || nome != "Nome Original" {
			t.Fatalf("ativo=%v nome=%q: a failed deactivation left changes behind", ativo, nome)
		}
	}

	// auth answers 500: 503, nothing changed (the rest of the body too).
	e.auth.setStatus(http.StatusInternalServerError)
	r := e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"ativo": false, "nome": "Nome Novo"})
	wantErr(t, r, 503, "dependencia_indisponivel")
	stillActive()
	if n := len(e.auth.Calls()); n != 1 {
		t.Fatalf("%d revocation attempts, want 1 (writes are not retried)", n)
	}

	// auth refuses (4xx): a broken deployment, 502, nothing changed.
	e.auth.setStatus(http.StatusBadRequest)
	wantErr(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"ativo": false}), 502, "falha_dependencia")
	stillActive()

	// auth unreachable: 503, nothing changed.
	e.auth.srv.Close()
	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"ativo": false, "nome": "Nome Novo"})
	wantErr(t, r, 503, "dependencia_indisponivel")
	stillActive()
}
