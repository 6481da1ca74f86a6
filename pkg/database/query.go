package database

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Querier runs queries: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// RowQuerier runs queries and queries of one row.
type RowQuerier interface {
	Querier
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// One runs sql and reads its single row with scan. No row is notFound
// (when notFound is nil, an error like any other); any other failure is
// wrapped as "what: err".
func One[T any](ctx context.Context, q Querier, scan pgx.RowToFunc[T], notFound error, what, sql string,
	args ...any) (T, error) {
	rows, _ := q.Query(ctx, sql, args...)
	v, err := pgx.CollectExactlyOneRow(rows, scan)
	if notFound != nil && errors.Is(err, pgx.ErrNoRows) {
		return v, notFound
	}
	if err != nil {
		return v, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// Page reads one page of a list and how many rows the list has in all:
// count selects the count, rows the page, both with args, and rows takes
// limit and offset as the two parameters after them. Failures are wrapped
// as "what: count: err" and "what: list: err".
func Page[T any](ctx context.Context, q RowQuerier, scan pgx.RowToFunc[T], what, count, rows string, limit, offset int,
	args ...any) ([]T, int, error) {
	var total int
	if err := q.QueryRow(ctx, count, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("%s: count: %w", what, err)
	}
	r, _ := q.Query(ctx, rows, append(args[:len(args):len(args)], limit, offset)...)
	items, err := pgx.CollectRows(r, scan)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: list: %w", what, err)
	}
	return items, total, nil
}
