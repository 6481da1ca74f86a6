package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Batching is how a clock-in workload's punches met on their way: how many
// a group commit wrote at once, and how many a batched employee lookup
// fetched (a cold punch's miss). Both set what a punch costs PostgreSQL and
// the employee service: each batch and each lookup has a price of its own,
// shared by the punches it carries. Read from the services' /metrics
// before and after the measured part.
type Batching struct {
	// Batches and PerBatch: the group commits written, and their mean size.
	Batches  int64   `json:"quantidade"`
	PerBatch float64 `json:"registrosPorLote"`
	// MeanMs is the batches' mean time from taking their chain heads to
	// their commit, and Over10Ms how many took longer than 10 ms
	// (ponto_clockin_batch_duration_seconds): a slow commit holds up every
	// punch of its batch and of the batch behind it.
	MeanMs   float64 `json:"msPorLote"`
	Over10Ms int64   `json:"lotesAcimaDe10ms"`
	// Lookups are the employee service's batched lookups
	// (GET /internal/funcionarios) and PerLookup the measured operations
	// over them (for a cold shift change, every punch is a miss).
	Lookups   int64    `json:"buscasFuncionarios"`
	PerLookup *float64 `json:"registrosPorBusca,omitempty"`
	// Postgres splits the "postgres" CPU column by the service whose
	// database the backends serve (milliseconds per operation): the
	// clock-in's own transactions, and the employee service's lookups.
	Postgres CPUPerOp `json:"postgresPorServico,omitempty"`
}

// batchCounters are the counters Batching is the difference of.
type batchCounters struct {
	batches, punches, lookups float64
	// seconds and over10ms: the batches' time, and how many took over
	// 10 ms.
	seconds, over10ms float64
	// postgres is the backends' CPU time by service.
	postgres map[string]time.Duration
}

// slowBatch is the bucket of ponto_clockin_batch_duration_seconds above
// which Batching counts a batch as slow.
const slowBatch = 0.01

// lookupRoute is the batched lookup's route template on the employee
// service's internal listener.
const lookupRoute = "/internal/funcionarios"

// readBatchCounters scrapes timekeeping's group-commit histogram and the
// employee service's request counter of the batched lookup.
func (r *runner) readBatchCounters(ctx context.Context) (batchCounters, error) {
	o := r.stack.Options()
	tk, err := scrape(ctx, fmt.Sprintf("http://127.0.0.1:%d/metrics", o.Ports["timekeeping"].Internal))
	if err != nil {
		return batchCounters{}, err
	}
	emp, err := scrape(ctx, fmt.Sprintf("http://127.0.0.1:%d/metrics", o.Ports["employee"].Internal))
	if err != nil {
		return batchCounters{}, err
	}
	c := countBatches(tk, emp)
	c.postgres = backendsCPU(ctx, r.pools["timekeeping"], r.stack.DatabaseNames())
	return c, nil
}

// countBatches reads the counters from timekeeping's and the employee
// service's metric families.
func countBatches(tk, emp map[string]*dto.MetricFamily) batchCounters {
	var c batchCounters
	if f := tk["ponto_clockin_batch_size"]; f != nil {
		for _, m := range f.GetMetric() {
			c.batches += float64(m.GetHistogram().GetSampleCount())
			c.punches += m.GetHistogram().GetSampleSum()
		}
	}
	if f := tk["ponto_clockin_batch_duration_seconds"]; f != nil {
		for _, m := range f.GetMetric() {
			h := m.GetHistogram()
			c.seconds += h.GetSampleSum()
			// The batches within the largest bucket up to slowBatch (the
			// buckets ascend, and so do their cumulative counts).
			var within uint64
			for _, b := range h.GetBucket() {
				if b.GetUpperBound() <= slowBatch {
					within = b.GetCumulativeCount()
				}
			}
			c.over10ms += float64(h.GetSampleCount() - within)
		}
	}
	if f := emp["http_requests_total"]; f != nil {
		for _, m := range f.GetMetric() {
			if label(m, "route") == lookupRoute && label(m, "method") == http.MethodGet {
				c.lookups += m.GetCounter().GetValue()
			}
		}
	}
	return c
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// batching is what happened between two readings, for ops operations.
func batching(before, after batchCounters, ops int64) *Batching {
	b := &Batching{Batches: int64(after.batches - before.batches), Lookups: int64(after.lookups - before.lookups)}
	if b.Batches > 0 {
		b.PerBatch = (after.punches - before.punches) / float64(b.Batches)
		b.MeanMs = 1000 * (after.seconds - before.seconds) / float64(b.Batches)
		b.Over10Ms = int64(after.over10ms - before.over10ms)
	}
	if b.Lookups > 0 {
		v := float64(ops) / float64(b.Lookups)
		b.PerLookup = &v
	}
	if before.postgres != nil && after.postgres != nil {
		b.Postgres = perOp(before.postgres, after.postgres, ops)
	}
	return b
}

// scrape reads a /metrics page with Prometheus' own text parser.
func scrape(ctx context.Context, u string) (map[string]*dto.MetricFamily, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d", u, resp.StatusCode)
	}
	return parseMetrics(resp.Body)
}

// parseMetrics reads a /metrics page with Prometheus' own text parser.
func parseMetrics(body io.Reader) (map[string]*dto.MetricFamily, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	return parser.TextToMetricFamilies(body)
}
