package stack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/tools/gateway"
	"github.com/ponto/ponto/tools/routes"
)

func TestServicesMatchRouteTable(t *testing.T) {
	var names []string
	for _, s := range services {
		names = append(names, s.name)
	}
	if !slices.Equal(names, routes.Services) {
		t.Fatalf("services %v; routes.Services %v: they must agree", names, routes.Services)
	}
}

func TestDefaults(t *testing.T) {
	o, err := Defaults().resolve()
	if err != nil {
		t.Fatal(err)
	}
	if o.GatewayAddr != "127.0.0.1:8080" || o.MinIOPort != 9000 || o.StripePort != 12111 {
		t.Fatalf("unexpected defaults: %+v", o)
	}
	if p := o.Ports["media"]; p.Public != 8085 || p.Internal != 9085 {
		t.Fatalf("media ports = %+v; want 8085/9085", p)
	}
	if got := o.databaseName("company-billing"); got != "ponto_company_billing" {
		t.Fatalf("databaseName = %q", got)
	}
	if got := o.databaseURL("ponto_employee"); got != "postgres://postgres@127.0.0.1:5432/ponto_employee?sslmode=disable" {
		t.Fatalf("databaseURL = %q", got)
	}
}

func TestFreePortsAreDistinct(t *testing.T) {
	o, err := Options{RepoRoot: t.TempDir()}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, name := range routes.Services {
		for _, p := range []int{o.Ports[name].Public, o.Ports[name].Internal} {
			if p == 0 || seen[p] {
				t.Fatalf("port %d zero or repeated in %+v", p, o.Ports)
			}
			seen[p] = true
		}
	}
}

func TestEnv(t *testing.T) {
	o, err := Defaults().resolve()
	if err != nil {
		t.Fatal(err)
	}
	o.DataDir = "/repo/.data"
	o.mailAddr = "127.0.0.1:2525"
	common := []string{
		"LOG_LEVEL=info",
		"HTTP_TRUSTED_PROXIES=127.0.0.1/32",
		"REDIS_ADDR=127.0.0.1:6379",
		"AUTH_INTERNAL_URL=http://127.0.0.1:9081",
		"COMPANY_BILLING_INTERNAL_URL=http://127.0.0.1:9082",
		"EMPLOYEE_INTERNAL_URL=http://127.0.0.1:9083",
		"TIMEKEEPING_INTERNAL_URL=http://127.0.0.1:9084",
		"MEDIA_INTERNAL_URL=http://127.0.0.1:9085",
	}
	verify := []string{
		"JWT_JWKS_URL=http://127.0.0.1:8081/.well-known/jwks.json",
		"JWT_ISSUER=ponto-auth", "JWT_AUDIENCE=ponto-api",
	}
	want := map[string][]string{
		"auth": {"HTTP_PUBLIC_ADDR=127.0.0.1:8081", "HTTP_INTERNAL_ADDR=127.0.0.1:9081",
			"JWT_ISSUER=ponto-auth", "JWT_AUDIENCE=ponto-api",
			"AUTH_KEYS_DIR=/repo/.data/auth-keys"},
		"company-billing": append([]string{"HTTP_PUBLIC_ADDR=127.0.0.1:8082", "HTTP_INTERNAL_ADDR=127.0.0.1:9082",
			"DB_URL=postgres://ponto_company_billing_service:ponto_company_billing_service@127.0.0.1:5432/ponto_company_billing?sslmode=disable",
			"STRIPE_API_URL=http://127.0.0.1:12111", "STRIPE_SECRET_KEY=sk_test_123",
			"STRIPE_WEBHOOK_SECRET=whsec_ponto_local_dev"}, verify...),
		"employee": append([]string{"HTTP_PUBLIC_ADDR=127.0.0.1:8083",
			"DB_URL=postgres://ponto_employee_service:ponto_employee_service@127.0.0.1:5432/ponto_employee?sslmode=disable"}, verify...),
		"timekeeping": append([]string{"HTTP_PUBLIC_ADDR=127.0.0.1:8084", "HTTP_INTERNAL_ADDR=127.0.0.1:9084",
			"DB_URL=postgres://ponto_timekeeping_service:ponto_timekeeping_service@127.0.0.1:5432/ponto_timekeeping?sslmode=disable",
			"LEMBRETES_SMTP_ADDR=127.0.0.1:2525", "LEMBRETES_SMTP_TLS=none"}, verify...),
		"media": append([]string{"HTTP_PUBLIC_ADDR=127.0.0.1:8085", "MINIO_ENDPOINT=127.0.0.1:9000",
			"MINIO_ACCESS_KEY=ponto", "MINIO_SECRET_KEY=ponto-dev-secret", "MINIO_BUCKET=ponto-fotos",
			"MINIO_USE_SSL=false"}, verify...),
	}
	for _, s := range services {
		env := o.env(s)
		for _, kv := range append(want[s.name], common...) {
			if !slices.Contains(env, kv) {
				t.Errorf("%s: env lacks %s; env = %v", s.name, kv, env)
			}
		}
	}
	// The running services never get the owner's URL (only migrate does).
	for _, s := range services {
		if slices.ContainsFunc(o.env(s), func(kv string) bool { return strings.HasPrefix(kv, "DB_MIGRATE_URL=") }) {
			t.Errorf("%s got DB_MIGRATE_URL", s.name)
		}
	}
	if env := o.env(services[0]); slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "DB_URL=") }) {
		t.Errorf("auth has no database but got DB_URL")
	}
	// Each service has a random secret of its own, and auth knows them all.
	auth := o.env(services[0])
	seen := map[string]bool{}
	for _, s := range services {
		secret := o.ServiceSecrets[s.name]
		if len(secret) < 32 || seen[secret] || !slices.Contains(o.env(s), "SERVICE_SECRET="+secret) {
			t.Errorf("%s: secret %q not its own 32+ characters in its env", s.name, secret)
		}
		seen[secret] = true
		if s.name != "auth" && s.name != "web" &&
			!slices.ContainsFunc(auth, func(kv string) bool {
				return strings.HasPrefix(kv, "AUTH_SERVICE_SECRETS=") && strings.Contains(kv, s.name+"="+secret)
			}) {
			t.Errorf("auth does not know %s's secret", s.name)
		}
	}
}

