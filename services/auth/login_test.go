package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/auth/internal/keys"
)

func TestCompanyLogin(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)

	// company-billing was asked, with what the client sent.
	calls := h.billing.callsTo("POST /internal/empresas/login")
	if len(calls) != 1 || calls[0].Body["email"] != empresaEmail || calls[0].Body["password"] != empresaPassword {
		t.Fatalf("company-billing calls: %+v", calls)
	}

	user, _ := a.body["user"].(map[string]any)
	want := map[string]any{
		"id": float64(empresaID), "email": empresaEmail, "nome": "Padaria 10", "razaoSocial": "Padaria Pão Quente LTDA",
		"role": "empresa_plan_basic", "nomeDoPlano": "basic", "assinaturaStatus": "trialing",
	}
	if len(user) != len(want) {
		t.Fatalf("user %v, want exactly %v", user, want)
	}
	for k, v := range want {
		if user[k] != v {
			t.Errorf("user.%s = %v, want %v", k, user[k], v)
		}
	}
	if len(a.str("refreshToken")) < 43 {
		t.Errorf("refreshToken %q shorter than 256 bits in base64url", a.str("refreshToken"))
	}

	v := h.verifier()
	c := h.verify(v, a.str("token"))
	if c.Role != jwtauth.RoleEmpresa || c.EmpresaID != empresaID || c.FuncionarioID != 0 || c.Subject != "empresa:10" {
		t.Errorf("claims %+v", c)
	}
	if c.Issuer != "ponto-auth" || len(c.Audience) != 1 || c.Audience[0] != "ponto-api" {
		t.Errorf("iss %q aud %v", c.Issuer, c.Audience)
	}
	if got := c.ExpiresAt.Sub(c.IssuedAt.Time); got != 15*time.Minute {
		t.Errorf("exp - iat = %v, want 15m", got)
	}
	if d := time.Since(c.IssuedAt.Time); d < -time.Second || d > time.Minute {
		t.Errorf("iat %v is not now", c.IssuedAt)
	}
}

func TestAdminLogin(t *testing.T) {
	t.Parallel()
	h := start(t)
	// Case does not matter for admins' e-mails.
	a := h.loginEmpresa(strings.ToUpper(adminEmail), adminPassword).expect(t, http.StatusOK)
	user, _ := a.body["user"].(map[string]any)
	if user["id"] != adminEmail || user["email"] != adminEmail || user["role"] != "admin" || len(user) != 3 {
		t.Errorf("admin user %v", user)
	}
	if n := len(h.billing.callsTo("POST /internal/empresas/login")); n != 0 {
		t.Errorf("an admin login asked company-billing %d times", n)
	}
	c := h.verify(h.verifier(), a.str("token"))
	if c.Role != jwtauth.RoleAdmin || c.EmpresaID != 0 || c.FuncionarioID != 0 || c.Subject != "admin:"+adminEmail {
		t.Errorf("admin claims %+v", c)
	}
	// An admin's refresh token works while the admin is configured.
	r := h.refresh(a.str("refreshToken")).expect(t, http.StatusOK)
	if h.verify(h.verifier(), r.str("accessToken")).Role != jwtauth.RoleAdmin {
		t.Error("refreshed admin token lost its role")
	}
}

