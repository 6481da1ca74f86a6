package registro

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// ErrNotFound means no such record (for this caller).
var ErrNotFound = domainerr.NotFound("registro de ponto não encontrado")

// Store holds the SQL of time records; punches are written by the
// ledger (ClockIn).
type Store struct {
	db     *pgxpool.Pool
	ledger *ledger.Ledger
}

// NewStore returns a Store on db; clk stamps punches and decides workdays.
func NewStore(db *pgxpool.Pool, clk *clock.Clock) *Store {
	return &Store{db: db, ledger: ledger.New(db, clk)}
}

// Ledger is the writer of the chains the store's clock-ins go to.
func (s *Store) Ledger() *ledger.Ledger { return s.ledger }

// The ledger's clock-in types, under the names registro's users know.
type (
	// Row is a time record as stored (ledger.Row).
	Row = ledger.Row
	// Marcacao is a clock-in to record.
	Marcacao = ledger.Marcacao
	// Geofence is where a punch fell against the company's work places.
	Geofence = ledger.Geofence
	// Batch is what one clock-in transaction committed.
	Batch = ledger.Batch
)

// ClockIn records p through the ledger: see ledger.Ledger.ClockIn.
func (s *Store) ClockIn(ctx context.Context, p Marcacao) (Row, []*Row, bool, error) {
	return s.ledger.ClockIn(ctx, p)
}

// WatchAvailability has the ledger tell a of every batch written or
// refused (the AFD's type-6 records).
func (s *Store) WatchAvailability(a ledger.Availability) { s.ledger.WatchAvailability(a) }

// ObserveBatches has f told of every committed batch (the metrics).
func (s *Store) ObserveBatches(f func(Batch)) { s.ledger.ObserveBatches(f) }

// Rows selects time records with the columns ScanRow reads: punches with
// their adjustment, and absences not undone (whose id shares the
// punches' sequence).
// Filter it as a subquery: SELECT * FROM (Rows) r WHERE ...
const Rows = `SELECT ` + ledger.PunchColumns + `
	UNION ALL
	SELECT f.id, f.empresa_id, f.funcionario_id, f.data, f.inicio_dia, 'falta',
		NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::timestamptz, NULL::text,
		NULL::timestamptz
	FROM faltas f WHERE NOT EXISTS (SELECT 1 FROM faltas_desfeitas d WHERE d.falta_id = f.id)`

// ScanRow reads one row of Rows.
func ScanRow(row pgx.CollectableRow) (Row, error) { return ledger.ScanRow(row) }

// Get returns record id of company empresaID (either kind), or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Row, error) {
	return database.One(ctx, s.db, ScanRow, ErrNotFound, "registro: get",
		`SELECT * FROM (`+Rows+`) r WHERE r.id = $1 AND r.empresa_id = $2`, id, empresaID)
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
