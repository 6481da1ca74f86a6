package pages

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/assets"
	"github.com/ponto/ponto/services/web/internal/session"
)

// newApp serves the pages with an API address nothing listens on: these
// tests cover what the web service answers by itself (headers, session,
// CSRF, logins' forms, assets); tools/e2e TestWebWorkday covers the pages
// with the real API in a real browser.
func newApp(t *testing.T, secure bool) (*fiber.App, *Pages) {
	t.Helper()
	return newAppLimited(t, secure, nil)
}

func newAppLimited(t *testing.T, secure bool, limit fiber.Handler) (*fiber.App, *Pages) {
	t.Helper()
	return newAppLimits(t, secure, Config{LimitPosts: limit})
}

func newAppLimits(t *testing.T, secure bool, limits Config) (*fiber.App, *Pages) {
	t.Helper()
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.New(time.Now)
	codec, err := session.NewCodec(bytes.Repeat([]byte{7}, 32), "x", time.Hour, clk)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{SecureCookies: secure, DefaultTZ: "America/Sao_Paulo", Plans: []string{"basic"},
		LimitPosts: limits.LimitPosts, LimitLogins: limits.LimitLogins},
		api.New("http://127.0.0.1:1", time.Second), codec, clk, a, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	app := fiber.New()
	p.Routes(app)
	return app, p
}

func do(t *testing.T, app *fiber.App, req *http.Request) *http.Response {
	t.Helper()
	resp, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestPublicPagesRenderWithSecurityHeaders(t *testing.T) {
	app, _ := newApp(t, false)
	for _, path := range []string{"/entrar", "/funcionario/entrar", "/empresa/entrar", "/empresa/cadastro"} {
		resp := do(t, app, httptest.NewRequest(http.MethodGet, path, nil))
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `<html lang="pt-BR">`) {
			t.Errorf("GET %s = %d", path, resp.StatusCode)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
		for h, want := range map[string]string{"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
			if got := resp.Header.Get(h); got != want {
				t.Errorf("GET %s: %s = %q; want %q", path, h, got, want)
			}
		}
		if strings.Contains(string(body), "<script>") || strings.Contains(string(body), " style=") {
			t.Errorf("GET %s: inline script or style in the page", path)
		}
	}
}

func TestSessionCookieFlags(t *testing.T) {
	for _, secure := range []bool{false, true} {
		app, p := newApp(t, secure)
		resp := do(t, app, httptest.NewRequest(http.MethodGet, "/entrar", nil))
		c := resp.Header.Get("Set-Cookie")
		if !strings.HasPrefix(c, p.CookieName()+"=") || !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Strict") ||
			!strings.Contains(strings.ToLower(c), "path=/") || strings.Contains(c, "secure") != secure {
			t.Errorf("secure=%v: Set-Cookie %q", secure, c)
		}
		if secure && (p.CookieName() != "__Host-ponto" || resp.Header.Get("Strict-Transport-Security") == "") {
			t.Errorf("secure: cookie %q, HSTS %q", p.CookieName(), resp.Header.Get("Strict-Transport-Security"))
		}
	}
}

func TestUnsafeRequestsNeedTheSessionsCSRFToken(t *testing.T) {
	app, _ := newApp(t, false)
	resp := do(t, app, httptest.NewRequest(http.MethodGet, "/entrar", nil))
	cookie := strings.Split(resp.Header.Get("Set-Cookie"), ";")[0]
	body, _ := io.ReadAll(resp.Body)
	token := between(string(body), `<meta name="csrf-token" content="`, `"`)
	if token == "" {
		t.Fatal("no CSRF token in the page")
	}
	post := func(form url.Values, site string) int {
		req := httptest.NewRequest(http.MethodPost, "/funcionario/codigo", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Cookie", cookie)
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		return do(t, app, req).StatusCode
	}
	if got := post(url.Values{"email": {"a@b.c"}}, ""); got != http.StatusForbidden {
		t.Errorf("no token: %d; want 403", got)
	}
	if got := post(url.Values{"email": {"a@b.c"}, "_csrf": {token + "x"}}, ""); got != http.StatusForbidden {
		t.Errorf("wrong token: %d; want 403", got)
	}
	if got := post(url.Values{"email": {"a@b.c"}, "_csrf": {token}}, "cross-site"); got != http.StatusForbidden {
		t.Errorf("cross-site: %d; want 403", got)
	}
	// With the token the request goes on to the API, which is down here.
	if got := post(url.Values{"email": {"a@b.c"}, "_csrf": {token}}, "same-origin"); got != http.StatusServiceUnavailable {
		t.Errorf("right token, API down: %d; want 503", got)
	}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, end)
	return v
}

func TestPrivatePagesNeedTheirRole(t *testing.T) {
	app, _ := newApp(t, false)
	for path, login := range map[string]string{"/ponto": "/funcionario/entrar", "/ponto/registros": "/funcionario/entrar",
		"/empresa": "/empresa/entrar", "/empresa/relatorio": "/empresa/entrar", "/empresa/afd.txt": "/empresa/entrar",
		"/empresa/afastamentos": "/empresa/entrar", "/empresa/afastamentos/1/documento": "/empresa/entrar",
		"/ponto/afastamentos": "/funcionario/entrar", "/ponto/afastamentos/1/documento": "/funcionario/entrar"} {
		resp := do(t, app, httptest.NewRequest(http.MethodGet, path, nil))
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != login {
			t.Errorf("GET %s = %d to %q; want 303 to %s", path, resp.StatusCode, resp.Header.Get("Location"), login)
		}
	}
}

func TestHashedAssetsAreImmutable(t *testing.T) {
	app, p := newApp(t, false)
	path := p.assets.Path("app.js")
	resp := do(t, app, httptest.NewRequest(http.MethodGet, path, nil))
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET %s = %d %q %q", path, resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Type"))
	}
	resp = do(t, app, httptest.NewRequest(http.MethodGet, "/static/app.js", nil))
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("unhashed name = %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
}

