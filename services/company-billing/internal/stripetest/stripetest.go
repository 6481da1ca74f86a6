// Package stripetest puts a recording reverse proxy in front of the real
// stripe-mock for tests. stripe-mock speaks Stripe's protocol but keeps no
// state, so it cannot tell whether a retry made a second customer; the
// proxy records every request (method, path, form, Idempotency-Key) and
// answer, so a test can check what reached Stripe, and it can make chosen
// requests fail, or run a hook just before one is forwarded.
package stripetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// DefaultURL is stripe-mock's address when TEST_STRIPE_URL is unset.
const DefaultURL = "http://127.0.0.1:12111"

// Key is the API key stripe-mock accepts (any sk_test_ key); never a real one.
const Key = "sk_test_123"

// MockURL is the stripe-mock of TEST_STRIPE_URL. An unreachable one fails
// the test: skipping would let a broken CI look green.
func MockURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("TEST_STRIPE_URL")
	if u == "" {
		u = DefaultURL
	}
	c := http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(u + "/v1/customers")
	if err != nil {
		t.Fatalf("stripetest: stripe-mock unreachable at %s (set TEST_STRIPE_URL or start it): %v", u, err)
	}
	resp.Body.Close()
	return u
}

// Request is one request that reached the proxy and what it answered.
type Request struct {
	Method         string
	Path           string
	Form           url.Values
	IdempotencyKey string
	Status         int
	// Body is the answer's body as the client received it.
	Body []byte
	// Injected is true when the proxy answered itself (a failure).
	Injected bool
}

// Proxy is a recording reverse proxy in front of stripe-mock.
type Proxy struct {
	URL string

	rp *httputil.ReverseProxy

	mu       sync.Mutex
	requests []Request
	failures []failure
	hooks    []hook
}

type failure struct {
	method, path string
	left         int
	status       int
}

type hook struct {
	method, path string
	run          func()
}

// New starts a proxy in front of stripe-mock; it stops at test cleanup.
func New(t testing.TB) *Proxy {
	t.Helper()
	target, err := url.Parse(MockURL(t))
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{rp: httputil.NewSingleHostReverseProxy(target)}
	p.rp.ModifyResponse = p.record
	srv := httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Fail makes the next times requests of method on path answer status with
// a Stripe-shaped error body, without reaching stripe-mock.
func (p *Proxy) Fail(method, path string, times, status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failures = append(p.failures, failure{method: method, path: path, left: times, status: status})
}

// Before runs fn (once) just before the next request of method on path is
// forwarded, e.g. to change the database between two Stripe calls.
func (p *Proxy) Before(method, path string, fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hooks = append(p.hooks, hook{method: method, path: path, run: fn})
}

// Requests returns every recorded request whose method is method (any
// when empty) and whose path starts with prefix, in arrival order.
func (p *Proxy) Requests(method, prefix string) []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []Request
	for _, r := range p.requests {
		if (method == "" || r.Method == method) && strings.HasPrefix(r.Path, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets the recorded requests.
func (p *Proxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = nil
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	form, _ := url.ParseQuery(string(body))
	if r.Method == http.MethodGet || r.Method == http.MethodDelete {
		form = r.URL.Query()
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Form: form, IdempotencyKey: r.Header.Get("Idempotency-Key")}

	if fn := p.takeHook(r.Method, r.URL.Path); fn != nil {
		fn()
	}
	if status, ok := p.takeFailure(r.Method, r.URL.Path); ok {
		msg := []byte(`{"error":{"type":"api_error","message":"falha injetada pelo teste"}}`)
		req.Status, req.Body, req.Injected = status, msg, true
		p.add(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(msg)
		return
	}
	// record (ModifyResponse) completes and stores the request.
	r = r.WithContext(withRequest(r.Context(), &req))
	p.rp.ServeHTTP(w, r)
}

// record reads the answer so it can be kept, then hands it on unchanged.
func (p *Proxy) record(resp *http.Response) error {
	req := requestFrom(resp.Request.Context())
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if req != nil {
		req.Status, req.Body = resp.StatusCode, body
		p.add(*req)
	}
	return nil
}

func (p *Proxy) add(r Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, r)
}

func (p *Proxy) takeFailure(method, path string) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.failures {
		f := &p.failures[i]
		if f.left > 0 && f.method == method && f.path == path {
			f.left--
			return f.status, true
		}
	}
	return 0, false
}

func (p *Proxy) takeHook(method, path string) func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, h := range p.hooks {
		if h.method == method && h.path == path {
			p.hooks = append(p.hooks[:i], p.hooks[i+1:]...)
			return h.run
		}
	}
	return nil
}