func TestServiceEnvComesLast(t *testing.T) {
	o := Defaults()
	o.ServiceEnv = map[string][]string{"auth": {"REDIS_ADDR=127.0.0.1:1", "AUTH_SMTP_TLS=none"}}
	o, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	env := o.env(services[0])
	if got := env[len(env)-2:]; !slices.Equal(got, []string{"REDIS_ADDR=127.0.0.1:1", "AUTH_SMTP_TLS=none"}) {
		t.Fatalf("auth env ends with %v; want ServiceEnv last so that it wins", got)
	}
	if env := o.env(services[1]); slices.Contains(env, "AUTH_SMTP_TLS=none") {
		t.Fatal("company-billing got auth's ServiceEnv")
	}
}

func TestOpenAPIFileDefault(t *testing.T) {
	root := t.TempDir()
	o, err := Options{RepoRoot: root}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if o.OpenAPIFile != "" {
		t.Fatalf("OpenAPIFile = %q without %s; want none", o.OpenAPIFile, DefaultOpenAPIFile)
	}
	file := filepath.Join(root, DefaultOpenAPIFile)
	if err := os.MkdirAll(filepath.Dir(file), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("openapi: 3.0.3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if o, err = (Options{RepoRoot: root}).resolve(); err != nil || o.OpenAPIFile != file {
		t.Fatalf("OpenAPIFile = %q, %v; want %s", o.OpenAPIFile, err, file)
	}
	if o, err = (Options{RepoRoot: root, OpenAPIFile: "other.yaml"}).resolve(); err != nil || !filepath.IsAbs(o.OpenAPIFile) || filepath.Base(o.OpenAPIFile) != "other.yaml" {
		t.Fatalf("OpenAPIFile = %q, %v; want the one given, made absolute", o.OpenAPIFile, err)
	}
}

func TestLineWriterPrefixesWholeLines(t *testing.T) {
	var buf testOutput
	out := newOutput(&buf)
	w := out.writer("auth")
	_, _ = io.WriteString(w, "um\ndo")
	_, _ = io.WriteString(w, "is\r\ntrês")
	w.Flush()
	out.printf("company-billing", "a\nb")
	want := "auth            | um\n" +
		"auth            | dois\n" +
		"auth            | três\n" +
		"company-billing | a\n" +
		"company-billing | b\n"
	if got := buf.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestLineWriterCutsEndlessLines(t *testing.T) {
	var buf testOutput
	w := newOutput(&buf).writer("x")
	_, _ = w.Write(make([]byte, 3*maxLine))
	if n := strings.Count(buf.String(), "\n"); n != 3 {
		t.Fatalf("a %d-byte line without newline gave %d lines; want 3", 3*maxLine, n)
	}
}

func TestStartFailsClearlyWhenRedisIsDown(t *testing.T) {
	opts := Options{RepoRoot: repoRoot(t), DataDir: t.TempDir(), RedisAddr: "127.0.0.1:1", Output: &testOutput{}}
	_, err := Start(t.Context(), opts)
	if err == nil || !strings.Contains(err.Error(), "Redis não responde") {
		t.Fatalf("err = %v; want Redis não responde", err)
	}
}

// standinOptions is a stack of stand-ins on free ports with the shared
// MinIO and stripe-mock and its own databases.
func standinOptions(t *testing.T, out *testOutput) Options {
	t.Setenv(standinEnv, "1")
	o := sharedDeps(t)
	o.RepoRoot = repoRoot(t)
	o.BinDir = standinBinDir(t)
	o.DataDir = t.TempDir()
	o.SkipBuild = true
	o.DBPrefix = "ponto_stacktest_"
	o.DBSuffix = "_" + randomHex(t)
	o.StopTimeout = 5 * time.Second
	o.Output = out
	return o
}

func TestStandinStack(t *testing.T) {
	out := &testOutput{}
	s := startStack(t, standinOptions(t, out), out)

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("%v\n%s", err, out.tail(50))
	}
	resp := get(t, s.GatewayURL()+"/registropontos/departamento/Vendas")
	if resp.header.Get(gateway.ServiceHeader) != "timekeeping" || resp.body["code"] != "standin_timekeeping" {
		t.Fatalf("got %d %v %v; want the timekeeping stand-in's answer", resp.status, resp.header, resp.body)
	}
	if !strings.Contains(out.String(), "timekeeping     | timekeeping stand-in ouvindo\n") {
		t.Errorf("child output not prefixed as expected:\n%s", out.tail(40))
	}
	if !hasSigningKey(s.Options().DataDir + "/auth-keys") {
		t.Errorf("auth keygen did not run")
	}
	pids := s.PIDs()
	s.Stop()
	assertGone(t, pids)
	if !strings.Contains(out.String(), "media           | partial line without newline\n") {
		t.Errorf("last partial line not flushed:\n%s", out.tail(40))
	}
	if s.Err() != nil {
		t.Errorf("Err after a clean stop = %v", s.Err())
	}
}

// StopService takes one service down without failing the stack, and
// StartService brings it back on the same ports.
func TestStopAndStartOneService(t *testing.T) {
	out := &testOutput{}
	s := startStack(t, standinOptions(t, out), out)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("%v\n%s", err, out.tail(50))
	}
	before := s.PIDs()
	tk := slices.IndexFunc(services, func(svc service) bool { return svc.name == "timekeeping" })

	if err := s.StopService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	assertGone(t, before[tk:tk+1])
	if a := get(t, s.GatewayURL()+"/registropontos/departamento/Vendas"); a.status != http.StatusBadGateway {
		t.Fatalf("timekeeping stopped: got %d %v; want the gateway's 502", a.status, a.body)
	}
	if err := s.StopService("timekeeping"); err == nil {
		t.Error("StopService of a stopped service succeeded")
	}
	if err := s.StartService("media"); err == nil {
		t.Error("StartService of a running service succeeded")
	}
	if err := s.StartService("nada"); err == nil {
		t.Error("StartService of an unknown service succeeded")
	}
	if err := s.Err(); err != nil {
		t.Fatalf("a stop asked for counted as a failure: %v", err)
	}

	if err := s.StartService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("%v\n%s", err, out.tail(50))
	}
	after := s.PIDs()
	if after[tk] == before[tk] || !slices.Equal(slices.Delete(slices.Clone(after), tk, tk+1), slices.Delete(slices.Clone(before), tk, tk+1)) {
		t.Fatalf("PIDs %v became %v; want timekeeping's alone replaced", before, after)
	}
	resp := get(t, s.GatewayURL()+"/registropontos/departamento/Vendas")
	if resp.body["code"] != "standin_timekeeping" {
		t.Fatalf("after the restart: %d %v", resp.status, resp.body)
	}
	s.Stop()
	assertGone(t, after)
	if err := s.Err(); err != nil {
		t.Fatalf("Err after a clean stop = %v", err)
	}
}

