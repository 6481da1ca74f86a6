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

// New creates a uniquely named database, applies migrations (may be nil)
// and returns a pool on it. Cleanup closes the pool and drops the database.
func New(t testing.TB, migrations fs.FS) *pgxpool.Pool {
	t.Helper()
	pool, _ := NewWithURL(t, migrations)
	return pool
}

// NewWithURL is New that also returns the database's URL, for code that
// opens its own connections (e.g. to test Migrate or database.Open).
func NewWithURL(t testing.TB, migrations fs.FS) (*pgxpool.Pool, string) {
	t.Helper()
	dbURL := CreateDatabase(t)

	// t.Context is cancelled before cleanups run, so everything here uses
	// its own bounded context.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := database.Migrate(ctx, dbURL, migrations); err != nil {
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
// drop as a cleanup and returns its URL.
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