// Wrong e-mail and wrong password give byte-identical answers, for admins
// and companies alike, and an unknown e-mail still reaches company-billing
// (which equalises the time on its side).
func TestBadCredentialsAreIndistinguishable(t *testing.T) {
	t.Parallel()
	h := start(t)
	answers := map[string]answer{
		"unknown e-mail":        h.loginEmpresa("ninguem@padaria.com.br", empresaPassword),
		"wrong company pw":      h.loginEmpresa(empresaEmail, "senha-errada-1"),
		"wrong admin pw":        h.loginEmpresa(adminEmail, "senha-errada-1"),
		"company pw for admin":  h.loginEmpresa(adminEmail, empresaPassword),
		"admin pw for company":  h.loginEmpresa(empresaEmail, adminPassword),
		"unknown, admin domain": h.loginEmpresa("root@ponto.dev", adminPassword),
	}
	first := answers["unknown e-mail"].expectError(t, http.StatusUnauthorized, "credenciais_invalidas")
	for name, a := range answers {
		if a.status != first.status || string(a.raw) != string(first.raw) {
			t.Errorf("%s: %d %s, want the same as an unknown e-mail: %d %s", name, a.status, a.raw, first.status, first.raw)
		}
		if a.body["token"] != nil || a.body["refreshToken"] != nil {
			t.Errorf("%s: tokens in a refusal", name)
		}
	}
	if calls := h.billing.callsTo("POST /internal/empresas/login"); len(calls) != 4 {
		t.Errorf("company-billing got %d login calls, want 4 (every non-admin e-mail)", len(calls))
	}
	if n := h.keysMatching("rt:"); n != 0 {
		t.Errorf("failed logins left %d refresh-token keys", n)
	}
}

func TestBlockedCompany(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.billing.block(empresaEmail, true)
	a := h.loginEmpresa(empresaEmail, empresaPassword).expectError(t, http.StatusForbidden, "empresa_bloqueada")
	if a.body["token"] != nil {
		t.Error("token handed to a blocked company")
	}
	// The wrong password of a blocked company is still just a 401.
	h.loginEmpresa(empresaEmail, "senha-errada-1").expectError(t, http.StatusUnauthorized, "credenciais_invalidas")
}

func TestCompanyBillingDown(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.billing.setDown(true)
	h.loginEmpresa(empresaEmail, empresaPassword).expectError(t, http.StatusServiceUnavailable, "dependencia_indisponivel")
	// Admins do not depend on company-billing.
	h.loginEmpresa(adminEmail, adminPassword).expect(t, http.StatusOK)
}

func TestLoginInputValidation(t *testing.T) {
	t.Parallel()
	h := start(t)
	cases := []struct {
		name, body string
		status     int
		field      string
	}{
		{"missing email", `{"password":"x"}`, 400, "email"},
		{"bad email", `{"email":"nao-e-email","password":"x"}`, 400, "email"},
		{"missing password", `{"email":"a@b.com"}`, 400, "password"},
		{"password too long", `{"email":"a@b.com","password":"` + strings.Repeat("a", 73) + `"}`, 400, "password"},
		{"unknown field", `{"email":"a@b.com","password":"x","role":"admin"}`, 400, "role"},
		{"password not a string", `{"email":"a@b.com","password":123}`, 400, "password"},
		{"malformed", `{"email":`, 400, ""},
		{"huge body", `{"email":"a@b.com","password":"` + strings.Repeat("a", 5000) + `"}`, 413, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := h.post("/auth/login", tc.body).expect(t, tc.status)
			if tc.field != "" {
				fields, _ := a.body["fields"].(map[string]any)
				if fields[tc.field] == nil {
					t.Errorf("answer %s does not name %q", a.raw, tc.field)
				}
			}
			if a.str("message") == "" || a.str("code") == "" {
				t.Errorf("answer %s lacks message/code", a.raw)
			}
		})
	}
	if n := len(h.billing.Calls()); n != 0 {
		t.Errorf("invalid input reached company-billing %d times", n)
	}
}

// The JWKS route publishes the key in the shape verifiers expect, with a
// short cache lifetime.
func TestJWKS(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := h.do(http.MethodGet, h.public+keys.JWKSPath, nil).expect(t, http.StatusOK)
	if cc := a.header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("Cache-Control %q", cc)
	}
	ks, _ := a.body["keys"].([]any)
	if len(ks) != 1 {
		t.Fatalf("keys %v", a.body)
	}
	k := ks[0].(map[string]any)
	signing := h.deps.keyring.Signing()
	for field, want := range map[string]string{"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig", "kid": signing.ID} {
		if k[field] != want {
			t.Errorf("jwk.%s = %v, want %s", field, k[field], want)
		}
	}
	if _, ok := k["d"]; ok {
		t.Fatal("the JWKS leaks the private key")
	}
}
