package database

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Lock polling: replicas starting together wait for the one migrating,
// checking every second (goose's default of 5s slows every rollout) for up
// to five minutes.
const (
	lockPollSeconds = 1
	lockPollTries   = 300
)

// Migrate applies every pending goose migration found at the root of
// migrations (pass fs.Sub(embedFS, "migrations") for an embedded folder).
//
// Files are named like 00001_create_x.sql with "-- +goose Up" and
// "-- +goose Down" sections; each file runs in its own transaction, so a
// failing file leaves nothing of itself behind. Function bodies holding
// semicolons must sit between "-- +goose StatementBegin/StatementEnd".
//
// A PostgreSQL advisory lock serialises replicas migrating at once; the
// lock is scoped to the target database. Only SQL files are read (Go
// migrations registered globally with goose are ignored), and an FS with
// no migration files (or a nil FS) is a no-op. Migrate logs nothing.
//
// Every table must be classified in table_access (see accessTableDDL):
// Migrate creates that table first and fails, after migrating, naming the
// tables missing from it.
func Migrate(ctx context.Context, url string, migrations fs.FS) error {
	cc, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("database: migrate: parse url: %w", err)
	}
	if migrations == nil {
		return nil
	}
	conn, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		return fmt.Errorf("database: migrate: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := ensureAccessTable(ctx, conn); err != nil {
		return fmt.Errorf("database: migrate: table_access: %w", err)
	}
	if err := up(ctx, cc, migrations); err != nil {
		return err
	}
	access, err := tableAccess(ctx, conn)
	if err != nil {
		return fmt.Errorf("database: migrate: %w", err)
	}
	if err := checkClassified(access); err != nil {
		return fmt.Errorf("database: migrate: %w", err)
	}
	return nil
}

// up applies the pending goose migrations.
func up(ctx context.Context, cc *pgx.ConnConfig, migrations fs.FS) error {
	db := stdlib.OpenDB(*cc)
	defer db.Close()

	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(lockPollSeconds, lockPollTries))
	if err != nil {
		return fmt.Errorf("database: migrate: locker: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations,
		goose.WithSessionLocker(locker),
		goose.WithDisableGlobalRegistry(true),
	)
	if errors.Is(err, goose.ErrNoMigrations) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("database: migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("database: migrate: %w", err)
	}
	return nil
}