// KillService crashes one service without failing the stack; it comes
// back with StartService.
func TestKillOneService(t *testing.T) {
	out := &testOutput{}
	s := startStack(t, standinOptions(t, out), out)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("%v\n%s", err, out.tail(50))
	}
	before := s.PIDs()
	tk := slices.IndexFunc(services, func(svc service) bool { return svc.name == "timekeeping" })
	if err := s.KillService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	assertGone(t, before[tk:tk+1])
	if err := s.KillService("timekeeping"); err == nil {
		t.Error("KillService of a dead service succeeded")
	}
	if err := s.Err(); err != nil {
		t.Fatalf("a kill asked for counted as a failure: %v", err)
	}
	if err := s.StartService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("%v\n%s", err, out.tail(50))
	}
	if s.PIDs()[tk] == before[tk] {
		t.Error("timekeeping kept its pid")
	}
}

func TestStandinCrashStopsTheStack(t *testing.T) {
	out := &testOutput{}
	opts := standinOptions(t, out)
	t.Setenv(standinCrashEnv, "media")
	s := startStack(t, opts, out)
	select {
	case <-s.Failed():
	case <-time.After(time.Minute):
		t.Fatalf("the crash of media was not noticed\n%s", out.tail(40))
	}
	if err := s.Err(); err == nil || !strings.Contains(err.Error(), "media encerrou inesperadamente (código 3)") {
		t.Fatalf("Err = %v; want media's unexpected exit", err)
	}
	pids := s.PIDs()
	s.Stop()
	assertGone(t, pids)
}

