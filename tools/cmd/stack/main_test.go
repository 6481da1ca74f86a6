package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/tools/stack"
)

// depsOptions starts MinIO and stripe-mock of the test's own, on free
// ports, so the test neither needs nor disturbs a running make run.
func depsOptions(t *testing.T) (stack.Options, *bytes.Buffer) {
	_, here, _, _ := runtime.Caller(0)
	log := &bytes.Buffer{}
	ports := freePorts(t, 2)
	return stack.Options{
		RepoRoot:    filepath.Join(filepath.Dir(here), "..", "..", ".."),
		DataDir:     t.TempDir(),
		Deps:        stack.StartOwn,
		MinIOPort:   ports[0],
		StripePort:  ports[1],
		StopTimeout: 10 * time.Second,
		Output:      log,
	}, log
}

func TestDepsRunsTheCommandWithTheirAddresses(t *testing.T) {
	opts, log := depsOptions(t)
	minio := "127.0.0.1:" + strconv.Itoa(opts.MinIOPort)
	stripe := "http://127.0.0.1:" + strconv.Itoa(opts.StripePort)
	script := `test "$TEST_MINIO_ENDPOINT" = "` + minio + `" &&
		test "$TEST_MINIO_ACCESS_KEY" = ponto && test "$TEST_MINIO_SECRET_KEY" = ponto-dev-secret &&
		test "$TEST_STRIPE_URL" = "` + stripe + `" && echo ok && exit 7`
	var stdout, stderr bytes.Buffer
	code := withDeps(opts, []string{"sh", "-c", script}, strings.NewReader(""), &stdout, &stderr)
	if code != 7 || stdout.String() != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 7 and ok\nlog:\n%s", code, stdout.String(), stderr.String(), log)
	}
	// Stopped on the way out: nothing answers on their ports any more.
	for _, addr := range []string{minio, strings.TrimPrefix(stripe, "http://")} {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			t.Errorf("%s still answers after stack deps returned", addr)
		}
	}
}

func TestDepsExitCodeOfASignalledCommand(t *testing.T) {
	opts, _ := depsOptions(t)
	code := withDeps(opts, []string{"sh", "-c", "kill -TERM $$"}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	if code != 128+15 {
		t.Fatalf("exit %d; want 143 (128+SIGTERM)", code)
	}
}

func TestDepsMissingCommand(t *testing.T) {
	var stderr bytes.Buffer
	if code := runDeps([]string{"--"}, &stderr); code != 2 || !strings.Contains(stderr.String(), "uso:") {
		t.Fatalf("exit %d, %q; want 2 and the usage", code, stderr.String())
	}
}

func TestParseFlags(t *testing.T) {
	opts, err := parseFlags([]string{"-gateway", "127.0.0.1:18080", "-log-level", "debug", "-no-build"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if opts.GatewayAddr != "127.0.0.1:18080" || opts.LogLevel != "debug" || !opts.SkipBuild {
		t.Fatalf("opts = %+v", opts)
	}
	if opts.Ports["auth"].Public != 8081 || opts.MinIOPort != 9000 {
		t.Fatalf("flags must keep the make run defaults: %+v", opts)
	}
	if _, err := parseFlags([]string{"extra"}, &bytes.Buffer{}); err == nil {
		t.Fatal("a stray argument should be refused")
	}
	if _, err := parseFlags([]string{"-h"}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: err = %v; want flag.ErrHelp", err)
	}
}

// freePorts are n distinct ports nothing listens on, below the
// ephemeral range; each is held until all are found.
func freePorts(t *testing.T, n int) []int {
	var ports []int
	for p := 21000 + int(time.Now().UnixNano()%5000); p < 32000 && len(ports) < n; p++ {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err == nil {
			defer l.Close()
			ports = append(ports, p)
		}
	}
	if len(ports) < n {
		t.Fatal("no free ports")
	}
	return ports
}

func TestPostgresAndRedisFromFlagsOrEnvironment(t *testing.T) {
	t.Setenv("PONTO_POSTGRES_URL", "postgres://ponto@db.local:5433/postgres")
	t.Setenv("PONTO_REDIS_ADDR", "cache.local:6380")
	opts, err := parseFlags(nil, io.Discard)
	if err != nil || opts.PostgresURL != "postgres://ponto@db.local:5433/postgres" || opts.RedisAddr != "cache.local:6380" {
		t.Fatalf("from the environment: %+v, %v", opts, err)
	}
	opts, err = parseFlags([]string{"-postgres-url", "postgres://x@h:1/postgres", "-redis-addr", "h:2"}, io.Discard)
	if err != nil || opts.PostgresURL != "postgres://x@h:1/postgres" || opts.RedisAddr != "h:2" {
		t.Fatalf("from the flags: %+v, %v", opts, err)
	}
}
