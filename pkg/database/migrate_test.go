package database_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
)

var testMigrations = os.DirFS("testdata/migrations")

func TestMigrateApplies(t *testing.T) {
	t.Parallel()
	pool, url := dbtest.NewWithURL(t, testMigrations)
	ctx := context.Background()

	if got := gooseVersions(t, dbtest.AsOwner(t, url)); got != 2 {
		t.Fatalf("applied migrations = %d, want 2", got)
	}
	// The trigger from 00002 exists, which also proves StatementBegin/End
	// kept the function body whole.
	var id int64
	if err := pool.QueryRow(ctx, "INSERT INTO widgets (name) VALUES ('a') RETURNING id").Scan(&id); err != nil {
		t.Fatalf("insert: %v", err)
	}
	if _, err := pool.Exec(ctx, "UPDATE widgets SET name = 'b' WHERE id = $1", id); err != nil {
		t.Fatalf("update: %v", err)
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	pool, url := ownerDB(t)

	for range 2 {
		if err := database.Migrate(context.Background(), url, testMigrations); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
	}
	if got := gooseVersions(t, pool); got != 2 {
		t.Fatalf("applied migrations = %d, want 2", got)
	}
}

func TestMigrateWithoutFilesIsNoop(t *testing.T) {
	t.Parallel()
	pool, url := ownerDB(t)
	onlyReadme := fstest.MapFS{"README.md": {Data: []byte("migrations go here")}}

	if err := database.Migrate(context.Background(), url, onlyReadme); err != nil {
		t.Fatalf("Migrate(README only) = %v, want nil", err)
	}
	if tableExists(t, pool, "goose_db_version") {
		t.Fatal("a no-op Migrate created goose_db_version")
	}
}

func TestMigrateBrokenFileLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	pool, url := ownerDB(t)
	ctx := context.Background()
	fsys := fstest.MapFS{
		"00001_ok.sql": {Data: []byte("-- +goose Up\nCREATE TABLE a (id int);\n" + classify("a") + "\n-- +goose Down\nDROP TABLE a;\n")},
		"00002_broken.sql": {Data: []byte("-- +goose Up\nCREATE TABLE b (id int);\n" + classify("b") + "\nSELEC oops;\n" +
			"-- +goose Down\nDROP TABLE b;\n")},
	}

	if err := database.Migrate(ctx, url, fsys); err == nil {
		t.Fatal("Migrate with a broken file returned nil")
	}
	if !tableExists(t, pool, "a") {
		t.Error("00001 should stay applied")
	}
	if tableExists(t, pool, "b") {
		t.Error("table b from the failed 00002 survived: the file was not run in a transaction")
	}
	if got := gooseVersions(t, pool); got != 1 {
		t.Errorf("applied migrations = %d, want 1", got)
	}

	// Once fixed, the next deploy picks up where the last one stopped.
	fsys["00002_broken.sql"].Data = []byte("-- +goose Up\nCREATE TABLE b (id int);\n" + classify("b") + "\n-- +goose Down\nDROP TABLE b;\n")
	if err := database.Migrate(ctx, url, fsys); err != nil {
		t.Fatalf("Migrate after fix: %v", err)
	}
	if !tableExists(t, pool, "b") {
		t.Error("table b missing after the fixed migration")
	}
}

func TestMigrateConcurrentReplicas(t *testing.T) {
	t.Parallel()
	pool, url := ownerDB(t)
	// The sleep widens the window in which unserialised runs would collide
	// on CREATE TABLE or on goose's version table.
	fsys := fstest.MapFS{
		"00001_slow.sql": {Data: []byte("-- +goose Up\nSELECT pg_sleep(0.3);\nCREATE TABLE slow (id int);\n" + classify("slow") + "\n" +
			"-- +goose Down\nDROP TABLE slow;\n")},
		"00002_more.sql": {Data: []byte("-- +goose Up\nCREATE TABLE more (id int);\n" + classify("more") + "\n-- +goose Down\nDROP TABLE more;\n")},
	}

	const replicas = 4
	errs := make([]error, replicas)
	var wg sync.WaitGroup
	for i := range replicas {
		wg.Go(func() { errs[i] = database.Migrate(context.Background(), url, fsys) })
	}
	wg.Wait()

	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
		}
	}
	if got := gooseVersions(t, pool); got != 2 {
		t.Errorf("applied migrations = %d, want 2 (each exactly once)", got)
	}
}

func TestMigrateBadURL(t *testing.T) {
	t.Parallel()
	err := database.Migrate(context.Background(), "postgres://postgres@127.0.0.1:1/x?connect_timeout=1", testMigrations)
	if err == nil {
		t.Fatal("Migrate against a closed port returned nil")
	}
}

// gooseVersions counts applied migrations (goose also stores a version 0
// row when it creates its table).
func gooseVersions(t *testing.T, db querier) int {
	t.Helper()
	var n int
	err := db.QueryRow(context.Background(),
		"SELECT count(*) FROM goose_db_version WHERE version_id > 0 AND is_applied").Scan(&n)
	if err != nil {
		t.Fatalf("count goose versions: %v", err)
	}
	return n
}

func tableExists(t *testing.T, db querier, name string) bool {
	t.Helper()
	var ok bool
	if err := db.QueryRow(context.Background(), "SELECT to_regclass($1) IS NOT NULL", name).Scan(&ok); err != nil {
		t.Fatalf("to_regclass(%s): %v", name, err)
	}
	return ok
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ownerDB is an empty test database and a pool on it as the owner, the
// role migrations run as.
func ownerDB(t *testing.T) (*pgxpool.Pool, string) {
	t.Helper()
	url := dbtest.CreateDatabase(t)
	return dbtest.AsOwner(t, url), url
}

// classify is the statement a migration creating table adds.
func classify(table string) string {
	return "INSERT INTO table_access (table_name, access) VALUES ('" + table + "', 'read_write');"
}
