// Package falta keeps the absences a company marks
// (POST /registropontos/{funcionarioId}/marcar-falta/{data}): one record
// per employee and date, tipo falta, never on a day with punches. They are
// not REP punches: no NSR, no hash, no place in the chain.
package falta

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

var (
	errDiaComMarcacoes = domainerr.Conflict("dia_com_marcacoes", "o funcionário tem marcações de ponto nesta data")
	errSemFalta        = domainerr.NotFound("não há falta registrada para o funcionário nesta data")
)

// Store holds the SQL of absences.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Falta is an absence to mark.
type Falta struct {
	EmpresaID     int64
	FuncionarioID int64
	Data          time.Time // civil date
	InicioDia     time.Time // the company-local midnight starting Data
}

// Mark records f unless the employee already has a standing absence on
// that date (one not undone), and returns the absence either way; 409
// when the date is in a closed period. It takes the company's chain
// lock, as every clock-in does, so that no punch of that day can be
// committed between the check for punches and the insert.
func (s *Store) Mark(ctx context.Context, f Falta, now time.Time) (registro.Row, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, f.EmpresaID); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, standing, f.FuncionarioID, f.Data).Scan(&id)
		if err == nil {
			return nil // idempotent: the same absence again
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("falta: find: %w", err)
		}
		if err := fechamento.CheckOpen(ctx, tx, f.EmpresaID, f.Data); err != nil {
			return err
		}
		var punches bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM registros_ponto WHERE funcionario_id = $1 AND jornada = $2)`,
			f.FuncionarioID, f.Data).Scan(&punches); err != nil {
			return fmt.Errorf("falta: punches: %w", err)
		}
		if punches {
			return errDiaComMarcacoes
		}
		if err := tx.QueryRow(ctx, `INSERT INTO faltas (empresa_id, funcionario_id, data, inicio_dia, registrado_em)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			f.EmpresaID, f.FuncionarioID, f.Data, f.InicioDia, now).Scan(&id); err != nil {
			return fmt.Errorf("falta: insert: %w", err)
		}
		return nil
	})
	if err != nil {
		return registro.Row{}, err
	}
	return s.get(ctx, id)
}

// standing finds an employee's ($1) absence of a date ($2) that was not
// undone: there is at most one, kept so under the company lock.
const standing = `SELECT f.id FROM faltas f WHERE f.funcionario_id = $1 AND f.data = $2
	AND NOT EXISTS (SELECT 1 FROM faltas_desfeitas d WHERE d.falta_id = f.id)`

// Undo undoes employee funcionarioID's absence of data, recording who
// (autor) and why: 404 when he has none standing that day (or is another
// company's), 409 when the date is in a closed period. The absence stays
// in faltas; the date may be marked again.
func (s *Store) Undo(ctx context.Context, empresaID, funcionarioID int64, data time.Time, autor int64, motivo string,
	now time.Time) error {
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		var id int64
		err := tx.QueryRow(ctx, standing+` AND f.empresa_id = $3`, funcionarioID, data, empresaID).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return errSemFalta
		}
		if err != nil {
			return fmt.Errorf("falta: find: %w", err)
		}
		if err := fechamento.CheckOpen(ctx, tx, empresaID, data); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO faltas_desfeitas (falta_id, empresa_id, motivo, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5)`, id, empresaID, motivo, autor, now)
		if err != nil {
			return fmt.Errorf("falta: undo: %w", err)
		}
		return nil
	})
}

func (s *Store) get(ctx context.Context, id int64) (registro.Row, error) {
	return database.One(ctx, s.db, registro.ScanRow, nil, "falta: get",
		`SELECT * FROM (`+registro.Rows+`) r WHERE r.id = $1`, id)
}

// Ausencia is a standing absence that no whole-day abono excuses.
type Ausencia struct {
	FuncionarioID int64
	Data          time.Time
}

// Unexcused returns company empresaID's unexcused absences dated in
// [inicio, fim], by employee and date.
func (s *Store) Unexcused(ctx context.Context, empresaID int64, inicio, fim time.Time) ([]Ausencia, error) {
	rows, _ := s.db.Query(ctx, `SELECT f.funcionario_id, f.data FROM faltas f
		WHERE f.empresa_id = $1 AND f.data BETWEEN $2 AND $3
		AND NOT EXISTS (SELECT 1 FROM faltas_desfeitas x WHERE x.falta_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM abonos a WHERE a.funcionario_id = f.funcionario_id AND a.data = f.data
			AND a.inicio IS NULL AND NOT EXISTS (SELECT 1 FROM abonos_cancelados c WHERE c.abono_id = a.id))
		ORDER BY f.funcionario_id, f.data`, empresaID, inicio, fim)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Ausencia])
	if err != nil {
		return nil, fmt.Errorf("falta: unexcused: %w", err)
	}
	return out, nil
}