func TestRunReturnsTheFailure(t *testing.T) {
	out := &testOutput{}
	opts := standinOptions(t, out)
	t.Setenv(standinCrashEnv, "auth")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	t.Cleanup(func() { dropDatabases(t, opts) })
	err := Run(ctx, opts)
	if err == nil || !strings.Contains(err.Error(), "auth encerrou inesperadamente") {
		t.Fatalf("Run = %v; want auth's unexpected exit\n%s", err, out.tail(40))
	}
	if !strings.Contains(out.String(), "stack           | parado\n") {
		t.Fatalf("Run did not stop the stack:\n%s", out.tail(40))
	}
}

// startStack starts a stack that is stopped, and its databases dropped,
// when the test ends.
func startStack(t *testing.T, opts Options, out *testOutput) *Stack {
	t.Helper()
	// Registered first so it runs last, and even when Start fails after
	// creating the databases.
	t.Cleanup(func() { dropDatabases(t, opts) })
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	s, err := Start(ctx, opts)
	if err != nil {
		t.Fatalf("Start: %v\n%s", err, out.tail(80))
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("stack output (tail):\n%s", out.tail(150))
		}
	})
	return s
}

// dropDatabases drops the test's databases; FORCE ends any connection a
// killed service may have left behind.
func dropDatabases(t *testing.T, opts Options) {
	o, err := opts.resolve()
	if err != nil {
		t.Error(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, o.PostgresURL)
	if err != nil {
		t.Errorf("drop databases: %v", err)
		return
	}
	defer conn.Close(ctx)
	for _, s := range services {
		if !s.db {
			continue
		}
		name := pgx.Identifier{o.databaseName(s.name)}.Sanitize()
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	}
}

type answer struct {
	status int
	header http.Header
	json   any            // the decoded body
	body   map[string]any // the body, when it is a JSON object
}

func get(t *testing.T, url string) answer {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, header: resp.Header}
	if err := json.NewDecoder(resp.Body).Decode(&a.json); err != nil {
		t.Fatalf("GET %s: %d, body is not JSON: %v", url, resp.StatusCode, err)
	}
	a.body, _ = a.json.(map[string]any)
	return a
}

func randomHex(t *testing.T) string {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func TestDepThatDiesIsReported(t *testing.T) {
	tools := t.TempDir()
	script := "#!/bin/sh\necho 'boom: sem disco'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(tools, "minio"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := &testOutput{}
	_, err := StartDeps(t.Context(), Options{
		RepoRoot: repoRoot(t), ToolsDir: tools, DataDir: t.TempDir(), Deps: StartOwn, Output: out,
	})
	if err == nil || !strings.Contains(err.Error(), "minio encerrou antes de responder (código 1)") {
		t.Fatalf("err = %v; want minio's early exit", err)
	}
	if !strings.Contains(out.String(), "minio           | boom: sem disco\n") {
		t.Fatalf("the dependency's own output is missing:\n%s", out)
	}
}

func TestMissingToolIsExplained(t *testing.T) {
	_, err := StartDeps(t.Context(), Options{
		RepoRoot: repoRoot(t), ToolsDir: t.TempDir(), DataDir: t.TempDir(), Deps: StartOwn, Output: &testOutput{},
	})
	if err == nil || !strings.Contains(err.Error(), "minio não encontrado") {
		t.Fatalf("err = %v; want minio não encontrado", err)
	}
}

// With RestartCrashed (make run), a crashed service is started again after
// a growing pause, said in the log, and the stack keeps running.
func TestStandinCrashRestarts(t *testing.T) {
	out := &testOutput{}
	opts := standinOptions(t, out)
	opts.RestartCrashed, opts.RestartBackoff = true, 100*time.Millisecond
	t.Setenv(standinCrashEnv, "media")
	s := startStack(t, opts, out)
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(out.tail(200), "media reiniciado") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	for time.Now().Before(deadline) && strings.Count(out.tail(400), "media encerrou inesperadamente (código 3); reiniciando em") < 2 {
		time.Sleep(100 * time.Millisecond)
	}
	log := out.tail(400)
	if !strings.Contains(log, "reiniciando em 100ms") || !strings.Contains(log, "reiniciando em 200ms") || !strings.Contains(log, "media reiniciado") {
		t.Fatalf("no restart with a growing pause in the log\n%s", log)
	}
	select {
	case <-s.Failed():
		t.Fatalf("the stack failed: %v", s.Err())
	default:
	}
	pids := s.PIDs()
	s.Stop()
	assertGone(t, pids)
}
