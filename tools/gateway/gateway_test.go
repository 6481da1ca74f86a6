package gateway

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ponto/ponto/tools/routes"
)

// seen is what an upstream recorded about the last request it got.
type seen struct {
	service, path, query, xff, host string
	body                            []byte
}

// fakeService is one httptest upstream with a public and an internal
// listener, like a real service.
type fakeService struct {
	name     string
	public   *httptest.Server
	internal *httptest.Server
	mu       sync.Mutex
	last     *seen
	ready    int // status of /readyz
}

func newFakeService(t *testing.T, name string) *fakeService {
	f := &fakeService{name: name, ready: http.StatusOK}
	f.public = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.last = &seen{service: name, path: r.URL.Path, query: r.URL.RawQuery,
			xff: r.Header.Get("X-Forwarded-For"), host: r.Host, body: body}
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"service":"`+name+`"}`)
	}))
	f.internal = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		f.mu.Lock()
		status := f.ready
		f.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(f.public.Close)
	t.Cleanup(f.internal.Close)
	return f
}

func (f *fakeService) lastRequest() *seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

func (f *fakeService) setReady(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ready = status
}

func realTable(t *testing.T) *routes.Table {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	tbl, err := routes.Load(filepath.Join(filepath.Dir(here), "..", "..", routes.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// newGateway starts one fake per service behind a gateway built on the
// real route table.
func newGateway(t *testing.T, opts Options) (*httptest.Server, map[string]*fakeService) {
	t.Helper()
	fakes := map[string]*fakeService{}
	opts.Upstreams = map[string]Upstream{}
	for _, name := range routes.Services {
		f := newFakeService(t, name)
		fakes[name] = f
		opts.Upstreams[name] = Upstream{Public: f.public.URL, Internal: f.internal.URL}
	}
	if opts.Table == nil {
		opts.Table = realTable(t)
	}
	g, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return srv, fakes
}

func TestRoutesToTheRightService(t *testing.T) {
	srv, fakes := newGateway(t, Options{})
	cases := []struct{ path, service string }{
		{"/funcionarios/42/foto?tamanho=p&x=%C3%A7", "media"},
		{"/funcionarios/42?campos=nome", "employee"},
		{"/registropontos/departamento/Vendas?inicio=01/05/2025&fim=31/05/2025", "timekeeping"},
		{"/.well-known/jwks.json", "auth"},
		{"/auth/login", "auth"},
		{"/empresas/me", "company-billing"},
		// Every path no API route claims is the web client's.
		{"/", "web"},
		{"/funcionariosX", "web"},
		{"/ponto/registros?mes=2026-03", "web"},
	}
	for _, c := range cases {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get(ServiceHeader) != c.service {
			t.Errorf("GET %s: status %d, %s %q; want 200 from %s", c.path, resp.StatusCode, ServiceHeader, resp.Header.Get(ServiceHeader), c.service)
			continue
		}
		got := fakes[c.service].lastRequest()
		wantPath, wantQuery, _ := strings.Cut(c.path, "?")
		if got == nil || got.path != wantPath || got.query != wantQuery {
			t.Errorf("GET %s: upstream saw %+v; want path %q query %q", c.path, got, wantPath, wantQuery)
		}
	}
}

func TestForwardedHeaders(t *testing.T) {
	srv, fakes := newGateway(t, Options{})
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/registropontos", nil)
	req.Header.Set("X-Forwarded-For", "6.6.6.6") // a client must not spoof it
	req.Host = "ponto.local"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := fakes["timekeeping"].lastRequest()
	if got.xff != "127.0.0.1" {
		t.Errorf("X-Forwarded-For = %q; want the client address 127.0.0.1 only", got.xff)
	}
	if got.host != "ponto.local" {
		t.Errorf("Host = %q; want the client's ponto.local, as the Ingress keeps it", got.host)
	}
}

func TestUnknownRouteIs404JSON(t *testing.T) {
	// The real table ends with the web client's catch-all "/", so a table
	// without it shows the gateway's own 404.
	table, err := routes.Parse([]byte("routes:\n  - service: employee\n    prefix: /funcionarios\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := newGateway(t, Options{Table: table})
	for _, p := range []string{"/", "/funcionariosX", "/nada/aqui"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body := decode(t, resp)
		if resp.StatusCode != http.StatusNotFound || body["code"] != "nao_encontrado" || body["message"] != "rota não encontrada" {
			t.Errorf("GET %s = %d %v; want 404 nao_encontrado", p, resp.StatusCode, body)
		}
		if resp.Header.Get(ServiceHeader) != "" {
			t.Errorf("GET %s: the gateway's own answer must not carry %s", p, ServiceHeader)
		}
	}
}

func TestDeadUpstreamIs502JSON(t *testing.T) {
	dead := deadURL(t)
	g, err := New(Options{
		Table:     realTable(t),
		Upstreams: allUpstreams(Upstream{Public: dead, Internal: dead}),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/auth/login", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body := decode(t, resp)
	if resp.StatusCode != http.StatusBadGateway || body["code"] != "servico_indisponivel" || body["message"] != "serviço indisponível" {
		t.Fatalf("got %d %v; want 502 servico_indisponivel", resp.StatusCode, body)
	}
}

func TestLargeBodyIsStreamed(t *testing.T) {
	srv, fakes := newGateway(t, Options{})
	photo := make([]byte, 5<<20)
	_, _ = rand.Read(photo)
	resp, err := http.Post(srv.URL+"/funcionarios/7/foto", "image/jpeg", bytes.NewReader(photo))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := fakes["media"].lastRequest(); resp.StatusCode != http.StatusOK || !bytes.Equal(got.body, photo) {
		t.Fatalf("status %d; upstream got %d bytes, want the same %d bytes", resp.StatusCode, len(got.body), len(photo))
	}
}

// TestBodyReachesUpstreamBeforeItEnds proves the gateway does not buffer:
// the upstream reads the first half while the client still holds the
// second, which would deadlock (and time out) if the gateway waited for
// the whole body.
func TestBodyReachesUpstreamBeforeItEnds(t *testing.T) {
	firstHalf := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 1<<20)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		close(firstHalf)
		n, _ := io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, strings.Repeat("x", int(n)>>20))
	}))
	defer up.Close()
	g, err := New(Options{Table: realTable(t), Upstreams: allUpstreams(Upstream{Public: up.URL, Internal: up.URL})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	defer srv.Close()

	pr, pw := io.Pipe()
	go func() {
		chunk := make([]byte, 1<<20)
		_, _ = pw.Write(chunk)
		select {
		case <-firstHalf:
			_, _ = pw.Write(chunk)
			pw.Close()
		case <-time.After(10 * time.Second):
			pw.CloseWithError(io.ErrUnexpectedEOF)
		}
	}()
	resp, err := http.Post(srv.URL+"/funcionarios/1/foto", "image/png", pr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "x" {
		t.Fatalf("got %d %q; want 200 \"x\" (the upstream saw the first MiB before the second was sent)", resp.StatusCode, body)
	}
}

func TestHealthzAllReady(t *testing.T) {
	srv, _ := newGateway(t, Options{})
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var h health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || h.Status != "ok" || len(h.Services) != len(routes.Services) || len(h.NotReady) != 0 {
		t.Fatalf("got %d %+v; want 200 with every service ok", resp.StatusCode, h)
	}
}

func TestHealthzNamesTheUnreadyService(t *testing.T) {
	srv, fakes := newGateway(t, Options{})
	fakes["media"].setReady(http.StatusServiceUnavailable)
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var h health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || len(h.NotReady) != 1 || h.NotReady[0] != "media" {
		t.Fatalf("got %d %+v; want 503 naming media", resp.StatusCode, h)
	}
	if h.Services["media"] == "ok" || h.Services["auth"] != "ok" {
		t.Fatalf("services = %v; want media failing and the others ok", h.Services)
	}
}

func TestHealthzHungServiceTimesOut(t *testing.T) {
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hung.Close()
	defer close(release)
	ok := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer ok.Close()

	ups := allUpstreams(Upstream{Public: ok.URL, Internal: ok.URL})
	ups["auth"] = Upstream{Public: ok.URL, Internal: hung.URL}
	g, err := New(Options{Table: realTable(t), Upstreams: ups, ReadyTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rec := httptest.NewRecorder()
	g.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"naoProntos":["auth"]`) {
		t.Fatalf("got %d %s; want 503 naming auth", rec.Code, rec.Body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("healthz took %v; the checks should run concurrently under the timeout", d)
	}
}

