// Package layout checks that every service keeps the layout of
// docs/architecture.md: main.go and routes.go at its module root, and no
// peer client outside internal/clients.
package layout

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
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

// TestPeerClientsOnlyInInternalClients: outside internal/clients/..., only
// the module root (main.go configures the peers' URLs as svcclient.URL)
// and test files may import pkg/svcclient.
func TestPeerClientsOnlyInInternalClients(t *testing.T) {
	for _, s := range services {
		root := filepath.Join(servicesDir, s)
		for _, file := range goFiles(t, root) {
			rel, _ := filepath.Rel(root, file)
			if !importsSvcclient(t, file) || allowedSvcclient(rel) {
				continue
			}
			t.Errorf("services/%s/%s imports pkg/svcclient: peer clients belong in internal/clients/<peer> (docs/architecture.md)", s, filepath.ToSlash(rel))
		}
	}
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
	default:
		return strings.HasPrefix(rel, "internal/clients/")
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

func importsSvcclient(t *testing.T, path string) bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == svcclient {
			return true
		}
	}
	return false
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
