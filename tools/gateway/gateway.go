// Package gateway is the local stand-in for the cluster Ingress: one HTTP
// entry point that routes public paths to the services by the shared route
// table (charts/ponto/routes.yaml), so local clients use the same URLs as
// in the cluster.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"

	"github.com/ponto/ponto/tools/routes"
)

// ServiceHeader names, on every proxied answer, the service that produced
// it. It lets a developer (and the stack test) tell a service's own 404
// from the gateway's "no route" 404.
const ServiceHeader = "X-Ponto-Service"

// DefaultReadyTimeout bounds each service's /readyz check.
const DefaultReadyTimeout = 2 * time.Second

// Connection pool of the default transport. http.DefaultTransport keeps
// only 2 idle connections per host, so with tens of concurrent clients
// (the benchmark runs 64) most proxied requests would open, and then
// close, a TCP connection to the service. Keeping up to 256 per upstream
// lets every concurrent request reuse one.
const (
	DefaultMaxIdleConnsPerHost = 256
	// DefaultMaxIdleConns bounds the pool across the ten upstream
	// listeners (five services, public and internal).
	DefaultMaxIdleConns = 1024
	// DefaultIdleConnTimeout is below the services' HTTP_IDLE_TIMEOUT
	// (60s): the gateway drops an idle connection before the service
	// does, instead of sending a request (a POST cannot be retried) on a
	// connection the service is closing.
	DefaultIdleConnTimeout = 30 * time.Second
)

// Upstream is where one service listens.
type Upstream struct {
	// Public is the base URL the table's routes are proxied to.
	Public string
	// Internal is the base URL of the internal listener, whose /readyz
	// decides the gateway's /healthz.
	Internal string
}

// Options configure a Gateway.
type Options struct {
	Table *routes.Table
	// Upstreams maps each service name to its listeners. Every service the
	// table routes to must be present.
	Upstreams map[string]Upstream
	// OpenAPIFile, when set, is served at GET /openapi.yaml.
	OpenAPIFile string
	// ReadyTimeout bounds each /readyz check; zero means DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// Transport carries proxied requests and readiness checks; nil means
	// DefaultTransport().
	Transport http.RoundTripper
	// Log receives upstream failures; nil discards them.
	Log *slog.Logger
	// BodyLimits is each service's largest request body (its
	// HTTP_BODY_LIMIT). The gateway refuses a larger one itself with 413,
	// as the Ingress does: a service refusing it answers early and closes
	// the connection while the body is still being sent, which the proxy
	// could only report as 502. A service not listed has no limit here.
	BodyLimits map[string]int64
}

// Gateway is an http.Handler; build it with New.
type Gateway struct {
	table    *routes.Table
	public   map[string]*url.URL
	internal map[string]*url.URL
	proxy    *httputil.ReverseProxy
	client   *http.Client
	timeout  time.Duration
	openapi  string
	log      *slog.Logger
	limits   map[string]int64
}

type serviceKey struct{}

// New checks the options and builds the gateway.
func New(opts Options) (*Gateway, error) {
	if opts.Table == nil {
		return nil, errors.New("gateway: tabela de rotas ausente")
	}
	g := &Gateway{
		table:    opts.Table,
		public:   map[string]*url.URL{},
		internal: map[string]*url.URL{},
		timeout:  opts.ReadyTimeout,
		openapi:  opts.OpenAPIFile,
		log:      opts.Log,
		limits:   opts.BodyLimits,
	}
	if err := g.parseUpstreams(opts); err != nil {
		return nil, err
	}
	if g.timeout <= 0 {
		g.timeout = DefaultReadyTimeout
	}
	if g.log == nil {
		g.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	transport := opts.Transport
	if transport == nil {
		transport = DefaultTransport()
	}
	g.client = &http.Client{Transport: transport}
	g.proxy = &httputil.ReverseProxy{
		Rewrite:        g.rewrite,
		Transport:      transport,
		ModifyResponse: g.markResponse,
		ErrorHandler:   g.proxyError,
		// A negative interval flushes every write, so streamed answers
		// (CSV reports, photo downloads) reach the client as they come.
		FlushInterval: -1,
	}
	return g, nil
}

// DefaultTransport is http.DefaultTransport (proxy from the environment,
// dial and TLS timeouts, HTTP/2) with a connection pool sized for the
// gateway's concurrency.
func DefaultTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = DefaultMaxIdleConns
	t.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	t.IdleConnTimeout = DefaultIdleConnTimeout
	return t
}

