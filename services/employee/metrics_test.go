package main

import (
	"testing"

	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// TestMetricsScrapeAfterBurst: after every route is asked, without a token
// and as a company, /metrics answers and parses
// (pkg/httpserver/servertest).
func TestMetricsScrapeAfterBurst(t *testing.T) {
	e := newEnv(t)
	e.running.CheckMetricsAfterBurst(t, nil)
	families := e.running.CheckMetricsAfterBurst(t, servertest.Bearer(e.iss.Empresa(t, 1)))
	servertest.RequireFamilies(t, families, "pgxpool_acquire_count", "pgxpool_max_conns")
}
