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

// TestWebQuiosque walks the shared kiosk through the web client in
// Debian's chromium (tools/webtest/quiosque.mjs): the employee's PIN, the
// company's kiosk and badge, and punches at the kiosk with CPF and PIN
// and with the badge, axe on every new page. As TestWebWorkday, a missing
// browser or package fails the test.
func TestWebQuiosque(t *testing.T) {
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
	e := sharedEnv(t)
	codes := e.serveCodes(t)
	shots := filepath.Join(repoRoot(), ".data", "web")
	if err := os.MkdirAll(shots, 0o750); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "quiosque.mjs"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PONTO_URL="+e.stack.GatewayURL(), "PONTO_CODES_URL="+codes,
		"PONTO_CHROMIUM="+chromium, "PONTO_SHOTS="+shots)
	out, err := cmd.CombinedOutput()
	t.Logf("quiosque.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the browser kiosk failed: %v\n--- stack ---\n%s", err, e.tail(40))
	}
	if !strings.Contains(string(out), "quiosque: ok") {
		t.Fatal("quiosque.mjs ended without reporting success")
	}
}
