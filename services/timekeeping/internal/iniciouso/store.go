// Package iniciouso is the company's first day on ponto (migration 00016):
// the days before it owe nothing (core.AntesDoUso). The report's read
// (package relatorio) applies it to every workday figure.
package iniciouso

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
)

// Store holds the setting.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Read is company empresaID's first day on ponto, nil when not set. The
// report reads it inside its own snapshot (q its transaction).
func Read(ctx context.Context, q querier, empresaID int64) (*time.Time, error) {
	var d time.Time
	err := q.QueryRow(ctx, `SELECT data FROM inicio_uso_empresas WHERE empresa_id = $1`, empresaID).Scan(&d)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("iniciouso: read: %w", err)
	}
	return &d, nil
}

// Get is company empresaID's first day on ponto, nil when not set.
func (s *Store) Get(ctx context.Context, empresaID int64) (*time.Time, error) {
	return Read(ctx, s.db, empresaID)
}

// Set records data as company empresaID's first day on ponto (nil: unset).
// Moving it changes the figures of the days between the former and the
// new date (from the beginning of time when either is unset), so none of
// them may be inside a closed period (409 periodo_fechado); the check
// runs under the company's chain lock, as every treatment's.
func (s *Store) Set(ctx context.Context, empresaID int64, data *time.Time, now time.Time) error {
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		old, err := Read(ctx, tx, empresaID)
		if err != nil {
			return err
		}
		if de, ate, ok := changed(old, data); ok {
			if err := fechamento.CheckOpenRange(ctx, tx, empresaID, de, ate); err != nil {
				return err
			}
		}
		if data == nil {
			_, err = tx.Exec(ctx, `DELETE FROM inicio_uso_empresas WHERE empresa_id = $1`, empresaID)
		} else {
			_, err = tx.Exec(ctx, `INSERT INTO inicio_uso_empresas (empresa_id, data, atualizado_em) VALUES ($1, $2, $3)
				ON CONFLICT (empresa_id) DO UPDATE SET data = EXCLUDED.data, atualizado_em = EXCLUDED.atualizado_em`,
				empresaID, *data, now)
		}
		if err != nil {
			return fmt.Errorf("iniciouso: set: %w", err)
		}
		return nil
	})
}

// changed is the days whose figures move from first day a to b: from de
// (nil: the beginning of time) to the day before ate; false when none.
func changed(a, b *time.Time) (de *time.Time, ate time.Time, ok bool) {
	switch {
	case a == nil && b == nil:
		return nil, time.Time{}, false
	case a == nil:
		return nil, *b, true
	case b == nil:
		return nil, *a, true
	case a.Equal(*b):
		return nil, time.Time{}, false
	case a.Before(*b):
		return a, *b, true
	default:
		return b, *a, true
	}
}
