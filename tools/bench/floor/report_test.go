package floor

import (
	"strings"
	"testing"
)

// The floor times the SQL the service runs, taken from the same package.
func TestLoadReportSQLIsTheServices(t *testing.T) {
	q := LoadReportSQL()
	if !strings.HasPrefix(q.Settings, "SET LOCAL") || len(q.Steps) != 2 || q.Steps[0].All || !q.Steps[1].All {
		t.Fatalf("settings %q, steps %+v", q.Settings, q.Steps)
	}
	for _, s := range q.Steps {
		if !strings.Contains(s.SQL, "registros_ponto") || strings.Contains(s.SQL, "{{") {
			t.Errorf("%s is not the finished report SQL:\n%.300s", s.Name, s.SQL)
		}
	}
}
