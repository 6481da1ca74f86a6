package database

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pressly/goose/v3"
)

// Schema is the schema version a binary was built for: the highest
// version among the migrations it embeds. Its check keeps a replica
// unready until the migrate Job brought the database there, so that no
// request and no background work meets a table that does not exist yet.
type Schema struct {
	want int64
	// reached is set once the version was seen: a schema never goes back
	// while a binary runs, so later checks cost no query.
	reached atomic.Bool
}

// ExpectSchema reads the version a binary expects from migrations (the
// same FS Migrate applies: files named like 00007_x.sql at its root). An
// FS without migration files (or nil) expects nothing.
func ExpectSchema(migrations fs.FS) (*Schema, error) {
	s := &Schema{}
	if migrations == nil {
		return s, nil
	}
	names, err := fs.Glob(migrations, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("database: schema: %w", err)
	}
	for _, name := range names {
		v, err := goose.NumericComponent(path.Base(name))
		if err != nil {
			return nil, fmt.Errorf("database: schema: %s: %w", name, err)
		}
		s.want = max(s.want, v)
	}
	return s, nil
}

// Version is the schema version expected.
func (s *Schema) Version() int64 { return s.want }

// Ready returns a readiness check on pool: it fails until goose's version
// table holds the expected version (or a later one, which an older
// replica meets during a rolling upgrade and can serve). A nil Schema
// expects nothing.
func (s *Schema) Ready(pool *pgxpool.Pool) func(context.Context) error {
	return func(ctx context.Context) error {
		if s == nil || s.want == 0 || s.reached.Load() {
			return nil
		}
		var got int64
		err := pool.QueryRow(ctx, `SELECT coalesce(max(version_id), 0) FROM goose_db_version`).Scan(&got)
		if err != nil {
			return fmt.Errorf("database: schema version: %w", err)
		}
		if got < s.want {
			return fmt.Errorf("database: schema at version %d, this build expects %d: migrations pending", got, s.want)
		}
		s.reached.Store(true)
		return nil
	}
}

// waitInterval paces Go's checks while migrations are pending.
const waitInterval = time.Second

// Go runs fn in a goroutine once the schema is at the expected version,
// and never if ctx ends first: background work (outbox relays, the chain
// audit) then starts on tables that exist instead of logging errors, or
// alerting, until the migrate Job is done.
func (s *Schema) Go(ctx context.Context, pool *pgxpool.Pool, fn func()) {
	ready := s.Ready(pool)
	go func() {
		for ready(ctx) != nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(waitInterval):
			}
		}
		fn()
	}()
}
