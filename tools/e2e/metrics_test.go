package e2e

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/ponto/ponto/tools/routes"
)

// serviceFamilies are the series each service exports beside the HTTP
// ones, and the least value (a counter, a gauge, a histogram's count)
// the workday leaves in them; 0 asks only that the family be there. Every
// service keeps its Redis pools' statistics: the pipeline pool's carries
// the rate limits' checks (their automatic pipeline), the main pool auth's
// sessions and codes and the revocations' reloads;
// the ones with a database, their pgx pool's; employee and company-billing
// relay REP events through an outbox; timekeeping writes punches in
// batches, audits the chains (once at start) and signs with a certificate.
var serviceFamilies = map[string]map[string]float64{
	"auth": {"redis_pool_hit_total": 1, "redis_pool_conn_total_current": 1, "redis_pipeline_pool_hit_total": 1},
	"company-billing": {
		"redis_pool_hit_total": 0, "redis_pool_conn_total_current": 0, "redis_pipeline_pool_hit_total": 1,
		"pgxpool_acquire_count": 1, "pgxpool_max_conns": 1,
		"outbox_lag_seconds": 0, "outbox_pending_events": 0, "outbox_delivered_total": 0,
	},
	"employee": {
		"redis_pool_hit_total": 0, "redis_pool_conn_total_current": 0, "redis_pipeline_pool_hit_total": 1,
		"pgxpool_acquire_count": 1, "pgxpool_max_conns": 1,
		"outbox_lag_seconds": 0, "outbox_pending_events": 0, "outbox_delivered_total": 0,
	},
	"timekeeping": {
		"redis_pool_hit_total": 0, "redis_pool_conn_total_current": 0, "redis_pipeline_pool_hit_total": 1,
		"pgxpool_acquire_count": 1, "pgxpool_max_conns": 1,
		"ponto_punches_written_total": 5, "ponto_clockin_batch_size": 1, "ponto_clockin_batch_wait_seconds": 5,
		"ponto_clockin_batch_duration_seconds": 1, "ponto_chain_audit_runs_total": 1, "ponto_chain_broken_companies": 0,
		"ponto_chain_verified_records_total": 0, "signing_certificate_days_left": 1,
	},
	"media": {"redis_pool_hit_total": 0, "redis_pool_conn_total_current": 0, "redis_pipeline_pool_hit_total": 1},
	"web":   {"redis_pool_hit_total": 0, "redis_pool_conn_total_current": 0, "redis_pipeline_pool_hit_total": 0},
}

// checkMetrics scrapes every service's internal /metrics as Prometheus
// would and parses it with Prometheus's text parser: each answers 200, its
// public requests are counted under route templates and real methods, and
// its own series hold what the workday did.
func checkMetrics(t *testing.T, e *env) {
	t.Helper()
	// The web client's first page, the one request of the day to it.
	page, err := http.Get(e.stack.GatewayURL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if page.StatusCode != http.StatusOK {
		t.Errorf("GET / through the gateway: %s", page.Status)
	}
	for _, name := range routes.Services {
		families := scrape(t, e, name)
		checkRequestSeries(t, name, families["http_requests_total"])
		for family, least := range serviceFamilies[name] {
			if f := families[family]; len(f.GetMetric()) == 0 {
				t.Errorf("%s: no %s series", name, family)
			} else if got := total(f); got < least {
				t.Errorf("%s: %s = %v; want at least %v", name, family, got, least)
			}
		}
	}
}

// scrape reads a service's internal /metrics as Prometheus would and
// parses it with Prometheus's text parser.
func scrape(t testing.TB, e *env, name string) map[string]*dto.MetricFamily {
	t.Helper()
	port := e.stack.Options().Ports[name].Internal
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/metrics")
	if err != nil {
		t.Fatalf("%s /metrics: %v", name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s /metrics answered %s: %.2000s", name, resp.Status, b)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("%s /metrics does not parse: %v", name, err)
	}
	return families
}

var httpMethods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true}

func checkRequestSeries(t *testing.T, service string, f *dto.MetricFamily) {
	t.Helper()
	public := 0.0
	for _, m := range f.GetMetric() {
		l := map[string]string{}
		for _, p := range m.GetLabel() {
			l[p.GetName()] = p.GetValue()
		}
		if !httpMethods[l["method"]] || (l["route"] != "unmatched" && !strings.HasPrefix(l["route"], "/")) || l["service"] != service {
			t.Errorf("%s: request series with labels %v", service, l)
		}
		if l["listener"] == "public" {
			public += m.GetCounter().GetValue()
		}
	}
	if public == 0 {
		t.Errorf("%s: no public request counted", service)
	}
}

// total is the sum over a family's series of each counter, gauge, or
// histogram's count.
func total(f *dto.MetricFamily) float64 {
	var n float64
	for _, m := range f.GetMetric() {
		n += m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())
	}
	return n
}
