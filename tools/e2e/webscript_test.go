package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// webTools is what the browser tests need on the machine: Debian's
// chromium, node and tools/webtest's npm packages. They are installed by
// deploy/local/ensure-webtest.sh (make test runs it); a missing one fails
// the test, never skips it.
type webTools struct{ chromium, node, dir string }

func needWebTools(t *testing.T) webTools {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: run deploy/local/ensure-webtest.sh (make test does)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: run deploy/local/ensure-webtest.sh (make test does)")
	}
	dir := filepath.Join(repoRoot(), "tools", "webtest")
	for _, pkg := range []string{"playwright-core", "axe-core"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("%s is not installed in tools/webtest: run deploy/local/ensure-webtest.sh (make test does)", pkg)
		}
	}
	return webTools{chromium: chromium, node: node, dir: dir}
}

// run runs tools/webtest/<script>.mjs against e's gateway, screenshots
// under .data/web, with env added, and fails unless it reports
// "<script>: ok"; what names the walk in the failure.
func (w webTools) run(t *testing.T, e *env, script, what string, timeout time.Duration, env ...string) {
	t.Helper()
	shots := filepath.Join(repoRoot(), ".data", "web")
	if err := os.MkdirAll(shots, 0o750); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.node, filepath.Join(w.dir, script+".mjs"))
	cmd.Dir = w.dir
	cmd.Env = append(append(os.Environ(), "PONTO_URL="+e.stack.GatewayURL(),
		"PONTO_CHROMIUM="+w.chromium, "PONTO_SHOTS="+shots), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("%s.mjs:\n%s", script, out)
	if err != nil {
		t.Fatalf("the browser %s failed: %v\n--- stack ---\n%s", what, err, e.tail(40))
	}
	if !strings.Contains(string(out), script+": ok") {
		t.Fatalf("%s.mjs ended without reporting success", script)
	}
}
