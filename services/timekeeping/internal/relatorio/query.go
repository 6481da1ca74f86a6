package relatorio

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/feriado"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
	"github.com/ponto/ponto/services/timekeeping/reportsql"
)

// Store runs the report's SQL.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Params select a report's employees and period (reportsql.Params) and
// carry each employee's schedule for the record core.
type Params struct {
	reportsql.Params
	// escalas are each employee's schedules as the core reads them;
	// admissoes the admission dates (YYYY-MM-DD) of those who have one.
	escalas   map[int64]*core.Escala
	admissoes map[int64]string
}

// Dia is one employee's day in the report.
type Dia struct {
	FuncionarioID      int64     `json:"-"`
	Data               string    `json:"data"`
	Marcacoes          Marcacoes `json:"marcacoes"`
	MinutosTrabalhados int       `json:"minutosTrabalhados"`
	MinutosPrevistos   int       `json:"minutosPrevistos"`
	MinutosExtras      int       `json:"minutosExtras"`
	MinutosAtraso      int       `json:"minutosAtraso"`
	SaldoMinutos       int       `json:"saldoMinutos"`
	// MinutosAbonados are the scheduled minutes excused by abonos: in the
	// balance as worked, never overtime.
	MinutosAbonados  int  `json:"minutosAbonados"`
	Falta            bool `json:"falta"`
	AjustesPendentes int  `json:"ajustesPendentes"`
	Incompleto       bool `json:"incompleto"`

	// The CLT figures (package clt): overtime split by rate, night work in
	// clock and night-hour minutes, whether the tolerance of art. 58 §1
	// absorbed the day's variations, the rest since the previous workday,
	// the company holiday and the day's alerts.
	MinutosExtras50          int      `json:"minutosExtras50"`
	MinutosExtras100         int      `json:"minutosExtras100"`
	MinutosNoturnos          int      `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int      `json:"minutosNoturnosReduzidos"`
	ToleranciaAplicada       bool     `json:"toleranciaAplicada"`
	DescansoMinutos          *int     `json:"descansoMinutos"`
	Feriado                  *string  `json:"feriado"`
	Alertas                  []string `json:"alertas"`

	// The facts the rules start from. marcas are the effective times of
	// the punches, in NSR order, as minutes after the local midnight of
	// the workday's date (past 1440 for a night shift's punches after
	// midnight; below 0 or past a day when an approved adjustment moved a
	// punch to another date).
	marcas []int
	fora   int
	// The day's treatment, parallel to marcas (incluidas,
	// desconsideradas) and its abonos (a whole day, or ranges in minutes
	// after the workday's local midnight).
	incluidas, desconsideradas []bool
	abonoDia                   bool
	abonoInicios, abonoFins    []int
	// ausencia is core.Apuracao.Ausencia, once computed.
	ausencia bool
	// data is Data as the civil date the SQL gave (UTC midnight), kept so
	// that computing a department's tens of thousands of days does not
	// parse each one back.
	data time.Time
}

// Totais sums days: minutes, absences and pending adjustments.
type Totais struct {
	MinutosTrabalhados int `json:"minutosTrabalhados"`
	MinutosPrevistos   int `json:"minutosPrevistos"`
	MinutosExtras      int `json:"minutosExtras"`
	MinutosAtraso      int `json:"minutosAtraso"`
	SaldoMinutos       int `json:"saldoMinutos"`
	MinutosAbonados    int `json:"minutosAbonados"`
	Faltas             int `json:"faltas"`
	AjustesPendentes   int `json:"ajustesPendentes"`

	MinutosExtras50          int `json:"minutosExtras50"`
	MinutosExtras100         int `json:"minutosExtras100"`
	MinutosNoturnos          int `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int `json:"minutosNoturnosReduzidos"`
	// Alertas counts the alerts of the days.
	Alertas int `json:"alertas"`
	// DSRPerdidos counts the weekly rest days lost to unexcused absences
	// (Lei 605/49 art. 6).
	DSRPerdidos int `json:"dsrPerdidos"`
}

