package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/jwtauth"
)

// A service trades its secret for a 10-minute service token; a wrong
// secret or an unknown service gets nothing.
func TestServiceTokens(t *testing.T) {
	t.Parallel()
	h := start(t)
	route := "/internal/servicos/token"
	for _, tc := range []struct {
		name string
		body any
	}{
		{"wrong secret", map[string]string{"servico": "employee", "segredo": serviceSecret("company-billing")}},
		{"unknown service", map[string]string{"servico": "media", "segredo": serviceSecret("media")}},
		{"secret of another service", map[string]string{"servico": "employee", "segredo": serviceSecret("employee") + "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.postInternalAs("", route, tc.body).expectError(t, http.StatusUnauthorized, "servico_nao_autenticado")
		})
	}
	h.postInternalAs("", route, map[string]string{"servico": "employee"}).expectError(t, http.StatusBadRequest, "validacao")
	// Internal only.
	h.post(route, map[string]string{"servico": "employee", "segredo": serviceSecret("employee")}).expect(t, http.StatusNotFound)

	a := h.postInternalAs("", route, map[string]string{"servico": "employee", "segredo": serviceSecret("employee")}).expect(t, http.StatusOK)
	claims, err := h.verifier().VerifyService(context.Background(), a.str("token"))
	if err != nil {
		t.Fatalf("service token does not verify: %v", err)
	}
	got := struct{ Subject, Role string }{claims.Subject, claims.Role}
	if diff := cmp.Diff(struct{ Subject, Role string }{"employee", jwtauth.RoleServico}, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if life := claims.ExpiresAt.Sub(claims.IssuedAt.Time); life != 10*time.Minute {
		t.Errorf("service token lives %s, want 10m", life)
	}
	exp, err := time.Parse(time.RFC3339, a.str("expiraEm"))
	if err != nil || !exp.Equal(claims.ExpiresAt.Time) {
		t.Errorf("expiraEm %q, want the token's exp %s", a.str("expiraEm"), claims.ExpiresAt.Time)
	}
	// A service token opens no public route of the API.
	if _, err := h.verifier().Verify(context.Background(), a.str("token")); err == nil {
		t.Error("a service token verified as a user's access token")
	}
}

// POST /internal/tokens/revogar lets in employee and company-billing only,
// by their service tokens.
func TestRevokeNeedsACallerService(t *testing.T) {
	t.Parallel()
	h := start(t)
	rt := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)
	body := map[string]int{"empresaId": empresaID}
	good := h.serviceToken("company-billing")
	// A character inside the signature, not one of the last two (whose
	// low bits base64url may not carry).
	sig := strings.LastIndexByte(good, '.') + 10
	flip := map[byte]byte{'A': 'B'}[good[sig]]
	if flip == 0 {
		flip = 'A'
	}
	tampered := good[:sig] + string(flip) + good[sig+1:]
	for _, tc := range []struct {
		name, token string
		status      int
		code        string
	}{
		{"no token", "", http.StatusUnauthorized, "nao_autenticado"},
		{"a user's access token", rt.str("token"), http.StatusUnauthorized, "nao_autenticado"},
		{"a tampered service token", tampered, http.StatusUnauthorized, "nao_autenticado"},
		{"a service not allowed", h.serviceToken("timekeeping"), http.StatusForbidden, "acesso_negado"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.postInternalAs(tc.token, "/internal/tokens/revogar", body).expectError(t, tc.status, tc.code)
		})
	}
	// Nothing was revoked: the session still refreshes.
	h.refresh(rt.str("refreshToken")).expect(t, http.StatusOK)
	h.postInternalAs(good, "/internal/tokens/revogar", body).expect(t, http.StatusNoContent)
}

// auth's own calls to its peers carry auth's service token.
func TestPeerCallsCarryAuthsServiceToken(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)
	calls := h.billing.Calls()
	if len(calls) == 0 {
		t.Fatal("no call reached company-billing")
	}
	v := h.verifier()
	for _, c := range calls {
		claims, err := v.VerifyService(context.Background(), strings.TrimPrefix(c.Authorization, "Bearer "))
		if err != nil || claims.Subject != "auth" {
			t.Errorf("%s %s: service token %v (%v), want auth's", c.Method, c.Path, claims, err)
		}
	}
}

// The chart mounts the services' secrets as files: auth reads them beside
// AUTH_SERVICE_SECRETS, skipping the mount's hidden entries.
func TestServiceSecretsFromADirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, content := range map[string]string{"media": serviceSecret("media") + "\n", "..data": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h := start(t, func(c *Config) { c.Auth.ServiceSecretsDir = dir })
	for _, service := range []string{"media", "employee"} {
		if h.serviceToken(service) == "" {
			t.Errorf("%s got no token", service)
		}
	}
}
