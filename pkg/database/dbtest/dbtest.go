// Package dbtest gives each test its own freshly migrated PostgreSQL
// database, dropped when the test ends.
//
// The server is the one in TEST_DATABASE_URL (a postgres:// URL whose
// user may create databases), by default
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable. An
// unreachable server fails the test: skipping would let a broken CI look
// green.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
)

// DefaultURL is used when TEST_DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// adminTimeout bounds each admin step (connect, create, drop) so a hung
// server fails the test quickly instead of hitting the go test timeout.
const adminTimeout = 15 * time.Second

// ServiceRole is the role tests connect as, like a service in production:
// it does not own the tables and holds only what database.Grant gives it.
// Roles are cluster-wide, so one role (and password) serves every test
// database; it is created on first use and never dropped.
const ServiceRole = "ponto_test_service"

// New creates a uniquely named database, applies migrations (may be nil)
// as the admin role of TEST_DATABASE_URL, which thus owns the tables,
// grants ServiceRole its rights and returns a pool on the database as
// ServiceRole. Cleanup closes the pool and drops the database.
func New(t testing.TB, migrations fs.FS) *pgxpool.Pool {
	t.Helper()
	pool, _ := NewWithURL(t, migrations)
	return pool
}

// NewWithURL is New that also returns the database's URL as ServiceRole,
// for code that opens its own connections (e.g. to test database.Open).
func NewWithURL(t testing.TB, migrations fs.FS) (*pgxpool.Pool, string) {
	t.Helper()
	ownerURL := CreateDatabase(t)
	dbURL := ServiceURL(t, ownerURL)

	// t.Context is cancelled before cleanups run, so everything here uses
	// its own bounded context.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := database.Migrate(ctx, ownerURL, migrations); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	if err := database.Grant(ctx, ownerURL, ServiceRole); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	pool, err := database.Open(ctx, database.Config{URL: dbURL, ConnectTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	// Registered after the drop, so it runs first: the pool must be gone
	// before the database is.
	t.Cleanup(pool.Close)
	return pool, dbURL
}

// CreateDatabase creates an empty, unmigrated database, registers its
// drop as a cleanup and returns its URL as the admin role (the owner's URL
// for migrations: pair it with ServiceURL).
func CreateDatabase(t testing.TB) string {
	t.Helper()
	admin := AdminURL()
	name := "test_" + randomHex(8)
	dbURL, err := withDatabase(admin, name)
	if err != nil {
		t.Fatalf("dbtest: TEST_DATABASE_URL: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	conn := connect(ctx, t, admin)
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("dbtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() { drop(t, admin, name) })
	return dbURL
}

// ServiceURL makes sure ServiceRole exists and returns dbURL (a test
// database's URL) with ServiceRole as its user.
func ServiceURL(t testing.TB, dbURL string) string {
	t.Helper()
	if err := ensureServiceRole(); err != nil {
		t.Fatalf("dbtest: create role %s: %v", ServiceRole, err)
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	u.User = url.UserPassword(ServiceRole, ServiceRole)
	return u.String()
}

// AsOwner opens a pool on the database of dbURL as the admin role, which
// owns the tables: for tests that play an attacker with more rights than
// the service (or set up what the service cannot). Cleanup closes it.
func AsOwner(t testing.TB, dbURL string) *pgxpool.Pool {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	ownerURL, err := withDatabase(AdminURL(), strings.TrimPrefix(u.Path, "/"))
	if err != nil {
		t.Fatalf("dbtest: TEST_DATABASE_URL: %v", err)
	}
	pool, err := database.Open(context.Background(), database.Config{URL: ownerURL, ConnectTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

var roleOnce struct {
	sync.Mutex
	done bool
}

// ensureServiceRole creates ServiceRole once per process; test binaries
// running at once may race on it, which the exception handler absorbs.
func ensureServiceRole() error {
	roleOnce.Lock()
	defer roleOnce.Unlock()
	if roleOnce.done {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	err := database.EnsureRole(ctx, AdminURL(), ServiceRole, ServiceRole)
	roleOnce.done = err == nil
	return err
}

// AdminURL is the server URL from TEST_DATABASE_URL or DefaultURL.
func AdminURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultURL
}

func connect(ctx context.Context, t testing.TB, admin string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("dbtest: PostgreSQL unreachable at %s (set TEST_DATABASE_URL or start the server): %v",
			redact(admin), err)
	}
	return conn
}

// drop removes the database; FORCE ends sessions a test left open
// (PostgreSQL 13+).
func drop(t testing.TB, admin, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Errorf("dbtest: drop database %s: connect: %v", name, err)
		return
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		t.Errorf("dbtest: drop database %s: %v", name, err)
	}
}

// withDatabase returns admin with its database path replaced by name.
func withDatabase(admin, name string) (string, error) {
	u, err := url.Parse(admin)
	if err != nil {
		return "", err
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return "", fmt.Errorf("%s: want a postgres:// URL", redact(admin))
	}
	u.Path = "/" + name
	u.RawPath = ""
	return u.String(), nil
}

// redact hides the password so failure messages can be printed safely.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails since Go 1.24
	return hex.EncodeToString(b)
}
