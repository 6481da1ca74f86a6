package floor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The floor reads the report's SQL from the service's source; this fails
// as soon as that source changes shape beyond what LoadReportSQL reads.
func TestLoadReportSQLFromTheService(t *testing.T) {
	q, err := LoadReportSQL(filepath.Join("..", "..", "..", ReportSourceDir))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(q.Settings, "SET LOCAL") || len(q.Steps) == 0 {
		t.Fatalf("settings %q, %d queries", q.Settings, len(q.Steps))
	}
	listed := false
	for _, s := range q.Steps {
		listed = listed || !s.All
		if !strings.Contains(s.SQL, "registros_ponto") || strings.Contains(s.SQL, "{{") {
			t.Errorf("%s is not the finished report SQL:\n%.300s", s.Name, s.SQL)
		}
	}
	if !listed {
		t.Error("no query for the listed employees")
	}
}

func TestLoadReportSQLEvaluatesConstants(t *testing.T) {
	dir := t.TempDir()
	src := `package relatorio

import "strings"

const base = "SELECT {{x}} FROM registros_ponto" + " WHERE true"

var (
	one = strings.Replace(base, "{{x}}", "1", 1)
	two = strings.ReplaceAll(base, "{{x}}", "2") + " LIMIT 1"
)

type Params struct{}
type Store struct{}

func (s *Store) Report(listed, all Params) {
	exec("SET LOCAL jit = off")
	query(one, listed)
	query(two, all)
}

func exec(string)          {}
func query(string, Params) {}
`
	if err := os.WriteFile(filepath.Join(dir, "query.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	q, err := LoadReportSQL(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{{Name: "one", SQL: "SELECT 1 FROM registros_ponto WHERE true"},
		{Name: "two", SQL: "SELECT 2 FROM registros_ponto WHERE true LIMIT 1", All: true}}
	if q.Settings != "SET LOCAL jit = off" || len(q.Steps) != 2 || q.Steps[0] != want[0] || q.Steps[1] != want[1] {
		t.Fatalf("got %+v", q)
	}
}