func TestOpenAPIHook(t *testing.T) {
	file := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(file, []byte("openapi: 3.1.0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, _ := newGateway(t, Options{OpenAPIFile: file})
	resp, err := http.Get(srv.URL + "/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "openapi: 3.1.0\n" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
}

func TestNewRejectsMissingUpstream(t *testing.T) {
	ups := allUpstreams(Upstream{Public: "http://127.0.0.1:1", Internal: "http://127.0.0.1:2"})
	delete(ups, "media")
	if _, err := New(Options{Table: realTable(t), Upstreams: ups}); err == nil || !strings.Contains(err.Error(), "media") {
		t.Fatalf("err = %v; want one naming media", err)
	}
	ups = allUpstreams(Upstream{Public: "127.0.0.1:1", Internal: "http://127.0.0.1:2"})
	if _, err := New(Options{Table: realTable(t), Upstreams: ups}); err == nil {
		t.Fatal("a base URL without scheme should be rejected")
	}
}

func allUpstreams(u Upstream) map[string]Upstream {
	m := map[string]Upstream{}
	for _, name := range routes.Services {
		m[name] = u
	}
	return m
}

// deadURL is an address nothing listens on: a port just released.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func decode(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q; want JSON", ct)
	}
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A body over the service's limit is refused by the gateway with a JSON
// 413, whether its length is declared or not, and never reaches the
// service.
func TestBodyLimit(t *testing.T) {
	var reached atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(up.Close)
	table, err := routes.Parse([]byte("routes:\n  - service: employee\n    prefix: /funcionarios\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(Options{Table: table, Upstreams: map[string]Upstream{"employee": {Public: up.URL, Internal: up.URL}},
		BodyLimits: map[string]int64{"employee": 1024}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)

	post := func(body io.Reader) *http.Response {
		resp, err := http.Post(srv.URL+"/funcionarios", "application/json", body)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := post(strings.NewReader(strings.Repeat("a", 1024))); resp.StatusCode != http.StatusOK {
		t.Fatalf("a body at the limit: %d", resp.StatusCode)
	}
	for name, body := range map[string]io.Reader{
		"declared length": strings.NewReader(strings.Repeat("a", 1025)),
		"chunked":         io.MultiReader(strings.NewReader(strings.Repeat("a", 4096))), // no length known
	} {
		resp := post(body)
		var e struct{ Code string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		if resp.StatusCode != http.StatusRequestEntityTooLarge || e.Code != "grande_demais" {
			t.Errorf("%s: %d %q", name, resp.StatusCode, e.Code)
		}
	}
	if n := reached.Load(); n != 1 && n != 2 {
		t.Errorf("the service was reached %d times", n)
	}
}

// An 8 KiB Authorization header gets the gateway's own 431, never a 502
// from a service that closed while the proxy still wrote; a header of
// ordinary size passes.
func TestOversizedHeadersAre431(t *testing.T) {
	srv, fakes := newGateway(t, Options{})
	for _, tc := range []struct {
		size, status int
	}{{8 << 10, http.StatusRequestHeaderFieldsTooLarge}, {1 << 10, http.StatusOK}} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/funcionarios", nil)
		req.Header.Set("Authorization", "Bearer "+strings.Repeat("a", tc.size))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := decode(t, resp)
		if resp.StatusCode != tc.status {
			t.Errorf("%d-byte header: %d %v, want %d", tc.size, resp.StatusCode, body, tc.status)
		}
		if tc.status == http.StatusRequestHeaderFieldsTooLarge && (body["code"] != "cabecalho_grande_demais" || fakes["employee"].lastRequest() != nil) {
			t.Errorf("431 answer %v; reached the service: %v", body, fakes["employee"].lastRequest() != nil)
		}
	}
}
