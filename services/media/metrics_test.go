package main

import (
	"testing"

	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// TestMetricsScrapeAfterBurst: after every route is asked, without a token
// and as a company, /metrics answers and parses
// (pkg/httpserver/servertest).
func TestMetricsScrapeAfterBurst(t *testing.T) {
	h := start(t, false)
	h.running.CheckMetricsAfterBurst(t, nil)
	h.running.CheckMetricsAfterBurst(t, servertest.Bearer(h.empresa(1)))
}
