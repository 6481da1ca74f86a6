package registro

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
)

// ErrNotFound means no such record (for this caller).
var ErrNotFound = domainerr.NotFound("registro de ponto não encontrado")

var errKeyReused = domainerr.Conflict("idempotencia_divergente",
	"Idempotency-Key já usada em outra marcação com dados diferentes")

// Store holds the SQL of time records.
type Store struct {
	db    *pgxpool.Pool
	clock *clock.Clock
	// lanes write the punches in batches: see ClockIn.
	lanes [lanes]lane
	// availability, when set, hears how each batch went.
	availability Availability
	// batches is told of each committed batch (ObserveBatches).
	batches func(Batch)
}

// NewStore returns a Store on db; clk stamps punches and decides workdays.
func NewStore(db *pgxpool.Pool, clk *clock.Clock) *Store { return &Store{db: db, clock: clk} }

// Rows selects time records with the columns ScanRow reads: punches with
// their adjustment, and absences not undone (whose id shares the
// punches' sequence).
// Filter it as a subquery: SELECT * FROM (Rows) r WHERE ...
const Rows = `SELECT ` + punchColumns + `
	UNION ALL
	SELECT f.id, f.empresa_id, f.funcionario_id, f.data, f.inicio_dia, 'falta',
		NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::timestamptz, NULL::text
	FROM faltas f WHERE NOT EXISTS (SELECT 1 FROM faltas_desfeitas d WHERE d.falta_id = f.id)`

// punchColumns are Rows' columns for punches alone, with their FROM.
const punchColumns = `p.id, p.empresa_id, p.funcionario_id, p.jornada, p.horario_registro, p.tipo,
		p.localizacao, p.nsr, p.hash::text, a.status, a.data_solicitar, a.motivo
	FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id`

// ScanRow reads one row of Rows.
func ScanRow(row pgx.CollectableRow) (Row, error) {
	var r Row
	err := scanRow(row, &r)
	return r, err
}

// scanRow reads Rows' columns into r, after the columns before selects
// ahead of them.
func scanRow(row pgx.Row, r *Row, before ...any) error {
	return row.Scan(r.columns(before...)...)
}

// columns are scan destinations for Rows' columns into r, after before.
func (r *Row) columns(before ...any) []any {
	return append(before, &r.ID, &r.EmpresaID, &r.FuncionarioID, &r.Jornada, &r.HorarioRegistro,
		&r.Tipo, &r.Localizacao, &r.NSR, &r.Hash, &r.AjusteStatus, &r.DataSolicitar, &r.Motivo)
}

// collectRows reads every row of rows (Rows' columns) into a slice of
// exactly their number. The rows are scanned through one set of
// destinations into a pooled scratch slice, then copied once: with
// pgx.CollectRows and ScanRow each row had a Row and a slice of
// destinations of its own, and the result grew from nothing by doubling,
// a quarter of what a clock-in allocated when its employee had punched
// before that day (docs/performance.md).
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

// Get returns record id of company empresaID (either kind), or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Row, error) {
	return database.One(ctx, s.db, ScanRow, ErrNotFound, "registro: get",
		`SELECT * FROM (`+Rows+`) r WHERE r.id = $1 AND r.empresa_id = $2`, id, empresaID)
}

// earlierSQL: employee $1's punches of workday $2 before NSR $3, the
// latest $4 of them, oldest first.
const earlierSQL = `SELECT * FROM (SELECT ` + punchColumns + `
		WHERE p.funcionario_id = $1 AND p.jornada = $2 AND p.nsr < $3
		ORDER BY p.nsr DESC LIMIT $4) x
	ORDER BY x.nsr`

func earlierOf(ctx context.Context, q database.Querier, r Row, limit int) ([]*Row, error) {
	rows, _ := q.Query(ctx, earlierSQL, r.FuncionarioID, r.Jornada, deref(r.NSR), limit)
	out, err := collectRows(rows)
	if err != nil {
		return nil, fmt.Errorf("registro: earlier: %w", err)
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

// Own returns one page of employee funcionarioID's records (punches and
// absences) whose workday is in [inicio, fim], in time order, and how many
// there are in all.
func (s *Store) Own(ctx context.Context, funcionarioID int64, inicio, fim time.Time, p page.Page) ([]Row, int, error) {
	const where = ` WHERE r.funcionario_id = $1 AND r.jornada BETWEEN $2 AND $3`
	return database.Page(ctx, s.db, ScanRow, "registro: own", `SELECT count(*) FROM (`+Rows+`) r`+where,
		`SELECT * FROM (`+Rows+`) r`+where+` ORDER BY r.horario_registro, r.id LIMIT $4 OFFSET $5`,
		p.Limit(), p.Offset(), funcionarioID, inicio, fim)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
