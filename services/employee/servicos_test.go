package main

import (
	"testing"
)

// Every internal route refuses a call without a service token (401), with
// a user's token (401) and from a service it does not name (403): the
// employee's CPF, e-mail and code hash are for auth, timekeeping and
// media only.
func TestInternalRoutesNeedTheirCallers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	id := e.funcionario(a, e.escala(a, "A"), nil)
	routes := []struct {
		method, path string
		body         any
		others       string // a service the route does not let in
	}{
		{"GET", path("/internal/funcionarios/%d", id), nil, "company-billing"},
		{"GET", path("/internal/funcionarios?ids=%d", id), nil, "media"},
		{"GET", "/internal/funcionarios/vinculos?email=x%40y.com", nil, "timekeeping"},
		{"GET", "/internal/funcionarios/por-email?email=x%40y.com", nil, "media"},
		{"GET", path("/internal/funcionarios/%d/escala", id), nil, "auth"},
		{"GET", path("/internal/empresas/%d/departamentos/por-nome/VENDAS/quadro", a.id), nil, "auth"},
		{"PUT", path("/internal/funcionarios/%d/foto", id), map[string]any{"fotoProfile": nil}, "timekeeping"},
		{"PUT", path("/internal/funcionarios/%d/code-verify", id), map[string]any{"codeVerify": "x"}, "media"},
	}
	for _, r := range routes {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			wantErr(t, e.call(e.internal, r.method, r.path, "", r.body), 401, "nao_autenticado")
			wantErr(t, e.call(e.internal, r.method, r.path, a.token, r.body), 401, "nao_autenticado")
			wantErr(t, e.call(e.internal, r.method, r.path, e.iss.Service(t, r.others), r.body), 403, "acesso_negado")
			if got := e.in(r.method, r.path, r.body); got.status == 401 || got.status == 403 {
				t.Errorf("its caller %s refused: %d %s", callerOf(r.method, r.path), got.status, got.body)
			}
		})
	}
}
