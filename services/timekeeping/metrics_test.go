package main

import (
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// TestMetricsScrapeAfterBurst: after every route is asked, without a token
// and as a company, and after clock-ins (one replayed), /metrics answers
// and parses (pkg/httpserver/servertest), with the pool's statistics and
// the group commit's punches, batch sizes, waits and durations.
func TestMetricsScrapeAfterBurst(t *testing.T) {
	e, c, w := newShop(t, nil)
	at := time.Date(2026, 3, 2, 8, 0, 0, 0, zone)
	body := map[string]any{"endereco": "-23.5505, -46.6333", "funcionarioId": w.id}
	e.clock.Set(at)
	want(t, e.pub("POST", "/registropontos", w.token, body, "Idempotency-Key", "m-1"), 200)
	want(t, e.pub("POST", "/registropontos", w.token, body, "Idempotency-Key", "m-1"), 200)
	e.punch(w, at.Add(4*time.Hour))

	e.servers[0].CheckMetricsAfterBurst(t, nil)
	families := e.servers[0].CheckMetricsAfterBurst(t, servertest.Bearer(c.token))

	if got := value(families["ponto_punches_written_total"]); got != 2 {
		t.Errorf("punches written = %v, want 2 (the replay writes nothing)", got)
	}
	if got := families["ponto_clockin_batch_size"].GetMetric(); len(got) != 1 || got[0].GetHistogram().GetSampleCount() < 1 {
		t.Errorf("batch sizes = %v", got)
	}
	if got := families["ponto_clockin_batch_wait_seconds"].GetMetric(); len(got) != 1 || got[0].GetHistogram().GetSampleCount() != 3 {
		t.Errorf("batch waits = %v, want one per clock-in", got)
	}
	sizes := families["ponto_clockin_batch_size"].GetMetric()
	if got := families["ponto_clockin_batch_duration_seconds"].GetMetric(); len(got) != 1 || len(sizes) != 1 ||
		got[0].GetHistogram().GetSampleCount() != sizes[0].GetHistogram().GetSampleCount() || got[0].GetHistogram().GetSampleSum() <= 0 {
		t.Errorf("batch durations = %v, want one per batch (%v), each longer than nothing", got, sizes)
	}
	servertest.RequireFamilies(t, families, "pgxpool_acquire_count", "pgxpool_max_conns")
}

// value is a one-series family's counter or gauge value.
func value(f *dto.MetricFamily) float64 {
	if f == nil || len(f.GetMetric()) != 1 {
		return -1
	}
	m := f.GetMetric()[0]
	return m.GetCounter().GetValue() + m.GetGauge().GetValue()
}
