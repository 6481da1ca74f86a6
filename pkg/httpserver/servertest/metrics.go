package servertest

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gofiber/fiber/v2"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// burstRounds is how many times the burst asks every route. Several rounds
// over keep-alive connections are what exposed Fiber's reused request
// memory kept in metric labels ("GETT", "POSTK", duplicate series).
const burstRounds = 3

// burstWorkers send the burst in parallel, so that requests with
// different methods and paths share and reuse Fiber's contexts.
const burstWorkers = 4

// CheckMetricsAfterBurst sends a varied burst to r's server (every public
// route with its method and placeholder parameters, unmatched paths,
// wrong methods, the internal probes), then scrapes the internal
// /metrics and parses it with the Prometheus text parser. It fails the
// test when the scrape does not answer 200, does not parse, or its
// http_requests_total series name a route or method the server does not
// have, or count other than the requests sent. header (a token, say) is
// sent with every public request; nil sends none, and the routes answer
// 401 or 400 without changing anything.
func (r *Running) CheckMetricsAfterBurst(t testing.TB, header map[string]string) map[string]*dto.MetricFamily {
	t.Helper()
	before := publicRequests(t, r.Scrape(t))
	sent := r.burst(t, header)
	families := r.Scrape(t)

	allowed := map[string]map[string]map[string]bool{
		"public":   routeMethods(r.srv.Public),
		"internal": routeMethods(r.srv.Internal),
	}
	reqs := families["http_requests_total"]
	if reqs == nil {
		t.Fatal("metrics: no http_requests_total after the burst")
	}
	counted := map[[3]string]float64{}
	for _, m := range reqs.GetMetric() {
		l := labels(m)
		listener, route, method := l["listener"], l["route"], l["method"]
		if route != "unmatched" && !allowed[listener][route][method] {
			t.Errorf("metrics: series for a route the %s listener does not serve: %v", listener, l)
		}
		if route == "unmatched" && !knownMethods[method] {
			t.Errorf("metrics: unmatched series with method %q: %v", method, l)
		}
		counted[[3]string{listener, route, method}] += m.GetCounter().GetValue()
	}
	for _, m := range families["http_request_duration_seconds"].GetMetric() {
		l := labels(m)
		key := [3]string{l["listener"], l["route"], l["method"]}
		if got, want := float64(m.GetHistogram().GetSampleCount()), counted[key]; got != want {
			t.Errorf("metrics: %v observed %v durations but counted %v requests", key, got, want)
		}
	}
	if got := publicRequests(t, families) - before; got != float64(sent) {
		t.Errorf("metrics: public requests counted %v, sent %d", got, sent)
	}
	return families
}

// knownMethods are the methods a route label may carry.
var knownMethods = map[string]bool{}

func init() {
	for _, m := range fiber.DefaultMethods {
		knownMethods[m] = true
	}
}

// burst asks every route burstRounds times in a random order and returns
// how many public requests it sent.
func (r *Running) burst(t testing.TB, header map[string]string) int {
	t.Helper()
	type call struct{ base, method, path string }
	var calls []call
	for _, rt := range r.srv.Public.GetRoutes(true) {
		calls = append(calls, call{r.Public, rt.Method, concretePath(rt.Path)})
	}
	calls = append(calls,
		call{r.Public, http.MethodGet, "/nao-existe"},
		call{r.Public, http.MethodPost, "/nao/existe/mesmo"},
		call{r.Public, http.MethodDelete, "/"},
	)
	public := len(calls) * burstRounds
	for _, p := range []string{"/healthz", "/readyz", "/nao-existe"} {
		calls = append(calls, call{r.Internal, http.MethodGet, p})
	}
	var all []call
	for range burstRounds {
		all = append(all, calls...)
	}
	rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })

	// A client of its own, whose keep-alive connections are closed after
	// the burst (idle ones would hold the server's shutdown), and which
	// follows no redirect (each request sent is counted once).
	client := &http.Client{
		Transport:     &http.Transport{MaxIdleConnsPerHost: burstWorkers},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer client.CloseIdleConnections()
	work := make(chan call)
	errs := make(chan error, len(all))
	var wg sync.WaitGroup
	for range burstWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				errs <- send(client, c.method, c.base+c.path, header)
			}
		}()
	}
	for _, c := range all {
		work <- c
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return public
}

// send asks once, with an empty JSON object as the body of the methods
// that carry one.
func send(client *http.Client, method, url string, header map[string]string) error {
	var body *strings.Reader
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		body = strings.NewReader("{}")
	default:
		body = strings.NewReader("")
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return err
	}
	if body.Len() > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// concretePath fills a route template's parameters with a value every
// parameter accepts the shape of ("1"), dropping optional markers.
func concretePath(template string) string {
	parts := strings.Split(template, "/")
	for i, p := range parts {
		switch {
		case strings.HasPrefix(p, ":"):
			parts[i] = "1"
		case p == "*" || p == "+":
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}

// Scrape reads and parses the internal /metrics.
func (r *Running) Scrape(t testing.TB) map[string]*dto.MetricFamily {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, r.Internal+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Close = true
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("metrics: GET /metrics answered %s: %s", resp.Status, b)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("metrics: the scrape does not parse: %v", err)
	}
	return families
}

func publicRequests(t testing.TB, families map[string]*dto.MetricFamily) float64 {
	t.Helper()
	var n float64
	for _, m := range families["http_requests_total"].GetMetric() {
		if labels(m)["listener"] == "public" {
			n += m.GetCounter().GetValue()
		}
	}
	return n
}

// routeMethods maps each path an app serves (middleware mounts included:
// a middleware that answers leaves its own path as the route) to its
// methods.
func routeMethods(app *fiber.App) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, rt := range app.GetRoutes() {
		if out[rt.Path] == nil {
			out[rt.Path] = map[string]bool{}
		}
		out[rt.Path][rt.Method] = true
	}
	return out
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// RequireFamilies fails the test for each name families lacks (a
// collector the service should register).
func RequireFamilies(t testing.TB, families map[string]*dto.MetricFamily, names ...string) {
	t.Helper()
	for _, n := range names {
		if len(families[n].GetMetric()) == 0 {
			t.Errorf("metrics: no %s series", n)
		}
	}
}
