package e2e

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// TestWebWorkday walks a workday through the web client in a real browser:
// Debian's chromium, driven by Playwright (tools/webtest/workday.mjs), with
// axe-core on every main page and screenshots under .data/web. The browser
// and the npm packages are installed by deploy/local/ensure-webtest.sh
// (make test runs it); a missing one fails the test, never skips it.
func TestWebWorkday(t *testing.T) {
	w := needWebTools(t)
	e := sharedEnv(t)
	// The whole workday, leaves included, on a shared 2-core machine.
	w.run(t, e, "workday", "workday", 9*time.Minute,
		"PONTO_CODES_URL="+e.serveCodes(t),
		"PONTO_PHOTO="+filepath.Join(repoRoot(), "services", "media", "testdata", "rosto.webp"))
}

// serveCodes serves GET /?email=... on loopback: the next login code the
// test SMTP server received for that address. The browser script asks it
// after requesting a code on the login page, as a person reads his mail.
func (e *env) serveCodes(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, err := e.mail.waitCode(r.URL.Query().Get("email"), 30*time.Second)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		fmt.Fprint(w, code)
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// webSessionKey seals the web client's session cookies in the e2e stack.
var webSessionKey = []byte("ponto-e2e-web-session-key-32byte")

// webSession is the web client's session cookie content (its JSON names).
type webSession struct {
	CSRF          string `json:"c"`
	Role          string `json:"r,omitempty"`
	Token         string `json:"t,omitempty"`
	Refresh       string `json:"f,omitempty"`
	EmpresaID     int64  `json:"e,omitempty"`
	FuncionarioID int64  `json:"u,omitempty"`
	Nome          string `json:"n,omitempty"`
	TZ            string `json:"z,omitempty"`
	Expires       int64  `json:"x"`
}

// sessionAEAD is AES-256-GCM with the e2e key; sealed values carry the
// cookie's name ("ponto": the stack serves plain http) as associated data.
func sessionAEAD(t *testing.T) cipher.AEAD {
	t.Helper()
	block, err := aes.NewCipher(webSessionKey)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	return aead
}

func sealSession(t *testing.T, s webSession) string {
	t.Helper()
	plain, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	aead := sessionAEAD(t)
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(aead.Seal(nonce, nonce, plain, []byte("ponto")))
}

func openSession(t *testing.T, value string) webSession {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(value)
	aead := sessionAEAD(t)
	if err != nil || len(raw) < aead.NonceSize() {
		t.Fatalf("session cookie %q does not decode", value)
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte("ponto"))
	if err != nil {
		t.Fatalf("session cookie does not open: %v", err)
	}
	var s webSession
	if err := json.Unmarshal(plain, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWebRenewsAnExpiredToken: a page asked with an expired access token
// is served after the web client renews the token with the session's
// refresh token (and the cookie carries the new one); once the refresh
// token is revoked, the same page sends the employee back to his login.
func TestWebRenewsAnExpiredToken(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Padaria Sessão")
	e.setUp(t, c)
	f := e.hire(t, c, "Rita Sessão")
	expired := e.reissue(t, f.Token, -time.Hour)
	session := func(refresh string) string {
		return sealSession(t, webSession{CSRF: "csrf-e2e", Role: "funcionario", Token: expired, Refresh: refresh,
			EmpresaID: c.ID, FuncionarioID: f.ID, Nome: "Rita Sessão", TZ: "America/Sao_Paulo", Expires: time.Now().Add(time.Hour).Unix()})
	}
	cookie := session(f.Refresh)
	noRedirect := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func() *http.Response {
		req, _ := http.NewRequest(http.MethodGet, e.stack.GatewayURL()+"/ponto", nil)
		req.AddCookie(&http.Cookie{Name: "ponto", Value: cookie})
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	resp := get()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /ponto with an expired token = %d; want 200 after the renewal", resp.StatusCode)
	}
	var renewed *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "ponto" {
			renewed = ck
		}
	}
	if renewed == nil {
		t.Fatal("the renewed session was not written back to the cookie")
	}
	s := openSession(t, renewed.Value)
	if s.Token == "" || s.Token == expired || s.Refresh == "" || s.Refresh == f.Refresh || s.FuncionarioID != f.ID || s.CSRF != "csrf-e2e" {
		t.Fatalf("renewed session %+v: want a new token, the rotated refresh token, the same user and CSRF token", s)
	}

	// The session's refresh token (the rotated one the cookie now holds)
	// revoked, with the access token expired again: back to the login.
	e.api.do(t, request{Method: http.MethodPost, Path: "/auth/logout", Body: map[string]string{"refreshToken": s.Refresh}}).expect(t, http.StatusNoContent)
	cookie = session(s.Refresh)
	resp = get()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/funcionario/entrar?expirou=1" {
		t.Fatalf("GET /ponto with an expired token and a revoked refresh token = %d to %q; want 303 to the login",
			resp.StatusCode, resp.Header.Get("Location"))
	}
}

// A copy of the web cookie taken before POST /sair opens nothing after
// it: the logout ended the session's access token at the API (its sid),
// not only the cookie in the browser that logged out.
func TestWebCookieCopiedBeforeSairIsRefused(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Padaria Saída")
	cookie := sealSession(t, webSession{CSRF: "csrf-e2e", Role: "empresa", Token: c.Token, Refresh: c.Refresh,
		EmpresaID: c.ID, Nome: "Padaria Saída", TZ: "America/Sao_Paulo", Expires: time.Now().Add(time.Hour).Unix()})
	noRedirect := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path, form string) *http.Response {
		req, _ := http.NewRequest(method, e.stack.GatewayURL()+path, strings.NewReader(form))
		req.AddCookie(&http.Cookie{Name: "ponto", Value: cookie})
		if form != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := send(http.MethodGet, "/empresa/funcionarios", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /empresa/funcionarios before /sair = %d; want 200", resp.StatusCode)
	}
	if resp := send(http.MethodPost, "/sair", "_csrf=csrf-e2e"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /sair = %d; want 303", resp.StatusCode)
	}
	resp := send(http.MethodGet, "/empresa/funcionarios", "")
	for deadline := time.Now().Add(3 * time.Second); resp.StatusCode == http.StatusOK && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		resp = send(http.MethodGet, "/empresa/funcionarios", "")
	}
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/empresa/entrar") {
		t.Fatalf("GET /empresa/funcionarios with the copied cookie = %d to %q; want 303 to the login",
			resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestWebOfflinePunches: the installable app punching off-line in Chromium
// (tools/webtest/offline.mjs): install criteria, three punches kept while
// off-line and across a reload, a tampered one refused, the queue drained
// when the connection returns. Then the AFD, read with the project's
// parser, has the three in punch order with field 7 = 1, and its chain
// verifies.
func TestWebOfflinePunches(t *testing.T) {
	w := needWebTools(t)
	e := sharedEnv(t)
	c := e.registerCompany(t, "Padaria Off-line")
	e.setUp(t, c)
	f := e.hire(t, c, "Rita Campo")
	cookie := sealSession(t, webSession{CSRF: "csrf-offline", Role: "funcionario", Token: f.Token, Refresh: f.Refresh,
		EmpresaID: c.ID, FuncionarioID: f.ID, Nome: "Rita Campo", TZ: "America/Sao_Paulo", Expires: time.Now().Add(time.Hour).Unix()})
	w.run(t, e, "offline", "off-line punches", 4*time.Minute, "PONTO_COOKIE="+cookie)
	arq := e.afdOf(t, c, 0)  // verifies the chain
	punches := arq.Marcacoes // the company's only employee's
	if len(punches) != 3 {
		t.Fatalf("%d type-7 records of the employee, want 3: %+v", len(punches), arq.Marcacoes)
	}
	for i, m := range punches {
		if m.OnLine != "1" || m.Coletor != core.ColetorBrowser || (i > 0 && m.Horario < punches[i-1].Horario) ||
			(i > 0 && m.NSR <= punches[i-1].NSR) {
			t.Errorf("type 7 #%d: %+v (want off-line, collector 02, in punch order)", i, m)
		}
	}
}
