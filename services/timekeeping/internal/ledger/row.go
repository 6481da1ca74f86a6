package ledger

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/database"
)

// Row is a time record as stored: a punch with its adjustment, if any, or
// an absence (Tipo falta; no location, NSR or hash).
type Row struct {
	ID              int64
	EmpresaID       int64
	FuncionarioID   int64
	Jornada         time.Time
	HorarioRegistro time.Time
	Tipo            string
	Localizacao     *string
	NSR             *int64
	Hash            *string
	AjusteStatus    *string
	DataSolicitar   *time.Time
	Motivo          *string
	// Gravacao is an off-line punch's recording time (its arrival); nil
	// for a punch recorded as it was made.
	Gravacao *time.Time
}

// PunchColumns are the columns Row reads for punches, with their FROM
// (alias p for the punch).
const PunchColumns = `p.id, p.empresa_id, p.funcionario_id, p.jornada, p.horario_registro, p.tipo,
		p.localizacao, p.nsr, p.hash::text, a.status, a.data_solicitar, a.motivo, p.gravado_em
	FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id`

// ScanRow reads one row of PunchColumns' columns.
func ScanRow(row pgx.CollectableRow) (Row, error) {
	var r Row
	err := scanRow(row, &r)
	return r, err
}

// scanRow reads the columns into r, after the columns before selects
// ahead of them.
func scanRow(row pgx.Row, r *Row, before ...any) error {
	return row.Scan(r.columns(before...)...)
}

// columns are scan destinations for the columns into r, after before.
func (r *Row) columns(before ...any) []any {
	return append(before, &r.ID, &r.EmpresaID, &r.FuncionarioID, &r.Jornada, &r.HorarioRegistro,
		&r.Tipo, &r.Localizacao, &r.NSR, &r.Hash, &r.AjusteStatus, &r.DataSolicitar, &r.Motivo,
		&r.Gravacao)
}

// collectRows reads every row of rows into a slice of exactly their
// number. The rows are scanned through one set of destinations into a
// pooled scratch slice, then copied once: with pgx.CollectRows and
// ScanRow each row had a Row and a slice of destinations of its own, and
// the result grew from nothing by doubling, a quarter of what a clock-in
// allocated when its employee had punched before that day
// (docs/performance.md).
func collectRows(rows pgx.Rows) ([]Row, error) {
	defer rows.Close()
	scratch := scratchRows.Get().(*[]Row)
	defer func() {
		clear(*scratch) // the pool keeps no record's strings alive
		*scratch = (*scratch)[:0]
		scratchRows.Put(scratch)
	}()
	var r Row
	dest := r.columns()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		*scratch = append(*scratch, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return slices.Clone(*scratch), nil
}

// scratchRows are collectRows' scratch slices. A clock-in batch reads at
// most maxBatch × maxEarlier rows, which bounds what one keeps.
var scratchRows = sync.Pool{New: func() any { return new([]Row) }}

// earlierSQL: employee $1's punches of workday $2 before NSR $3, the
// latest $4 of them, oldest first.
const earlierSQL = `SELECT * FROM (SELECT ` + PunchColumns + `
		WHERE p.funcionario_id = $1 AND p.jornada = $2 AND p.nsr < $3
		ORDER BY p.nsr DESC LIMIT $4) x
	ORDER BY x.nsr`

func earlierOf(ctx context.Context, q database.Querier, r Row, limit int) ([]*Row, error) {
	rows, _ := q.Query(ctx, earlierSQL, r.FuncionarioID, r.Jornada, deref(r.NSR), limit)
	out, err := collectRows(rows)
	if err != nil {
		return nil, fmt.Errorf("ledger: earlier: %w", err)
	}
	return pointersTo(out), nil
}

// pointersTo points at each of rows, in order: the clock-in's answer
// renders its earlier punches where they were read (outcome).
func pointersTo(rows []Row) []*Row {
	out := make([]*Row, len(rows))
	for i := range rows {
		out[i] = &rows[i]
	}
	return out
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
