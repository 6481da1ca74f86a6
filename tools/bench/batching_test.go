package bench

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

func families(t *testing.T, page string) map[string]*dto.MetricFamily {
	t.Helper()
	f, err := parseMetrics(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The group commits and the batched lookups are read from the services'
// own pages: the histogram's count and sum, and only the lookup route's
// GET requests of the employee service's counter.
func TestBatchingFromTheServicesMetrics(t *testing.T) {
	tk := func(count, sum int) map[string]*dto.MetricFamily {
		// A batch takes 4 ms, one in ten 12 ms.
		fast := count - count/10
		seconds := strconv.FormatFloat(float64(fast)*0.004+float64(count/10)*0.012, 'f', -1, 64)
		return families(t, strings.NewReplacer("COUNT", strconv.Itoa(count), "SUM", strconv.Itoa(sum),
			"FAST", strconv.Itoa(fast), "SECONDS", seconds).Replace(`
# TYPE ponto_clockin_batch_size histogram
ponto_clockin_batch_size_bucket{le="1"} 0
ponto_clockin_batch_size_bucket{le="+Inf"} COUNT
ponto_clockin_batch_size_sum SUM
ponto_clockin_batch_size_count COUNT
# TYPE ponto_clockin_batch_duration_seconds histogram
ponto_clockin_batch_duration_seconds_bucket{le="0.005"} FAST
ponto_clockin_batch_duration_seconds_bucket{le="0.01"} FAST
ponto_clockin_batch_duration_seconds_bucket{le="0.025"} COUNT
ponto_clockin_batch_duration_seconds_bucket{le="+Inf"} COUNT
ponto_clockin_batch_duration_seconds_sum SECONDS
ponto_clockin_batch_duration_seconds_count COUNT
`))
	}
	emp := func(lookups int) map[string]*dto.MetricFamily {
		return families(t, strings.ReplaceAll(`
# TYPE http_requests_total counter
http_requests_total{listener="internal",route="/internal/funcionarios",method="GET",status="200"} N
http_requests_total{listener="internal",route="/internal/funcionarios/:funcionarioId",method="GET",status="200"} 999
http_requests_total{listener="public",route="/funcionarios",method="POST",status="201"} 7
`, "N", strconv.Itoa(lookups)))
	}
	before, after := countBatches(tk(10, 100), emp(5)), countBatches(tk(30, 700), emp(55))
	before.postgres = map[string]time.Duration{"timekeeping": time.Second, "employee": time.Second}
	after.postgres = map[string]time.Duration{"timekeeping": 1300 * time.Millisecond, "employee": 1065 * time.Millisecond}
	b := batching(before, after, 650)
	if b.Batches != 20 || b.PerBatch != 30 || b.Lookups != 50 || b.PerLookup == nil || *b.PerLookup != 13 {
		t.Fatalf("batching = %+v (per lookup %v), want 20 batches of 30, 50 lookups of 13", b, b.PerLookup)
	}
	if math.Abs(b.MeanMs-4.8) > 1e-9 || b.Over10Ms != 2 {
		t.Fatalf("batch time: mean %v ms, %d over 10 ms; want 4.8 ms and 2", b.MeanMs, b.Over10Ms)
	}
	if got := b.Postgres; len(got) != 2 || math.Abs(got["timekeeping"]-300.0/650) > 1e-9 || math.Abs(got["employee"]-0.1) > 1e-9 {
		t.Fatalf("postgres by service = %v, want timekeeping %.4f and employee 0.1 ms per punch", got, 300.0/650)
	}
	if b := batching(before, before, 0); b.Batches != 0 || b.PerBatch != 0 || b.PerLookup != nil {
		t.Fatalf("nothing between the readings: %+v", b)
	}
}
