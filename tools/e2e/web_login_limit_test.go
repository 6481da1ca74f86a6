package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// One abuser who spends his address's budget of web logins
// (WEB_LOGIN_RATE, 20/min by default) on wrong passwords does not lock out
// a person logging in from another address. Both reach the web client
// through the gateway from their own loopback address (127.0.0.5 and
// 127.0.0.6); the gateway sets X-Forwarded-For to it, which the web
// service trusts from the gateway, so each address has its own budget.
func TestWebLoginBudgetIsPerAddress(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Padaria Vizinha")
	abuser := newWebBrowser(t, e, "127.0.0.5")
	person := newWebBrowser(t, e, "127.0.0.6")

	// The budget is 20 posts a minute: the 21st at the latest is refused.
	// Bounded at 40 so that a missing limit fails instead of looping.
	refused := 0
	for i := range 40 {
		status, _ := abuser.login(t, c.Email, fmt.Sprintf("senhaErrada%d", i))
		if status == http.StatusTooManyRequests {
			refused = i + 1
			break
		}
		if status != http.StatusUnauthorized && status != http.StatusOK {
			t.Fatalf("wrong password, post %d: status %d; want the form again with an error, or 429", i+1, status)
		}
	}
	if refused == 0 {
		t.Fatal("40 wrong logins from one address and none refused with 429: the web login budget does not apply")
	}
	t.Logf("the abuser's post %d was refused with 429", refused)
	// His budget is spent even for the right password...
	if status, _ := abuser.login(t, c.Email, c.Password); status != http.StatusTooManyRequests {
		t.Errorf("the abuser with the right password after his budget = %d; want 429", status)
	}
	// ...but the person at another address logs in at once.
	status, loc := person.login(t, c.Email, c.Password)
	if status != http.StatusSeeOther || loc != "/empresa" {
		t.Fatalf("the person at another address = %d to %q; want 303 to /empresa (not locked out by the abuser)", status, loc)
	}
}

// webBrowser is a client of the web pages with its own cookies and its
// own source address.
type webBrowser struct {
	base string
	http *http.Client
}

func newWebBrowser(t *testing.T, e *env, source string) *webBrowser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	dialer := &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}}
	tr := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &webBrowser{base: e.stack.GatewayURL(), http: &http.Client{
		Timeout: 20 * time.Second, Jar: jar, Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// login opens the company login page (for its CSRF token) and posts the
// form; it returns the post's status and Location.
func (b *webBrowser) login(t *testing.T, email, password string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/empresa/entrar", nil)
	resp, err := b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	m := csrfField.FindSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("GET /empresa/entrar = %d without a CSRF field", resp.StatusCode)
	}
	form := url.Values{"_csrf": {string(m[1])}, "email": {email}, "password": {password}}
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/empresa/entrar", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}
