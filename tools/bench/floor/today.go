package floor

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/tools/bench/load"
)

// The Today page's floor (GET /registropontos/hoje): a company's day
// cannot cost less than reading that day's punches of its employees in
// order (RawSQL over one day) and their schedules from the employee
// database, one after the other, as the page needs both.

// schedulesSQL reads a company's active employees with their schedules'
// rows: what the page's roster call costs the employee database at least.
const schedulesSQL = `SELECT f.id, e.horarios FROM funcionarios f
JOIN escalas_trabalho e ON e.id = f.escala_trabalho_id
WHERE f.empresa_id = $1 AND f.ativo`

// LoadCompany reads the company's active employees.
func LoadCompany(ctx context.Context, db *pgxpool.Pool, empresaID int64) ([]Staff, error) {
	rows, _ := db.Query(ctx, `SELECT id FROM funcionarios WHERE empresa_id = $1 AND ativo ORDER BY nome, id`, empresaID)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Staff, error) {
		var s Staff
		return s, row.Scan(&s.ID)
	})
}

// TimeToday times the day's raw read (the punches of day for staff, on
// tk, then the schedules on emp) back to back for d, at least three
// times, and returns the latencies and the rows read.
func TimeToday(ctx context.Context, tk, emp *pgxpool.Pool, settings string, empresaID int64, staff []Staff,
	day time.Time, d time.Duration) (load.Result, int64, error) {
	p := Params(empresaID, day, day, staff)
	return timeTx(ctx, d, func() (int64, error) {
		n, err := ReadRaw(ctx, tk, settings, p)
		if err != nil {
			return 0, err
		}
		m, err := ReadSchedules(ctx, emp, empresaID)
		return n + m, err
	})
}

// ReadSchedules reads the company's employees' schedules once and
// returns the rows read.
func ReadSchedules(ctx context.Context, emp *pgxpool.Pool, empresaID int64) (int64, error) {
	var n int64
	err := pgx.BeginTxFunc(ctx, emp, txOptions, func(tx pgx.Tx) (err error) {
		n, err = readRaw(ctx, tx, schedulesSQL, empresaID)
		return err
	})
	return n, err
}
