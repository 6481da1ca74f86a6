package floor

import (
	"strings"
	"testing"
	"time"
)

// The floor times the SQL the service runs, taken from the same package.
func TestLoadReportSQLIsTheServices(t *testing.T) {
	q := LoadReportSQL()
	if !strings.HasPrefix(q.Settings, "SET LOCAL") || len(q.Steps) < 2 {
		t.Fatalf("settings %q, steps %+v", q.Settings, q.Steps)
	}
	last := q.Steps[len(q.Steps)-1]
	if last.Name != "marcacoes" || !strings.Contains(last.SQL, "registros_ponto") {
		t.Errorf("the punches are not the batch's last read: %s\n%.300s", last.Name, last.SQL)
	}
	for _, s := range q.Steps {
		if s.SQL == "" || s.args == nil || len(s.args(Params(1, time.Time{}, time.Time{}, []Staff{{ID: 2}}))) == 0 {
			t.Errorf("%s has no SQL or no arguments", s.Name)
		}
	}
}
