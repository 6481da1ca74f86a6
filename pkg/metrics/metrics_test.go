package metrics_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/metrics"
)

func TestREDSeriesAndRuntimeCollectors(t *testing.T) {
	m := metrics.New("employee")
	m.ObserveRequest("public", "/funcionarios/:id", "GET", 200, 3*time.Millisecond)
	m.ObserveRequest("public", "/funcionarios/:id", "GET", 500, 7*time.Millisecond)

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)

	for _, want := range []string{
		`http_requests_total{listener="public",method="GET",route="/funcionarios/:id",service="employee",status="200"} 1`,
		`http_requests_total{listener="public",method="GET",route="/funcionarios/:id",service="employee",status="500"} 1`,
		`http_request_duration_seconds_count{listener="public",method="GET",route="/funcionarios/:id",service="employee"} 2`,
		"go_goroutines",
		"process_resident_memory_bytes",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics output lacks %q", want)
		}
	}
}
