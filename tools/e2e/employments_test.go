package e2e

import (
	"net/http"
	"testing"
)

// TestOnePersonTwoEmployers: the same CPF and e-mail registered by two
// companies (a duplicate within one company is still 409), then a login
// with the e-mailed code that asks which employer, by name, and logs into
// the one named by empresaId.
func TestOnePersonTwoEmployers(t *testing.T) {
	e := sharedEnv(t)
	a, b := e.registerCompany(t, "Padaria Vínculo"), e.registerCompany(t, "Mercado Vínculo")
	e.setUp(t, a)
	e.setUp(t, b)
	email, cpf := uniqueEmail("duplo"), newCPF(t)
	bodyA := employeeBody(t, a, "Rita Duas", email)
	bodyA["cpf"] = cpf
	e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: a.Token, Body: bodyA, CheckRequest: true}).expect(t, http.StatusOK)
	bodyB := employeeBody(t, b, "Rita Duas", email)
	bodyB["cpf"] = cpf
	idB := e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: b.Token, Body: bodyB, CheckRequest: true}).
		expect(t, http.StatusOK).object(t).int("id")
	again := employeeBody(t, a, "Outra Pessoa", uniqueEmail("outra"))
	again["cpf"] = cpf
	e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: a.Token, Body: again}).
		expectError(t, http.StatusConflict, "cpf_duplicado")

	e.api.do(t, request{Method: http.MethodPost, Path: "/auth/login/funcionario/codigo", CheckRequest: true,
		Body: map[string]string{"email": email}}).expect(t, http.StatusAccepted)
	code := e.mail.code(t, email)
	ans := e.api.do(t, request{Method: http.MethodPost, Path: "/auth/login/funcionario", CheckRequest: true,
		Body: map[string]string{"email": email, "codeVerify": code}}).expectError(t, http.StatusConflict, "empresa_ambigua")
	empresas, _ := ans.object(t)["empresas"].([]any)
	names := map[string]bool{}
	for _, x := range empresas {
		names[obj(x.(map[string]any)).str("nome")] = true
	}
	if len(empresas) != 2 || !names["Padaria Vínculo"] || !names["Mercado Vínculo"] {
		t.Fatalf("employers: %s", ans)
	}
	o := e.api.do(t, request{Method: http.MethodPost, Path: "/auth/login/funcionario", CheckRequest: true,
		Body: map[string]any{"email": email, "codeVerify": code, "empresaId": b.ID}}).expect(t, http.StatusOK).object(t)
	if u := o.obj("user"); u.int("id") != idB || u.int("empresaId") != b.ID {
		t.Fatalf("logged in as %v", u)
	}
}