func (g *Gateway) parseUpstreams(opts Options) error {
	for name, up := range opts.Upstreams {
		pub, err := baseURL(name, "Public", up.Public)
		if err != nil {
			return err
		}
		internal, err := baseURL(name, "Internal", up.Internal)
		if err != nil {
			return err
		}
		g.public[name], g.internal[name] = pub, internal
	}
	for _, name := range g.table.ServiceNames() {
		if g.public[name] == nil {
			return fmt.Errorf("gateway: serviço %q está na tabela de rotas mas não tem upstream", name)
		}
	}
	return nil
}

func baseURL(service, field, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway: %s.%s: URL base inválida %q", service, field, raw)
	}
	return u, nil
}

// ServeHTTP answers the gateway's own paths and proxies the rest by the
// route table.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/healthz":
		g.healthz(w, r)
		return
	case r.URL.Path == "/openapi.yaml" && g.openapi != "":
		g.serveOpenAPI(w, r)
		return
	}
	service, ok := g.table.Match(r.URL.Path)
	if !ok {
		writeError(w, http.StatusNotFound, "nao_encontrado", "rota não encontrada")
		return
	}
	if headerBytes(r) > maxHeaderBytes {
		// The service would answer 431 and close while the proxy still
		// writes: a broken pipe, a 502 the 5xx alert counts. Answer here.
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestHeaderFieldsTooLarge, "cabecalho_grande_demais", "cabeçalhos da requisição grandes demais")
		return
	}
	if limit := g.limits[service]; limit > 0 && r.Body != nil && r.Body != http.NoBody {
		if r.ContentLength > limit {
			// Nothing of the body is read: the connection closes after
			// the answer, and the client that is still sending reads it.
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestEntityTooLarge, "grande_demais", "corpo da requisição grande demais")
			return
		}
		// A body of unknown length is cut at the limit: proxyError
		// answers 413 when the proxy's read stops there.
		r.Body = http.MaxBytesReader(w, r.Body, limit)
	}
	ctx := context.WithValue(r.Context(), serviceKey{}, service)
	g.proxy.ServeHTTP(w, r.WithContext(ctx))
}

// maxHeaderBytes is what the services read of a request's line and
// headers (fiber's ReadBufferSize, 4 KiB); more is their 431.
const maxHeaderBytes = 4096

// headerBytes is about the size of r's request line and headers on the
// wire, as the proxy forwards them.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.URL.RequestURI()) + len(r.Host) + 32
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

func (g *Gateway) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusMethodNotAllowed, "metodo_nao_permitido", "método não permitido")
		return
	}
	w.Header().Set("Content-Type", "application/yaml")
	http.ServeFile(w, r, g.openapi)
}

// rewrite sends the request to the matched service's public listener with
// the path and query untouched. Like the Ingress, it keeps the client's
// Host and sets X-Forwarded-For/-Host/-Proto; ReverseProxy has already
// dropped any X-Forwarded-* the client sent, so they cannot be spoofed.
// With Rewrite (unlike Director) ReverseProxy adds no X-Forwarded-For of
// its own: SetXForwarded is what gives the services, which trust the
// gateway's address (HTTP_TRUSTED_PROXIES), the client's address.
func (g *Gateway) rewrite(pr *httputil.ProxyRequest) {
	service, _ := pr.In.Context().Value(serviceKey{}).(string)
	pr.SetURL(g.public[service])
	pr.Out.Host = pr.In.Host
	pr.SetXForwarded()
}

func (g *Gateway) markResponse(resp *http.Response) error {
	if service, ok := resp.Request.Context().Value(serviceKey{}).(string); ok {
		resp.Header.Set(ServiceHeader, service)
	}
	return nil
}

func (g *Gateway) proxyError(w http.ResponseWriter, r *http.Request, err error) {
	service, _ := r.Context().Value(serviceKey{}).(string)
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away; nobody is left to answer.
		return
	}
	if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestEntityTooLarge, "grande_demais", "corpo da requisição grande demais")
		return
	}
	g.log.Warn("upstream indisponível", "service", service, "method", r.Method, "path", r.URL.Path, "err", err)
	writeError(w, http.StatusBadGateway, "servico_indisponivel", "serviço indisponível")
}
