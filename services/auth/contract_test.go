package main

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/ponto/ponto/pkg/svcclient"
	authapi "github.com/ponto/ponto/services/auth/internalapi"
)

// TestInternalAPIContract calls auth's internal route through
// services/auth/internalapi's client, as company-billing and employee do:
// the handler takes the client's bodies (it decodes them strictly, into
// the same type) and does what each asks, and each body holds only its
// one member.
func TestInternalAPIContract(t *testing.T) {
	t.Parallel()
	h := start(t)
	company := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	code, _ := h.codeByMail(funcEmail)
	employee := h.loginCode(funcEmail, code).expect(t, http.StatusOK).str("refreshToken")
	code, _ = h.codeByMail(outraFunc)
	other := h.loginCode(outraFunc, code).expect(t, http.StatusOK).str("refreshToken")
	// The employee service's token source, trading its secret with auth.
	ts, err := svcclient.NewTokenSource("employee", svcclient.Identity{Secret: serviceSecret("employee")}, svcclient.URL(h.internal))
	if err != nil {
		t.Fatal(err)
	}
	api := authapi.New(h.internal, svcclient.WithTokens(ts))

	if err := api.RevokeFuncionario(t.Context(), funcID); err != nil {
		t.Fatal(err)
	}
	h.refresh(employee).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	company = h.refresh(company).expect(t, http.StatusOK).str("refreshToken")

	if err := api.RevokeEmpresa(t.Context(), empresaID); err != nil {
		t.Fatal(err)
	}
	h.refresh(company).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(other).expect(t, http.StatusOK)

	id := int64(7)
	for _, c := range []struct {
		body authapi.Revogar
		want string
	}{
		{authapi.Revogar{EmpresaID: &id}, `{"empresaId":7}`},
		{authapi.Revogar{FuncionarioID: &id}, `{"funcionarioId":7}`},
	} {
		if b, err := json.Marshal(c.body); err != nil || string(b) != c.want {
			t.Errorf("body %s (%v), want %s", b, err, c.want)
		}
	}
}