// Report returns the rows of listed's employees and the rows of all's
// without their punches (for the department's totals), both read from one
// snapshot (a read-only repeatable-read transaction), so that the page and
// the totals agree; all is not queried when it lists the same employees
// over the same period.
// JIT compilation is off for it: the planner cannot see how few rows the
// arrays and the calendar give and would spend more time compiling than
// running; work_mem lets the sorts of a large department stay in memory.
func (s *Store) Report(ctx context.Context, listed, all Params) (days, facts []Dia, err error) {
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.db, opts, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, reportsql.Settings); err != nil {
			return fmt.Errorf("relatorio: settings: %w", err)
		}
		if days, err = queryDays(ctx, tx, reportsql.DaysSQL, listed); err != nil {
			return err
		}
		if len(all.Funcionarios) == len(listed.Funcionarios) && all.Inicio.Equal(listed.Inicio) && all.Fim.Equal(listed.Fim) {
			facts = days
		} else if facts, err = queryDays(ctx, tx, reportsql.FactsSQL, all); err != nil {
			return err
		}
		return feriadosNacionais(ctx, tx, listed.EmpresaID, days, facts)
	})
	return days, facts, err
}

// Days returns the rows of p's employees with their punches, outside any
// report (the timesheet of one employee).
func (s *Store) Days(ctx context.Context, p Params) ([]Dia, error) {
	var days []Dia
	err := pgx.BeginTxFunc(ctx, s.db, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		if days, err = queryDays(ctx, tx, reportsql.DaysSQL, p); err != nil {
			return err
		}
		return feriadosNacionais(ctx, tx, p.EmpresaID, days)
	})
	return days, err
}

// feriadosNacionais names the national holiday of each day that is one
// for the company (with the pontos facultativos it keeps) and has no
// holiday of its own, whose name wins: the SQL reads only the company's.
func feriadosNacionais(ctx context.Context, tx pgx.Tx, empresaID int64, lists ...[]Dia) error {
	f, err := feriado.Facultativos(ctx, tx, empresaID)
	if err != nil {
		return err
	}
	cal := core.NewCalendario(f)
	for _, days := range lists {
		for i := range days {
			if d := &days[i]; d.Feriado == nil {
				if nome, ok := cal.FeriadoEm(d.Data); ok {
					d.Feriado = &nome
				}
			}
		}
	}
	return nil
}

// queryDays reads the day rows of sql straight into one slice, sized for
// every employee on every date of the period (up to the largest CSV): a
// department's CSV has tens of thousands of rows, and a Dia is large
// enough for growing the slice, or scanning into a copy, to show in the
// profile.
func queryDays(ctx context.Context, tx pgx.Tx, sql string, p Params) ([]Dia, error) {
	rows, err := tx.Query(ctx, sql, p.Args()...)
	if err != nil {
		return nil, fmt.Errorf("relatorio: days: %w", err)
	}
	defer rows.Close()
	out := make([]Dia, 0, min(len(p.Funcionarios)*max(request.Days(p.Inicio, p.Fim), 0), maxCSVRows))
	for rows.Next() {
		out = append(out, Dia{})
		if err := scanDia(rows, &out[len(out)-1]); err != nil {
			return nil, fmt.Errorf("relatorio: days: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("relatorio: days: %w", err)
	}
	return p.keep(out), nil
}

// scanDia reads one row of selectRows into d.
func scanDia(rows pgx.Rows, d *Dia) error {
	var data time.Time
	m := &d.Marcacoes
	err := rows.Scan(&d.FuncionarioID, &data, &m.ids, &m.tipos, &m.registradas, &m.efetivas, &m.status,
		&d.Falta, &d.AjustesPendentes, &d.marcas, &d.incluidas, &d.desconsideradas, &d.abonoDia, &d.abonoInicios,
		&d.abonoFins, &d.DescansoMinutos, &d.fora, &d.Feriado)
	if err != nil {
		return err
	}
	d.Data, d.data = data.Format(time.DateOnly), data
	m.locais, m.incluidas, m.desconsideradas = d.marcas, d.incluidas, d.desconsideradas
	return m.check()
}
