package database_test

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
)

var errMissing = errors.New("missing")

func TestOneAndPage(t *testing.T) {
	pool := dbtest.New(t, fstest.MapFS{})
	ctx := context.Background()
	const numbers = `SELECT x FROM generate_series(1, 5) x WHERE x >= $1 ORDER BY x LIMIT $2 OFFSET $3`

	n, err := database.One(ctx, pool, pgx.RowTo[int32], errMissing, "one", `SELECT x FROM generate_series(1, 5) x WHERE x = $1`, 3)
	if err != nil || n != 3 {
		t.Fatalf("One = %d, %v; want 3", n, err)
	}
	if _, err := database.One(ctx, pool, pgx.RowTo[int32], errMissing, "one", `SELECT 1 WHERE false`); err != errMissing {
		t.Fatalf("One of no row = %v; want errMissing", err)
	}
	if _, err := database.One(ctx, pool, pgx.RowTo[int32], nil, "one", `SELECT 1 WHERE false`); !errors.Is(err, pgx.ErrNoRows) {
		t.Fatalf("One of no row without notFound = %v; want pgx.ErrNoRows", err)
	}
	if _, err := database.One(ctx, pool, pgx.RowTo[int32], errMissing, "one", `SELECT 1 UNION ALL SELECT 2`); err == nil || errors.Is(err, errMissing) {
		t.Fatalf("One of two rows = %v; want an error", err)
	}

	items, total, err := database.Page(ctx, pool, pgx.RowTo[int32], "page",
		`SELECT count(*) FROM generate_series(1, 5) x WHERE x >= $1`, numbers, 2, 1, 2)
	if err != nil || total != 4 || len(items) != 2 || items[0] != 3 || items[1] != 4 {
		t.Fatalf("Page = %v, %d, %v; want [3 4], 4", items, total, err)
	}
	if _, _, err := database.Page(ctx, pool, pgx.RowTo[int32], "page", `SELECT nope`, numbers, 2, 0, 1); err == nil {
		t.Fatal("Page with a bad count: no error")
	}
}
