package floor

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/reportsql"
	"github.com/ponto/ponto/tools/bench/load"
)

// ReportSQL is the report's SQL as the service's Store.Fatos runs it:
// the settings of its transaction, then its queries, sent together in
// one batch, each with the arguments it takes from the parameters.
type ReportSQL struct {
	Settings string `json:"settings"`
	Steps    []Step `json:"consultas"`
}

// Step is one query of the report.
type Step struct {
	// Name says what it reads (reportsql.Statement.Name).
	Name string `json:"nome"`
	SQL  string `json:"-"`
	args func(reportsql.Params) []any
}

// LoadReportSQL is what the service's Store.Fatos runs, taken from the
// package the service itself takes it from (reportsql): the SET LOCAL of
// its transaction and its batch of queries. (Store.Fatos also reads the
// company's pontos facultativos, one row by primary key, before the batch.)
func LoadReportSQL() ReportSQL {
	q := ReportSQL{Settings: reportsql.Settings}
	for _, st := range reportsql.Statements {
		q.Steps = append(q.Steps, Step{Name: st.Name, SQL: st.SQL, args: st.Args})
	}
	return q
}

// Staff is one employee of the department.
type Staff struct{ ID int64 }

// LoadDepartment reads the department's employees from the employee
// database, ordered as the by-name route orders them (name, id).
func LoadDepartment(ctx context.Context, db *pgxpool.Pool, empresaID int64, nome string) ([]Staff, error) {
	rows, _ := db.Query(ctx, `SELECT f.id FROM funcionarios f
		JOIN departamentos d ON d.id = f.departamento_id
		WHERE f.empresa_id = $1 AND lower(d.nome) = lower($2) ORDER BY f.nome, f.id`, empresaID, nome)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Staff, error) {
		var s Staff
		return s, row.Scan(&s.ID)
	})
}

// ReportParams are the report SQL's parameters.
type ReportParams = reportsql.Params

// Params builds the parameters for staff, as relatorio.NewParams does.
func Params(empresaID int64, inicio, fim time.Time, staff []Staff) ReportParams {
	p := ReportParams{EmpresaID: empresaID, Inicio: inicio, Fim: fim}
	for _, s := range staff {
		p.Funcionarios = append(p.Funcionarios, s.ID)
	}
	return p
}

// RawSQL is the floor under the report's SQL: the ordered read of
// exactly the punches a report covers (its company, its department's
// employees, its period), grouped per employee and workday as the report
// groups them, with nothing computed. A report cannot cost less than
// reading its punches in order; what it costs above this is its SQL's
// joins and arrays and the service's work.
// Parameters: $1 company, $2 employees, $3..$4 the period.
const RawSQL = `SELECT funcionario_id, jornada, array_agg(horario_registro ORDER BY horario_registro)
FROM registros_ponto
WHERE empresa_id = $1 AND funcionario_id = ANY($2::bigint[]) AND jornada BETWEEN $3::date AND $4::date
GROUP BY funcionario_id, jornada`

// TimeReport runs the report's SQL as Store.Fatos does (one read-only
// repeatable-read transaction: the settings, then the batch) for p back
// to back on one connection for d, at least three times, and returns the
// latencies and the rows read. Rows are read raw: the floor is
// PostgreSQL's work and the transfer, not decoding.
func TimeReport(ctx context.Context, db *pgxpool.Pool, q ReportSQL, p ReportParams, d time.Duration) (load.Result, int64, error) {
	return timeTx(ctx, d, func() (int64, error) { return RunReport(ctx, db, q, p) })
}

// TimeRaw runs RawSQL for all's employees and period as TimeReport runs
// the report's SQL: in the same kind of transaction, with the same
// settings, back to back for d, at least three times.
func TimeRaw(ctx context.Context, db *pgxpool.Pool, settings string, all ReportParams, d time.Duration) (load.Result, int64, error) {
	return timeTx(ctx, d, func() (int64, error) { return ReadRaw(ctx, db, settings, all) })
}

// ReadRaw runs RawSQL once for all's employees and period, in the
// report's kind of transaction with its settings, and returns the rows
// read (employee-days).
func ReadRaw(ctx context.Context, db *pgxpool.Pool, settings string, all ReportParams) (int64, error) {
	var n int64
	err := pgx.BeginTxFunc(ctx, db, txOptions, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, settings); err != nil {
			return err
		}
		var err error
		n, err = readRaw(ctx, tx, RawSQL, all.EmpresaID, all.Funcionarios, all.Inicio, all.Fim)
		return err
	})
	return n, err
}

var txOptions = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// timeTx times run back to back for d, at least three times; run returns
// the rows it read.
func timeTx(ctx context.Context, d time.Duration, run func() (int64, error)) (load.Result, int64, error) {
	h := load.NewLatencies()
	var rowsRead int64
	start := time.Now()
	for n := 0; n < 3 || time.Since(start) < d; n++ {
		if err := ctx.Err(); err != nil {
			return load.Result{}, 0, err
		}
		t0 := time.Now()
		rows, err := run()
		if err != nil {
			return load.Result{}, 0, err
		}
		h.Record(time.Since(t0))
		rowsRead = rows
	}
	return h.Result(time.Since(start)), rowsRead, nil
}

// readRaw runs sql and reads its rows without decoding them.
func readRaw(ctx context.Context, tx pgx.Tx, sql string, args ...any) (int64, error) {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return 0, err
	}
	return drain(rows)
}

// drain reads rows without decoding them.
func drain(rows pgx.Rows) (int64, error) {
	defer rows.Close()
	var n int64
	for rows.Next() {
		_ = rows.RawValues()
		n++
	}
	return n, rows.Err()
}

// RunReport runs the report's SQL once as Store.Fatos does, and returns
// the rows read.
func RunReport(ctx context.Context, db *pgxpool.Pool, q ReportSQL, p ReportParams) (int64, error) {
	var n int64
	err := pgx.BeginTxFunc(ctx, db, txOptions, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q.Settings); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, st := range q.Steps {
			b.Queue(st.SQL, st.args(p)...)
		}
		br := tx.SendBatch(ctx, b)
		defer br.Close()
		for _, st := range q.Steps {
			rows, err := br.Query()
			if err != nil {
				return fmt.Errorf("%s: %w", st.Name, err)
			}
			read, err := drain(rows)
			if err != nil {
				return fmt.Errorf("%s: %w", st.Name, err)
			}
			n += read
		}
		return br.Close()
	})
	return n, err
}
