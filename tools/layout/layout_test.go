// Package layout checks that every service keeps the layout of
// docs/architecture.md: main.go and routes.go at its module root, no peer
// client outside internalapi and internal/clients, and no service
// importing another's code except that service's internalapi.
package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// services are the modules under services/ the layout applies to; a new
// service must be added here (and the test fails until it is).
var services = []string{"auth", "company-billing", "employee", "media", "timekeeping", "web"}

// svcclient is the package every call to a peer's internal API goes
// through.
const svcclient = "github.com/ponto/ponto/pkg/svcclient"

// servicesPath is the import path of the services' modules.
const servicesPath = "github.com/ponto/ponto/services/"

const servicesDir = "../../services"

func TestEveryServiceIsListed(t *testing.T) {
	mods, err := filepath.Glob(filepath.Join(servicesDir, "*", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, m := range mods {
		found = append(found, filepath.Base(filepath.Dir(m)))
	}
	slices.Sort(found)
	want := slices.Sorted(slices.Values(services))
	if !slices.Equal(found, want) {
		t.Fatalf("services with a go.mod = %v, want %v (update services in this test and docs/architecture.md)", found, want)
	}
}

func TestMainAndRoutesAtModuleRoot(t *testing.T) {
	for _, s := range services {
		for _, f := range []string{"main.go", "routes.go"} {
			path := filepath.Join(servicesDir, s, f)
			if pkg := packageName(t, path); pkg != "main" {
				t.Errorf("%s: package %q, want main", path, pkg)
			}
		}
	}
}

// TestPeerClientsOnlyInInternalClients: outside internalapi/... (the
// service's own internal API and its client) and internal/clients/...
// (what a caller adds to a peer's client), only the module root (main.go
// configures the peers' URLs as svcclient.URL), auth's service-token route
// and test files may import pkg/svcclient.
func TestPeerClientsOnlyInInternalClients(t *testing.T) {
	for _, s := range services {
		root := filepath.Join(servicesDir, s)
		for _, file := range goFiles(t, root) {
			rel, _ := filepath.Rel(root, file)
			if !slices.Contains(imports(t, file), svcclient) || allowedSvcclient(rel) {
				continue
			}
			t.Errorf("services/%s/%s imports pkg/svcclient: peer clients belong in the peer's internalapi or in internal/clients/<peer> (docs/architecture.md)", s, filepath.ToSlash(rel))
		}
	}
}

// TestServicesShareOnlyInternalAPIs: a service imports of another service
// only its internalapi package, and an internalapi package imports no
// service at all (it is a module of its own that depends only on pkg).
func TestServicesShareOnlyInternalAPIs(t *testing.T) {
	for _, s := range services {
		root := filepath.Join(servicesDir, s)
		for _, file := range goFiles(t, root) {
			rel, _ := filepath.Rel(root, file)
			for _, imp := range imports(t, file) {
				if !allowedImport(s, filepath.ToSlash(rel), imp) {
					t.Errorf("services/%s/%s imports %s: a service may use another only through its internalapi (docs/architecture.md)", s, filepath.ToSlash(rel), imp)
				}
			}
		}
	}
}

func TestAllowedImport(t *testing.T) {
	for _, c := range []struct {
		service, rel, imp string
		want              bool
	}{
		{"timekeeping", "internal/clients/employee/client.go", "github.com/ponto/ponto/services/employee/internalapi", true},
		{"timekeeping", "routes.go", "github.com/ponto/ponto/services/timekeeping/internal/eventos", true},
		{"timekeeping", "internal/eventos/eventos.go", "github.com/ponto/ponto/services/timekeeping/internalapi", true},
		{"timekeeping", "internal/relatorio/rules.go", "github.com/ponto/ponto/pkg/page", true},
		{"timekeeping", "internal/relatorio/rules.go", "encoding/json", true},
		{"timekeeping", "internal/clients/employee/client.go", "github.com/ponto/ponto/services/employee/internal/escala", false},
		{"timekeeping", "harness_test.go", "github.com/ponto/ponto/services/employee", false},
		{"media", "internal/foto/handlers.go", "github.com/ponto/ponto/services/employee/internalapi/sub", false},
		{"media", "internal/foto/handlers.go", "github.com/ponto/ponto/services/employeex/internalapi", false},
		{"employee", "internalapi/client.go", "github.com/ponto/ponto/pkg/svcclient", true},
		{"employee", "internalapi/client.go", "github.com/ponto/ponto/services/employee/internal/escala", false},
		{"timekeeping", "internalapi/client.go", "github.com/ponto/ponto/services/employee/internalapi", false},
	} {
		if got := allowedImport(c.service, c.rel, c.imp); got != c.want {
			t.Errorf("allowedImport(%s, %s, %s) = %v, want %v", c.service, c.rel, c.imp, got, c.want)
		}
	}
}

// allowedImport reports whether file rel of service may import imp.
func allowedImport(service, rel, imp string) bool {
	other, ok := strings.CutPrefix(imp, servicesPath)
	switch {
	case !ok:
		return true
	case rel == "internalapi" || strings.HasPrefix(rel, "internalapi/"):
		return false
	case strings.HasPrefix(other, service+"/"):
		return true
	}
	name, pkg, _ := strings.Cut(other, "/")
	return slices.Contains(services, name) && pkg == "internalapi"
}

func TestAllowedSvcclient(t *testing.T) {
	for rel, want := range map[string]bool{
		"main.go":                                true,
		"harness_test.go":                        true,
		"internal/clients/employee/client.go":    true,
		"internal/clients/employee/cache.go":     true,
		"internal/foto/handlers.go":              false,
		"internal/funcionario/revoke.go":         false,
		"internal/clients.go":                    false,
		"internal/clientsx/employee/client.go":   false,
		"chainaudit/main.go":                     false,
		"internal/empresas/harness_test.go":      true,
		"internal/registro/clients/peer/peer.go": false,
		"internalapi/client.go":                  true,
		"internal/internalapi/client.go":         false,
	} {
		if got := allowedSvcclient(filepath.FromSlash(rel)); got != want {
			t.Errorf("allowedSvcclient(%q) = %v, want %v", rel, got, want)
		}
	}
}

// allowedSvcclient reports whether the file at rel (relative to the
// module root) may import pkg/svcclient.
func allowedSvcclient(rel string) bool {
	rel = filepath.ToSlash(rel)
	switch {
	case strings.HasSuffix(rel, "_test.go"):
		return true
	case !strings.Contains(rel, "/"):
		return true // the module root, package main
	case rel == "internal/tokens/servicos.go":
		return true // auth serves the service-token exchange whose wire types pkg/svcclient defines
	default:
		return strings.HasPrefix(rel, "internal/clients/") || strings.HasPrefix(rel, "internalapi/")
	}
}

func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no Go file", root)
	}
	return files
}

