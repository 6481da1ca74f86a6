package stack

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/logging/logtest"
)

// standinEnv makes the test binary, started under a service's name,
// behave as a trivial stand-in for that service (see standin), so the
// process handling is tested without building the real services.
const (
	standinEnv      = "PONTO_STACK_STANDIN"
	standinCrashEnv = "PONTO_STACK_STANDIN_CRASH"
)

func TestMain(m *testing.M) {
	if os.Getenv(standinEnv) != "" {
		os.Exit(standin())
	}
	code := m.Run()
	stopSharedDeps()
	os.Exit(code)
}

// standin is a fake service: it checks the env the stack must pass,
// answers "migrate", serves a JSON 404 on the public port and the probes
// on the internal one, and exits 0 on SIGTERM.
func standin() int {
	name := filepath.Base(os.Args[0])
	if missing := missingEnv(name); len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "faltam variáveis: %v\n", missing)
		return 2
	}
	if len(os.Args) > 1 {
		return standinCommand(name, os.Args[1])
	}
	// Like the real auth, refuse to start without a signing key.
	if keys, _ := filepath.Glob(filepath.Join(os.Getenv("AUTH_KEYS_DIR"), "*.pem")); name == "auth" && len(keys) == 0 {
		fmt.Fprintln(os.Stderr, "no signing key")
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	public := &http.Server{Addr: os.Getenv("HTTP_PUBLIC_ADDR"), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"message":"stand-in","code":"standin_%s"}`, name)
	})}
	internal := &http.Server{Addr: os.Getenv("HTTP_INTERNAL_ADDR"), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"status":"ok"}`)
	})}
	for _, srv := range []*http.Server{public, internal} {
		go func() { _ = srv.ListenAndServe() }()
	}
	fmt.Printf("%s stand-in ouvindo\npartial line without newline", name)
	if os.Getenv(standinCrashEnv) == name {
		time.Sleep(500 * time.Millisecond)
		return 3
	}
	<-ctx.Done()
	return 0
}

// standinCommand answers "migrate" (the DB services) and "keygen" (auth).
func standinCommand(name, cmd string) int {
	switch {
	case cmd == "migrate" && name != "auth" && name != "media":
		// The owner migrates; the service role is another one.
		owner, service := os.Getenv("DB_MIGRATE_URL"), os.Getenv("DB_URL")
		if owner == "" || !strings.Contains(service, "_service:") || strings.Contains(owner, "_service:") {
			fmt.Fprintf(os.Stderr, "migrate wants the owner's DB_MIGRATE_URL and the service's DB_URL\n")
			return 1
		}
		fmt.Println("migrate ok")
		return 0
	case cmd == "keygen" && name == "auth":
		key := filepath.Join(os.Getenv("AUTH_KEYS_DIR"), "2026-01-01T000000Z.pem")
		if err := os.WriteFile(key, []byte("fake key\n"), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "unknown command %q\n", cmd)
	return 2
}

func missingEnv(name string) []string {
	want := []string{"HTTP_PUBLIC_ADDR", "HTTP_INTERNAL_ADDR", "LOG_LEVEL", "REDIS_ADDR", "AUTH_INTERNAL_URL", "MEDIA_INTERNAL_URL"}
	switch name {
	case "auth":
		want = append(want, "AUTH_KEYS_DIR", "JWT_ISSUER")
	case "company-billing":
		want = append(want, "DB_URL", "STRIPE_API_URL", "JWT_JWKS_URL")
	case "employee":
		want = append(want, "DB_URL", "JWT_JWKS_URL")
	case "timekeeping":
		want = append(want, "DB_URL", "JWT_JWKS_URL", "SIGNING_CERT_FILE", "SIGNING_CERT_PASSWORD_FILE")
	case "media":
		want = append(want, "MINIO_ENDPOINT", "MINIO_BUCKET", "JWT_JWKS_URL")
	}
	var missing []string
	for _, k := range want {
		if os.Getenv(k) == "" {
			missing = append(missing, k)
		}
	}
	return missing
}

// standinBinDir links every service name to the test binary.
func standinBinDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, s := range services {
		if err := os.Symlink(self, filepath.Join(dir, s.name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// shared MinIO and stripe-mock for the stand-in tests, started once on
// free ports, so each test does not pay for MinIO's start.
var shared struct {
	once sync.Once
	deps *Deps
	opts Options
	dir  string
	err  error
}

func sharedDeps(t *testing.T) Options {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "stack-deps-")
		if shared.err != nil {
			return
		}
		shared.opts = Options{RepoRoot: repoRoot(t), DataDir: shared.dir, Deps: StartOwn, Output: &testOutput{}}
		shared.opts, shared.err = shared.opts.resolve()
		if shared.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		shared.deps, shared.err = startDeps(ctx, &shared.opts, newOutput(shared.opts.Output))
	})
	if shared.err != nil {
		t.Fatalf("MinIO/stripe-mock: %v\n%s", shared.err, shared.opts.Output)
	}
	return Options{
		Deps: ReuseOnly, MinIOPort: shared.opts.MinIOPort, MinIOConsolePort: shared.opts.MinIOConsolePort,
		StripePort: shared.opts.StripePort, StripeHTTPSPort: shared.opts.StripeHTTPSPort,
	}
}

func stopSharedDeps() {
	if shared.deps != nil {
		shared.deps.Stop()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
}

func repoRoot(t testing.TB) string {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("runtime.Caller")
	}
	return filepath.Join(filepath.Dir(here), "..", "..")
}

// testOutput collects the stack's output, safe for concurrent writers.
type testOutput struct{ logtest.Buffer }

// tail is the end of the output, for failure messages.
func (o *testOutput) tail(n int) string {
	lines := strings.Split(o.String(), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// assertGone checks that none of pids exists any more.
func assertGone(t *testing.T, pids []int) {
	t.Helper()
	if len(pids) == 0 {
		t.Fatal("no pids to check")
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d still exists after Stop (kill 0: %v)", pid, err)
		}
	}
}
