package stack

import (
	"context"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/tools/gateway"
)

// TestFullStack starts what make run starts, built from the real services,
// on free ports with its own databases, and checks that a request goes
// through the gateway to a service and that Stop leaves no process behind.
//
// Under "stack deps" (make test) it reuses that MinIO and stripe-mock;
// otherwise it starts its own, with MinIO data in a temporary directory.
func TestFullStack(t *testing.T) {
	out := &testOutput{}
	opts := Options{
		RepoRoot:    repoRoot(t),
		BinDir:      t.TempDir(),
		DataDir:     t.TempDir(),
		DBPrefix:    "ponto_stacktest_",
		DBSuffix:    "_" + randomHex(t),
		Deps:        StartOwn,
		Output:      out,
		StopTimeout: 10 * time.Second,
	}
	reuseTestDeps(t, &opts)
	s := startStack(t, opts, out)

	// go build of five services on two cores, then MinIO, PostgreSQL and
	// the JWKS all answering: be generous.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("%v\n%s", err, out.tail(80))
	}

	health := get(t, s.GatewayURL()+"/healthz")
	if health.status != http.StatusOK || health.body["status"] != "ok" {
		t.Fatalf("gateway /healthz = %d %v", health.status, health.body)
	}
	// Any JSON answer of timekeeping itself will do (401 without a token,
	// 404 while its routes are being written); what matters is that it is
	// neither the gateway's own "rota não encontrada" nor its 502.
	a := get(t, s.GatewayURL()+"/registropontos")
	if got := a.header.Get(gateway.ServiceHeader); got != "timekeeping" || a.status == http.StatusBadGateway {
		t.Fatalf("GET /registropontos = %d %v from %q; want an answer of timekeeping", a.status, a.json, got)
	}

	pids := s.PIDs()
	wantPIDs := len(services)
	if opts.Deps == StartOwn {
		wantPIDs += 2
	}
	if len(pids) != wantPIDs {
		t.Fatalf("PIDs = %v; want %d processes", pids, wantPIDs)
	}
	s.Stop()
	assertGone(t, pids)
	if err := s.Err(); err != nil {
		t.Fatalf("a child failed: %v\n%s", err, out.tail(80))
	}
	if !strings.Contains(out.String(), "\ntimekeeping     | ") {
		t.Errorf("no prefixed timekeeping output:\n%s", out.tail(40))
	}
}

// reuseTestDeps points opts at the MinIO and stripe-mock of "stack deps"
// when the test runs under it.
func reuseTestDeps(t *testing.T, opts *Options) {
	minio, stripe := os.Getenv("TEST_MINIO_ENDPOINT"), os.Getenv("TEST_STRIPE_URL")
	if minio == "" || stripe == "" {
		return
	}
	opts.Deps = ReuseOnly
	opts.MinIOPort = portOf(t, minio)
	opts.StripePort = portOf(t, strings.TrimPrefix(stripe, "http://"))
	opts.MinIOAccessKey = os.Getenv("TEST_MINIO_ACCESS_KEY")
	opts.MinIOSecretKey = os.Getenv("TEST_MINIO_SECRET_KEY")
}

func portOf(t *testing.T, hostport string) int {
	_, p, err := net.SplitHostPort(hostport)
	if err != nil {
		t.Fatalf("%q: %v", hostport, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return port
}