// imports lists the import paths of the Go file at path.
func imports(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, p)
	}
	return out
}

func packageName(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("%v (docs/architecture.md: every service has main.go and routes.go at its module root)", err)
		return "main"
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	return f.Name.Name
}

// chainHeads names the table of timekeeping's chain heads in SQL.
var chainHeads = regexp.MustCompile(`\bcadeias\b`)

// TestOnlyTheLedgerNamesTheChainHeads: the ledger
// (services/timekeeping/internal/ledger) is the one writer of the REP's
// chains, so no other code of timekeeping (tests aside) has a string that
// names their heads' table (docs/architecture.md).
func TestOnlyTheLedgerNamesTheChainHeads(t *testing.T) {
	root := filepath.Join(servicesDir, "timekeeping")
	for _, file := range goFiles(t, root) {
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "internal/ledger/") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && chainHeads.MatchString(lit.Value) {
				t.Errorf("services/timekeeping/%s names the chain heads (cadeias): only internal/ledger may", rel)
			}
			return true
		})
	}
}

// reportSQL is the facts' SQL the workday engine runs.
const reportSQL = "github.com/ponto/ponto/services/timekeeping/reportsql"

// TestOnlyTheEngineReadsTheWorkdayFacts: every reader of computed
// workdays asks the workday engine (services/timekeeping/internal/apuracao),
// so no other code of timekeeping (tests aside) imports its SQL
// (docs/architecture.md).
func TestOnlyTheEngineReadsTheWorkdayFacts(t *testing.T) {
	root := filepath.Join(servicesDir, "timekeeping")
	for _, file := range goFiles(t, root) {
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "internal/apuracao/") {
			continue
		}
		if slices.Contains(imports(t, file), reportSQL) {
			t.Errorf("services/timekeeping/%s imports reportsql: workdays are read through internal/apuracao", rel)
		}
	}
}
