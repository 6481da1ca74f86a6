package database_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ardanlabs/conf/v3"
	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/metrics"
)

func TestOpenAndPing(t *testing.T) {
	t.Parallel()
	_, url := dbtest.NewWithURL(t, nil)
	ctx := context.Background()

	pool, err := database.Open(ctx, database.Config{URL: url, MaxConns: 3, ConnectTimeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer pool.Close()

	if err := database.Ping(pool)(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if got := pool.Config().MaxConns; got != 3 {
		t.Errorf("MaxConns = %d, want 3", got)
	}
	if pool.Config().ConnConfig.Tracer == nil {
		t.Error("no tracer installed on the pool")
	}
}

func TestOpenDoesNotNeedTheDatabase(t *testing.T) {
	t.Parallel()
	// Nothing listens on port 1: a service must still start, and only
	// report not-ready.
	cfg := database.Config{URL: "postgres://postgres@127.0.0.1:1/x?sslmode=disable", ConnectTimeout: time.Second}
	pool, err := database.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open with the database down = %v, want nil", err)
	}
	defer pool.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := database.Ping(pool)(ctx); err == nil {
		t.Fatal("Ping with the database down returned nil")
	}
}

func TestOpenRejectsBadURL(t *testing.T) {
	t.Parallel()
	if _, err := database.Open(context.Background(), database.Config{URL: "postgres://%zz"}); err == nil {
		t.Fatal("Open with an unparsable URL returned nil")
	}
}

func TestEnsureDatabaseIsIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin := dbtest.AdminURL()
	// Quotes, a hyphen and capitals make sure the identifier is quoted.
	name := `Ensure-` + randomHex() + `"q"`
	t.Cleanup(func() { dropDatabase(t, name) })

	// Concurrent first calls race on CREATE DATABASE; all must succeed.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = database.EnsureDatabase(ctx, admin, name) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("EnsureDatabase #%d: %v", i, err)
		}
	}
	if err := database.EnsureDatabase(ctx, admin, name); err != nil {
		t.Fatalf("EnsureDatabase on an existing database: %v", err)
	}
	if !databaseExists(t, name) {
		t.Fatalf("database %q was not created", name)
	}
}

func TestEnsureDatabaseRejectsEmptyName(t *testing.T) {
	t.Parallel()
	if err := database.EnsureDatabase(context.Background(), dbtest.AdminURL(), ""); err == nil {
		t.Fatal("EnsureDatabase with an empty name returned nil")
	}
}

func TestDBTestDropsItsDatabase(t *testing.T) {
	t.Parallel()
	var name string
	t.Run("uses a fresh database", func(t *testing.T) {
		pool := dbtest.New(t, testMigrations)
		if err := pool.QueryRow(context.Background(), "SELECT current_database()").Scan(&name); err != nil {
			t.Fatalf("current_database: %v", err)
		}
		if !strings.HasPrefix(name, "test_") {
			t.Errorf("database name %q, want a test_ prefix", name)
		}
		// Left open on purpose: the drop must still succeed.
		if _, err := pool.Exec(context.Background(), "SELECT 1"); err != nil {
			t.Fatal(err)
		}
	})
	if name == "" {
		t.Fatal("sub-test did not report its database")
	}
	if databaseExists(t, name) {
		t.Fatalf("database %s still exists after the test ended", name)
	}
}

// TestConfigFromEnv pins the env names services rely on and that the URL
// password is masked when the config is printed.
func TestConfigFromEnv(t *testing.T) {
	var cfg struct{ DB database.Config }
	t.Setenv("PONTOTEST_DB_URL", "postgres://app:s3cret@db:5432/ponto")
	t.Setenv("PONTOTEST_DB_MIGRATE_URL", "postgres://owner:0wn3r@db:5432/ponto")
	t.Setenv("PONTOTEST_DB_MAX_CONNS", "7")

	if _, err := conf.Parse("PONTOTEST", &cfg); err != nil {
		t.Fatalf("conf.Parse: %v", err)
	}
	if cfg.DB.URL != "postgres://app:s3cret@db:5432/ponto" || cfg.DB.MaxConns != 7 ||
		cfg.DB.MigrateURL != "postgres://owner:0wn3r@db:5432/ponto" {
		t.Errorf("parsed %+v", cfg.DB)
	}
	if cfg.DB.ConnectTimeout != 5*time.Second || cfg.DB.MinConns != 0 {
		t.Errorf("defaults not applied: %+v", cfg.DB)
	}
	out, err := conf.String(&cfg)
	if err != nil {
		t.Fatalf("conf.String: %v", err)
	}
	if strings.Contains(out, "s3cret") || strings.Contains(out, "0wn3r") {
		t.Errorf("password printed:\n%s", out)
	}
}

func databaseExists(t *testing.T, name string) bool {
	t.Helper()
	conn := adminConn(t)
	defer conn.Close(context.Background())
	var ok bool
	err := conn.QueryRow(context.Background(), "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok)
	if err != nil {
		t.Fatalf("lookup %s: %v", name, err)
	}
	return ok
}

func dropDatabase(t *testing.T, name string) {
	conn := adminConn(t)
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Errorf("drop %s: %v", name, err)
	}
}

func adminConn(t *testing.T) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbtest.AdminURL())
	if err != nil {
		t.Fatalf("admin connect: %v", err)
	}
	return conn
}

func randomHex() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func TestCollectorExportsPoolStats(t *testing.T) {
	t.Parallel()
	_, url := dbtest.NewWithURL(t, nil)
	ctx := context.Background()
	pool, err := database.Open(ctx, database.Config{URL: url, MaxConns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	m := metrics.New("employee")
	m.MustRegister(database.Collector(pool))
	for range 2 {
		if err := database.Ping(pool)(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := gauges(t, m)
	if got["pgxpool_max_conns"] != 3 || got["pgxpool_acquire_count"] < 2 || got["pgxpool_total_conns"] < 1 {
		t.Errorf("pool series = %v, want max 3, at least 2 acquires and 1 connection", got)
	}
}

// gauges gathers m's registry: each family's first value, by name, for
// the families labelled service="employee".
func gauges(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		mt := f.GetMetric()[0]
		for _, l := range mt.GetLabel() {
			if l.GetName() == "service" && l.GetValue() == "employee" {
				out[f.GetName()] = mt.GetGauge().GetValue() + mt.GetCounter().GetValue()
			}
		}
	}
	return out
}

func TestEnsureRoleIsIdempotentUnderRaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	role := `ponto-test-Role-` + randomHex() + `"q"`
	t.Cleanup(func() {
		conn := adminConn(t)
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP ROLE IF EXISTS "+pgx.Identifier{role}.Sanitize()); err != nil {
			t.Errorf("drop role: %v", err)
		}
	})
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = database.EnsureRole(ctx, dbtest.AdminURL(), role, "it's secret") })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("EnsureRole #%d: %v", i, err)
		}
	}
	conn := adminConn(t)
	defer conn.Close(context.Background())
	var login bool
	if err := conn.QueryRow(ctx, "SELECT rolcanlogin FROM pg_roles WHERE rolname = $1", role).Scan(&login); err != nil || !login {
		t.Fatalf("role %q: login %v, %v", role, login, err)
	}
}
