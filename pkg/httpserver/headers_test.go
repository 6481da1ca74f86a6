package httpserver_test

import (
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
)

func TestSecurityHeaders(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/json", func(c *fiber.Ctx) error { return c.JSON(map[string]string{"cpf": "123"}) })
		s.Public.Get("/csv", func(c *fiber.Ctx) error { c.Type("csv"); return c.SendString("a;b\n") })
		s.Public.Get("/cached", func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderCacheControl, "private, max-age=60")
			return c.SendString("x")
		})
	})
	auth := map[string]string{"Authorization": "Bearer x"}
	a := call(t, "GET", r.public+"/json", nil, auth)
	if a.header.Get("X-Content-Type-Options") != "nosniff" || a.header.Get("Referrer-Policy") != "no-referrer" ||
		a.header.Get("Cache-Control") != "no-store" {
		t.Errorf("authenticated JSON: headers %v", a.header)
	}
	if a.header.Get("Content-Security-Policy") != "" {
		t.Errorf("JSON carries a CSP: %v", a.header)
	}
	if a := call(t, "GET", r.public+"/json", nil, nil); a.header.Get("Cache-Control") != "" || a.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("anonymous JSON: headers %v", a.header)
	}
	a = call(t, "GET", r.public+"/csv", nil, auth)
	if !strings.Contains(a.header.Get("Content-Security-Policy"), "default-src 'none'") ||
		!strings.Contains(a.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || a.header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("CSV: headers %v", a.header)
	}
	if a := call(t, "GET", r.public+"/cached", nil, auth); a.header.Get("Cache-Control") != "private, max-age=60" {
		t.Errorf("the handler's own caching was overridden: %v", a.header)
	}
	// Errors, the router's and the server's own, carry them too.
	a = call(t, "GET", r.public+"/nowhere", nil, auth)
	if a.status != 404 || a.header.Get("X-Content-Type-Options") != "nosniff" || a.header.Get("Cache-Control") != "no-store" {
		t.Errorf("404: %d %v", a.status, a.header)
	}
	big := strings.NewReader(`{"x":"` + strings.Repeat("a", 4096) + `"}`)
	a = call(t, "POST", r.public+"/json", big, map[string]string{"Content-Type": "application/json"})
	if a.status != 413 || a.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("413: %d %v", a.status, a.header)
	}
}

func TestUnknownMethodIsJSON405(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/things", func(c *fiber.Ctx) error { return c.JSON(map[string]string{}) })
	})
	for _, m := range []string{"PROPFIND", "BREW", "MKCOL"} {
		a := call(t, m, r.public+"/things", nil, nil)
		wantError(t, a, 405, "metodo_nao_permitido")
		if !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") || a.header.Get("Allow") == "" ||
			a.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", m, a.header)
		}
	}
	wantError(t, call(t, "DELETE", r.public+"/things", nil, nil), 405, "metodo_nao_permitido")
}

func TestCORS(t *testing.T) {
	handler := func(s *httpserver.Server) {
		s.Public.Get("/things", func(c *fiber.Ctx) error { return c.JSON(map[string]string{}) })
	}
	origin := map[string]string{"Origin": "https://app.example.com"}
	preflight := map[string]string{"Origin": "https://app.example.com", "Access-Control-Request-Method": "GET",
		"Access-Control-Request-Headers": "authorization"}

	none := start(t, testConfig(), handler)
	if a := call(t, "GET", none.public+"/things", nil, origin); a.status != 200 || a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no origins configured, yet: %d %v", a.status, a.header)
	}
	if a := call(t, "OPTIONS", none.public+"/things", nil, preflight); a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no origins configured, yet the preflight allowed: %v", a.header)
	}

	cfg := testConfig()
	cfg.CORSOrigins = "https://app.example.com, http://localhost:5173"
	r := start(t, cfg, handler)
	if a := call(t, "GET", r.public+"/things", nil, origin); a.header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
		t.Errorf("allowed origin: %v", a.header)
	}
	a := call(t, "OPTIONS", r.public+"/things", nil, preflight)
	if a.status != 204 || a.header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(a.header.Get("Access-Control-Allow-Methods"), "GET") ||
		!strings.Contains(strings.ToLower(a.header.Get("Access-Control-Allow-Headers")), "authorization") {
		t.Errorf("preflight: %d %v", a.status, a.header)
	}
	evil := map[string]string{"Origin": "https://evil.example.com", "Access-Control-Request-Method": "GET"}
	if a := call(t, "OPTIONS", r.public+"/things", nil, evil); a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another origin allowed: %v", a.header)
	}

	for _, bad := range []string{"*", "app.example.com", "https://app.example.com/path", "ftp://x.com"} {
		cfg := testConfig()
		cfg.CORSOrigins = bad
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "CORSOrigins") {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}