// TestAnExhaustedBudgetIsAPage: the per-IP budget (pkg/ratelimit, Redis in
// the real service) refuses a post with a page in pt-BR and Retry-After;
// reading pages is not limited.
func TestAnExhaustedBudgetIsAPage(t *testing.T) {
	refuse := func(*fiber.Ctx) error { return apierr.TooManyRequests(30) }
	app, _ := newAppLimited(t, false, refuse)
	if resp := do(t, app, httptest.NewRequest(http.MethodGet, "/entrar", nil)); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /entrar = %d; reading is not limited", resp.StatusCode)
	}
	req := httptest.NewRequest(http.MethodPost, "/funcionario/codigo", strings.NewReader("email=a%40b.c"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp := do(t, app, req)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "30" ||
		!strings.Contains(string(body), "muitas tentativas") {
		t.Fatalf("exhausted budget = %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestLoginsHaveTheirOwnBudget: the web client's own per-address login
// budget (real pkg/ratelimit on Redis) refuses an address's third login
// post in a minute with a page, before the API's limit, while the other
// posts of that address are not counted against it.
func TestLoginsHaveTheirOwnBudget(t *testing.T) {
	limiter := ratelimit.New(redistest.New(t), redistest.Prefix(t), slog.New(slog.DiscardHandler))
	logins, err := limiter.PerIP("login", "2/min", ratelimit.FailOpen)
	if err != nil {
		t.Fatal(err)
	}
	app, _ := newAppLimits(t, false, Config{LimitLogins: logins})
	post := func(path string) int {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader("email=a%40b.c&senha=x"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return do(t, app, req).StatusCode
	}
	var got []int
	for _, path := range []string{"/empresa/entrar", "/funcionario/codigo", "/funcionario/entrar", "/empresa/cadastro"} {
		got = append(got, post(path))
	}
	// Without a session's CSRF token the first two get past the budget and
	// are refused by the CSRF check (403); the third is out of budget.
	if got[0] == http.StatusTooManyRequests || got[1] == http.StatusTooManyRequests ||
		got[2] != http.StatusTooManyRequests || got[3] == http.StatusTooManyRequests {
		t.Errorf("statuses %v: want the third login post alone refused with 429", got)
	}
}
