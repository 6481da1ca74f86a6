package httpserver_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
)

func serveClientIP(s *httpserver.Server) {
	s.Public.Get("/ip", func(c *fiber.Ctx) error {
		return c.SendString(httpserver.ClientIP(c))
	})
}

// The test's requests come from 127.0.0.1; trusting it makes the server
// read X-Forwarded-For from the right, in the handler and the access log.
func TestClientIPBehindTrustedProxy(t *testing.T) {
	cfg := testConfig()
	cfg.TrustedProxies = "127.0.0.1/32, ::1"
	r := start(t, cfg, serveClientIP)
	a := call(t, "GET", r.public+"/ip", nil, map[string]string{
		"X-Forwarded-For": "6.6.6.6, 2001:db8::7",
	})
	if a.raw != "2001:db8::7" {
		t.Errorf("ClientIP = %q; want the rightmost untrusted entry 2001:db8::7", a.raw)
	}
	if !strings.Contains(r.logs.String(), `"ip":"2001:db8::7"`) {
		t.Errorf("access log does not carry the client address:\n%s", r.logs.String())
	}
}

func TestClientIPIgnoresHeaderOfUntrustedPeer(t *testing.T) {
	for _, proxies := range []string{"", "10.0.0.0/8"} {
		cfg := testConfig()
		cfg.TrustedProxies = proxies
		r := start(t, cfg, serveClientIP)
		a := call(t, "GET", r.public+"/ip", nil, map[string]string{"X-Forwarded-For": "1.2.3.4"})
		if a.raw != "127.0.0.1" {
			t.Errorf("trusting %q: ClientIP = %q; want the peer 127.0.0.1", proxies, a.raw)
		}
	}
}

// Handler tests build bare Fiber apps; there ClientIP is the peer.
func TestClientIPOutsideServer(t *testing.T) {
	app := fiber.New()
	app.Get("/ip", func(c *fiber.Ctx) error { return c.SendString(httpserver.ClientIP(c)) })
	req := httptest.NewRequest("GET", "/ip", nil)
	req.Header.Set("X-Forwarded-For", "1.2.3.4")
	res, err := app.Test(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if string(got) == "1.2.3.4" || len(got) == 0 {
		t.Errorf("ClientIP = %q; want the peer, not the header", got)
	}
}

func TestConfigValidateTrustedProxies(t *testing.T) {
	cfg := testConfig()
	cfg.InternalAddr = "127.0.0.1:9090"
	cfg.TrustedProxies = "10.0.0.0/8 ingress.local"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "ingress.local") {
		t.Errorf("want the bad entry refused, got %v", err)
	}
}
