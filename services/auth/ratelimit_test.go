package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// expectLimited checks a 429 with a sane Retry-After.
func expectLimited(t *testing.T, a answer, maxWait int) {
	t.Helper()
	a.expectError(t, http.StatusTooManyRequests, "limite_excedido")
	s, err := strconv.Atoi(a.header.Get("Retry-After"))
	if err != nil || s < 1 || s > maxWait {
		t.Errorf("Retry-After %q, want 1..%d seconds", a.header.Get("Retry-After"), maxWait)
	}
}

func TestRateLimitPerIP(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) { c.Auth.RatePerIP = 3 })
	// Different e-mails, one client: the IP budget runs out.
	for i := range 3 {
		h.loginEmpresa("x"+strconv.Itoa(i)+"@padaria.com.br", "senha-errada-1").expect(t, http.StatusUnauthorized)
	}
	expectLimited(t, h.loginEmpresa("x9@padaria.com.br", "senha-errada-1"), 60)
	// Right credentials do not get around it, and nothing is asked of
	// company-billing once limited.
	before := len(h.billing.Calls())
	expectLimited(t, h.loginEmpresa(empresaEmail, empresaPassword), 60)
	if len(h.billing.Calls()) != before {
		t.Error("a limited request reached company-billing")
	}
	// Each route has its own budget.
	for range 3 {
		h.requestCode("y@padaria.com.br").expect(t, http.StatusAccepted)
	}
	expectLimited(t, h.requestCode("z@padaria.com.br"), 60)
	for range 3 {
		h.loginCode("y@padaria.com.br", "000000").expect(t, http.StatusUnauthorized)
	}
	expectLimited(t, h.loginCode("z@padaria.com.br", "000000"), 60)
}

func TestRateLimitPerEmail(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) { c.Auth.RatePerEmail = 2 })
	for range 2 {
		h.loginEmpresa(empresaEmail, "senha-errada-1").expect(t, http.StatusUnauthorized)
	}
	// The e-mail is limited whatever its case...
	expectLimited(t, h.loginEmpresa("RH@padaria.com.br", empresaPassword), 60)
	// ...while other e-mails from the same client are not.
	h.loginEmpresa(outraEmpresaEmail, "outra-senha-123").expect(t, http.StatusOK)

	for range 2 {
		h.loginCode(funcEmail, "000000").expect(t, http.StatusUnauthorized)
	}
	expectLimited(t, h.loginCode(funcEmail, "000001"), 60)
	h.loginCode(func2, "000000").expect(t, http.StatusUnauthorized)
}

// Code e-mails per address and hour bound the guesses at a code.
func TestRateLimitCodesPerHour(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) { c.Auth.RateCodesPerHour = 2 })
	h.codeByMail(funcEmail)
	h.codeByMail(funcEmail)
	expectLimited(t, h.requestCode(funcEmail), 3600)
	h.deps.login.Drain(5e9)
	h.smtp.None(t)
	h.codeByMail(func2)
}

// Behind a trusted proxy (the test's loopback plays it) each client has its
// own budget, found by reading X-Forwarded-For from the right: a client
// cannot get a fresh one by prepending addresses of its own.
func TestRateLimitPerClientBehindProxy(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) {
		c.Auth.RatePerIP = 2
		c.HTTP.TrustedProxies = "127.0.0.1/32"
	})
	login := func(xff, email string) answer {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.public+"/auth/login",
			strings.NewReader(`{"email":"`+email+`","password":"senha-errada-1"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", xff)
		return h.send(req)
	}
	for i := range 2 {
		login("203.0.113.1", "a"+strconv.Itoa(i)+"@padaria.com.br").expect(t, http.StatusUnauthorized)
	}
	expectLimited(t, login("203.0.113.1", "a9@padaria.com.br"), 60)
	expectLimited(t, login("198.51.100.7, 203.0.113.1", "a9@padaria.com.br"), 60)
	// Another client behind the same proxy is not held back.
	login("203.0.113.2", "b@padaria.com.br").expect(t, http.StatusUnauthorized)
}
