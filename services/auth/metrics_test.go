package main

import (
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// TestMetricsScrapeAfterBurst: after every route is asked, /metrics
// answers and parses (pkg/httpserver/servertest), with Redis's pool
// statistics.
func TestMetricsScrapeAfterBurst(t *testing.T) {
	h := start(t)
	families := h.running.CheckMetricsAfterBurst(t, nil)
	servertest.RequireFamilies(t, families, "redis_pool_hit_total", "redis_pool_conn_total_current")
}

// TestServesTheAPIDocument: /openapi.yaml and its reference page through
// the public listener, without a token, the page under a policy that
// admits no script.
func TestServesTheAPIDocument(t *testing.T) {
	h := start(t)
	doc := servertest.Call(t, "GET", h.public+"/openapi.yaml", nil, nil)
	if doc.Status != 200 || !strings.HasPrefix(string(doc.Body), "openapi: 3.0.3") ||
		!strings.HasPrefix(doc.Header.Get("Content-Type"), "application/yaml") {
		t.Fatalf("GET /openapi.yaml: %d %s %.40s", doc.Status, doc.Header.Get("Content-Type"), doc.Body)
	}
	page := servertest.Call(t, "GET", h.public+"/openapi.html", nil, nil)
	csp := page.Header.Get("Content-Security-Policy")
	if page.Status != 200 || !strings.Contains(string(page.Body), "registrarPonto") ||
		!strings.HasPrefix(csp, "default-src 'none'") || strings.Contains(csp, "script") {
		t.Fatalf("GET /openapi.html: %d, policy %q", page.Status, csp)
	}
}
