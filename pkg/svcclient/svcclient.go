// Package svcclient is the HTTP client services use to call each other on
// their internal port.
//
// Each attempt has a timeout; reads (GET, HEAD) are retried a few times on
// connection failures and 502/503/504, while writes are sent exactly once
// because a write that reached the peer must not be applied twice. Every
// request carries the W3C traceparent of the caller's span (through the
// global propagator, and otelhttp's client span when tracing is on), so
// traces cross services.
//
// Failures come back as *apierr.Error, ready for the caller's handler to
// return as is: a peer's 4xx keeps its status, code and message (a 404
// from the employee service stays a 404), while a 5xx, a timeout or a
// connection failure becomes a 503 naming the peer's host.
package svcclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/telemetry"
)

// Defaults, overridable with options.
const (
	DefaultTimeout          = 3 * time.Second
	DefaultRetries          = 2
	DefaultMaxResponseBytes = 1 << 20
)

// Backoff bounds between read retries: short, because the caller is
// itself serving a request.
const (
	retryWaitMin = 50 * time.Millisecond
	retryWaitMax = 500 * time.Millisecond
)

// Client calls one peer service. It is safe for concurrent use.
type Client struct {
	base    string // without a trailing slash
	peer    string // host:port, names the dependency in errors
	maxBody int64
	reads   *retryablehttp.Client
	writes  *retryablehttp.Client
	tokens  TokenSource
}

// Option configures a Client.
type Option func(*options)

type options struct {
	timeout time.Duration
	retries int
	maxBody int64
	hc      *http.Client
	tokens  TokenSource
}

// WithTimeout sets the timeout of each attempt, including reading the
// body (default 3s). A read may take up to (retries+1) attempts.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithRetries sets how many times a read is retried (default 2; 0 disables).
func WithRetries(n int) Option { return func(o *options) { o.retries = max(n, 0) } }

// WithMaxResponseBytes bounds the response body read (default 1 MiB); a
// larger answer is an error rather than a memory spike.
func WithMaxResponseBytes(n int64) Option { return func(o *options) { o.maxBody = n } }

// WithHTTPClient supplies the transport, redirect policy and cookie jar.
// The client is copied: its Transport gets wrapped for tracing (so pass a
// plain one) and its Timeout is replaced by the per-attempt timeout.
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.hc = hc } }

// New returns a client for the peer at baseURL, e.g. "http://employee:8081".
// Paths given to its methods are appended to baseURL.
func New(baseURL string, opts ...Option) *Client {
	o := options{timeout: DefaultTimeout, retries: DefaultRetries, maxBody: DefaultMaxResponseBytes}
	for _, opt := range opts {
		opt(&o)
	}
	hc := httpClient(o)
	return &Client{
		base:    strings.TrimRight(baseURL, "/"),
		peer:    peerName(baseURL),
		maxBody: o.maxBody,
		reads:   retryClient(hc, o.retries),
		writes:  retryClient(hc, 0),
		tokens:  o.tokens,
	}
}

func httpClient(o options) *http.Client {
	var hc http.Client
	if o.hc != nil {
		hc = *o.hc
	}
	base := hc.Transport
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// The default of 2 idle connections per host forces new dials
		// under the steady fan-out between services.
		t.MaxIdleConnsPerHost = 32
		base = t
	}
	hc.Transport = tracing(base)
	hc.Timeout = o.timeout
	return &hc
}

// tracing wraps base with otelhttp's client spans when an exporter is
// configured (telemetry.Enabled). Without one no span would be recorded,
// yet otelhttp's per-request work (metric attributes, the span) cost 8% of
// timekeeping's CPU under the clock-in benchmark (docs/performance.md);
// then the caller's trace context is only injected into the headers, so
// the peer still continues the trace.
func tracing(base http.RoundTripper) http.RoundTripper {
	if telemetry.Enabled() {
		return otelhttp.NewTransport(base)
	}
	return propagating{base}
}

// propagating injects the request context's trace context and baggage.
type propagating struct{ base http.RoundTripper }

func (p propagating) RoundTrip(r *http.Request) (*http.Response, error) {
	prop := otel.GetTextMapPropagator()
	carrier := propagation.HeaderCarrier(make(http.Header))
	prop.Inject(r.Context(), carrier)
	if len(carrier) > 0 {
		// A RoundTripper must not change the caller's request.
		r = r.Clone(r.Context())
		for k, v := range carrier {
			r.Header[k] = v
		}
	}
	return p.base.RoundTrip(r)
}

func retryClient(hc *http.Client, retries int) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   hc,
		Logger:       nil, // failures reach the caller as errors; attempts show as spans
		RetryWaitMin: retryWaitMin,
		RetryWaitMax: retryWaitMax,
		RetryMax:     retries,
		CheckRetry:   retryPolicy,
		Backoff:      backoff,
		// Hand back the last response so its status can be mapped,
		// instead of retryablehttp's generic "giving up" error.
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
}

func peerName(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		return u.Host
	}
	return baseURL
}

// GetJSON sends a GET and decodes the JSON answer into out (may be nil).
func (c *Client) GetJSON(ctx context.Context, path string, out any) error {
	return c.Do(ctx, http.MethodGet, path, nil, out)
}

// PostJSON sends in as JSON and decodes the answer into out (may be nil).
func (c *Client) PostJSON(ctx context.Context, path string, in, out any) error {
	return c.Do(ctx, http.MethodPost, path, in, out)
}

// PutJSON sends in as JSON and decodes the answer into out (may be nil).
func (c *Client) PutJSON(ctx context.Context, path string, in, out any) error {
	return c.Do(ctx, http.MethodPut, path, in, out)
}

// Do sends method to path (already escaped, may hold a query string) with
// in as a JSON body unless nil, and decodes a 2xx JSON answer into out
// unless nil or the body is empty. Any failure is an *apierr.Error.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) error {
	logged := withoutQuery(path)
	req, err := c.newRequest(ctx, method, path, in)
	if err != nil {
		// A body that does not marshal or a malformed URL is our bug.
		return apierr.Internal(fmt.Errorf("svcclient: %s %s%s: %w", method, c.peer, logged, err))
	}
	if c.tokens != nil {
		token, err := c.tokens.Token(ctx)
		if err != nil {
			// Without a token the peer would refuse the call: auth is the
			// dependency that failed.
			return apierr.Unavailable("auth", fmt.Errorf("service token for %s %s: %w", method, logged, err))
		}
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rc := c.writes
	if method == http.MethodGet || method == http.MethodHead {
		rc = c.reads
	}
	resp, err := rc.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = withoutQuery(ue.URL)
		}
		return apierr.Unavailable(c.peer, fmt.Errorf("%s %s: %w", method, logged, err))
	}
	defer resp.Body.Close()
	return c.handle(method, logged, resp, out)
}

// withoutQuery keeps query strings out of error messages and so out of the
// logs: they may carry personal data, such as the e-mail of a lookup.
func withoutQuery(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i] + "?…"
	}
	return u
}

func (c *Client) newRequest(ctx context.Context, method, path string, in any) (*retryablehttp.Request, error) {
	target := c.base + "/" + strings.TrimPrefix(path, "/")
	if in == nil {
		req, err := retryablehttp.NewRequestWithContext(ctx, method, target, nil)
		if err == nil {
			req.Header.Set("Accept", "application/json")
		}
		return req, err
	}
	body, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encode body: %w", err)
	}
	// A []byte body lets retryablehttp replay it on each attempt.
	req, err := retryablehttp.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}
