package relatorio

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Store runs the report's SQL.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Params select the employees, period and schedules of a report. The
// schedule arrays are parallel, one element per working day of an
// employee: dia is 0 (Monday) to 6 (Sunday), entrada the scheduled start
// in minutes after local midnight, previstos the expected minutes.
type Params struct {
	EmpresaID    int64
	Inicio, Fim  time.Time
	Zone         string
	Funcionarios []int64 // in report order

	EscalaFuncionario []int64
	EscalaDia         []int32
	EscalaEntrada     []int32
	EscalaPrevistos   []int32

	// programadas are each employee's scheduled marks by weekday (0
	// Monday), for the rules applied in Go.
	programadas map[int64]*[7][]int
}

func (p Params) args() []any {
	return []any{p.EmpresaID, p.Inicio, p.Fim, p.Zone, p.Funcionarios,
		p.EscalaFuncionario, p.EscalaDia, p.EscalaEntrada, p.EscalaPrevistos}
}

// linhas is the report as SQL: one row per employee and day that has a
// schedule entry, punches or an absence (rest days without anything are
// left out). It gathers the day's facts; the CLT rules apply to them in Go
// (rules.go, package clt), one linear pass over these rows.
//
//   - marcacoes: the punches of the period (and of the day before it, for
//     the rest between workdays), each with its effective time: an
//     approved adjustment's data_solicitar, else the original time,
//     truncated to the minute as the AFD writes punches.
//   - pares: each punch opening a period (entrada, retorno almoço) paired
//     with the next punch of the workday in NSR order (the order that gave
//     each punch its tipo), whatever its type: the tipo sequence guarantees
//     it closes the period.
//   - por_dia: worked minutes (sum of the pairs; an unpaired last punch
//     counts nothing and flags the day incompleto), the first entrada,
//     pending adjustments, the effective punches as minutes after the
//     workday's local midnight (marcas), punches outside the work places.
//   - descansos: the minutes between the previous date's last punch and
//     the day's first (art. 66), when the previous date had punches.
//   - linhas: every date of the period for every employee, with the
//     schedule entry of its weekday (expected minutes, lateness against
//     the scheduled entrada in the company's zone), the absence and the
//     company's holiday.
//
// {{marcacoes}} is the day's punches as parallel arrays in NSR order
// (marcacoesColumns), or NULLs when only totals are wanted. Arrays rather
// than JSON: for a department's CSV, one JSON object per punch cost
// PostgreSQL several times what the arrays do, and Go then decoded it
// twice; the JSON answers spell their page's few punches out in Go
// (Marcacoes).
// Parameters: $1 company, $2..$3 period, $4 time zone, $5 employees,
// $6..$9 the schedule arrays.
const linhas = `WITH funcs AS (
	SELECT u.id AS funcionario_id, u.ordem
	FROM unnest($5::bigint[]) WITH ORDINALITY AS u(id, ordem)
), escala AS (
	SELECT * FROM unnest($6::bigint[], $7::int[], $8::int[], $9::int[]) AS e(funcionario_id, dia_semana, entrada, previstos)
), marcacoes AS (
	SELECT p.funcionario_id, p.jornada, p.id, p.nsr, p.tipo, p.horario_registro, a.status AS ajuste,
		p.fora_do_local,
		date_trunc('minute', CASE WHEN a.status = 'ajuste aprovado pela empresa'
			THEN a.data_solicitar ELSE p.horario_registro END) AS efetivo
	FROM registros_ponto p
	LEFT JOIN ajustes a ON a.registro_id = p.id AND a.empresa_id = $1
	WHERE p.empresa_id = $1 AND p.funcionario_id = ANY($5::bigint[]) AND p.jornada BETWEEN $2::date - 1 AND $3::date
), pares AS (
	SELECT m.*, CASE WHEN m.tipo IN ('entrada', 'retorno almoço') THEN lead(m.efetivo) OVER (
			PARTITION BY m.funcionario_id, m.jornada ORDER BY m.nsr) END AS fecha
	FROM marcacoes m
), por_dia AS (
	SELECT funcionario_id, jornada, {{marcacoes}},
		coalesce(sum(greatest(0, (date_part('epoch', fecha - efetivo) / 60)::int)), 0)::int AS trabalhados,
		min(efetivo) FILTER (WHERE tipo = 'entrada') AS primeira_entrada,
		count(*) FILTER (WHERE ajuste = 'ajuste solicitado')::int AS pendentes,
		count(*) % 2 = 1 AS incompleto,
		array_agg((date_part('epoch', (efetivo AT TIME ZONE $4::text) - jornada::timestamp) / 60)::int
			ORDER BY nsr) AS marcas,
		min(efetivo) AS primeira, max(efetivo) AS ultima,
		count(*) FILTER (WHERE fora_do_local)::int AS fora
	FROM pares
	GROUP BY funcionario_id, jornada
), descansos AS (
	SELECT pd.*, CASE WHEN lag(jornada) OVER w = jornada - 1
			THEN (date_part('epoch', primeira - lag(ultima) OVER w) / 60)::int END AS descanso
	FROM por_dia pd
	WINDOW w AS (PARTITION BY funcionario_id ORDER BY jornada)
), linhas AS (
	SELECT f.funcionario_id, f.ordem, d.dia::date AS jornada,
		pd.ids, pd.tipos, pd.registradas, pd.efetivas, pd.status,
		coalesce(pd.trabalhados, 0) AS trabalhados,
		coalesce(e.previstos, 0) AS previstos,
		coalesce(greatest(0, (date_part('epoch', (pd.primeira_entrada AT TIME ZONE $4::text) - d.dia) / 60)::int
			- e.entrada), 0) AS atraso,
		fl.id IS NOT NULL AS falta,
		coalesce(pd.pendentes, 0) AS pendentes,
		coalesce(pd.incompleto, false) AS incompleto,
		coalesce(pd.marcas, '{}') AS marcas, pd.descanso, coalesce(pd.fora, 0) AS fora, fe.nome AS feriado
	FROM funcs f
	CROSS JOIN generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') AS d(dia)
	LEFT JOIN escala e ON e.funcionario_id = f.funcionario_id AND e.dia_semana = extract(isodow FROM d.dia)::int - 1
	LEFT JOIN descansos pd ON pd.funcionario_id = f.funcionario_id AND pd.jornada = d.dia::date
	LEFT JOIN faltas fl ON fl.funcionario_id = f.funcionario_id AND fl.data = d.dia::date AND fl.empresa_id = $1
	LEFT JOIN feriados fe ON fe.empresa_id = $1 AND fe.data = d.dia::date
	WHERE e.funcionario_id IS NOT NULL OR pd.funcionario_id IS NOT NULL OR fl.id IS NOT NULL
)
`

// marcacoesColumns are a day's punches in NSR order: ids, tipos, original
// and effective times, and status (the adjustment's, else "aprovado
// automaticamente"). Their local times are the day's marcas.
const marcacoesColumns = `array_agg(id ORDER BY nsr) AS ids,
		array_agg(tipo ORDER BY nsr) AS tipos,
		array_agg(horario_registro ORDER BY nsr) AS registradas,
		array_agg(efetivo ORDER BY nsr) AS efetivas,
		array_agg(coalesce(ajuste, 'aprovado automaticamente') ORDER BY nsr) AS status`

// marcacoesNull stands for marcacoesColumns when no punch is wanted.
const marcacoesNull = `NULL::bigint[] AS ids, NULL::text[] AS tipos, NULL::timestamptz[] AS registradas,
		NULL::timestamptz[] AS efetivas, NULL::text[] AS status`

// selectRows lists the day rows in report order.
const selectRows = `SELECT funcionario_id, jornada, ids, tipos, registradas, efetivas, status, trabalhados, previstos,
	atraso, falta, pendentes, incompleto, marcas, descanso, fora, feriado
FROM linhas
ORDER BY ordem, jornada`

// daysSQL lists the rows with their punches; factsSQL without them, for
// the department's totals.
var (
	daysSQL  = strings.Replace(linhas, "{{marcacoes}}", marcacoesColumns, 1) + selectRows
	factsSQL = strings.Replace(linhas, "{{marcacoes}}", marcacoesNull, 1) + selectRows
)

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
	Falta              bool      `json:"falta"`
	AjustesPendentes   int       `json:"ajustesPendentes"`
	Incompleto         bool      `json:"incompleto"`

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
	// the punches, in NSR order, as minutes after the workday's local
	// midnight (below 0 or past a day when an approved adjustment moved a
	// punch to another date).
	atrasoBruto int
	marcas      []int
	fora        int
}

// Totais sums days: minutes, absences and pending adjustments.
type Totais struct {
	MinutosTrabalhados int `json:"minutosTrabalhados"`
	MinutosPrevistos   int `json:"minutosPrevistos"`
	MinutosExtras      int `json:"minutosExtras"`
	MinutosAtraso      int `json:"minutosAtraso"`
	SaldoMinutos       int `json:"saldoMinutos"`
	Faltas             int `json:"faltas"`
	AjustesPendentes   int `json:"ajustesPendentes"`

	MinutosExtras50          int `json:"minutosExtras50"`
	MinutosExtras100         int `json:"minutosExtras100"`
	MinutosNoturnos          int `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int `json:"minutosNoturnosReduzidos"`
	// Alertas counts the alerts of the days.
	Alertas int `json:"alertas"`
}

// Report returns the rows of listed's employees and the rows of all's
// without their punches (for the department's totals), both read from one
// snapshot (a read-only repeatable-read transaction), so that the page and
// the totals agree; all is not queried when it lists the same employees.
// JIT compilation is off for it: the planner cannot see how few rows the
// arrays and the calendar give and would spend more time compiling than
// running; work_mem lets the sorts of a large department stay in memory.
func (s *Store) Report(ctx context.Context, listed, all Params) (days, facts []Dia, err error) {
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.db, opts, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL jit = off; SET LOCAL work_mem = '32MB'`); err != nil {
			return fmt.Errorf("relatorio: settings: %w", err)
		}
		if days, err = queryDays(ctx, tx, daysSQL, listed); err != nil {
			return err
		}
		if len(all.Funcionarios) == len(listed.Funcionarios) {
			facts = days
			return nil
		}
		facts, err = queryDays(ctx, tx, factsSQL, all)
		return err
	})
	return days, facts, err
}

// Days returns the rows of p's employees with their punches, outside any
// report (the timesheet of one employee).
func (s *Store) Days(ctx context.Context, p Params) ([]Dia, error) {
	var days []Dia
	err := pgx.BeginTxFunc(ctx, s.db, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		days, err = queryDays(ctx, tx, daysSQL, p)
		return err
	})
	return days, err
}

// queryDays reads the day rows of sql straight into one slice, sized for
// every employee on every date of the period (up to the largest CSV): a
// department's CSV has tens of thousands of rows, and a Dia is large
// enough for growing the slice, or scanning into a copy, to show in the
// profile.
func queryDays(ctx context.Context, tx pgx.Tx, sql string, p Params) ([]Dia, error) {
	rows, err := tx.Query(ctx, sql, p.args()...)
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
	return out, nil
}

// scanDia reads one row of selectRows into d.
func scanDia(rows pgx.Rows, d *Dia) error {
	var data time.Time
	m := &d.Marcacoes
	err := rows.Scan(&d.FuncionarioID, &data, &m.ids, &m.tipos, &m.registradas, &m.efetivas, &m.status,
		&d.MinutosTrabalhados, &d.MinutosPrevistos, &d.atrasoBruto, &d.Falta, &d.AjustesPendentes, &d.Incompleto,
		&d.marcas, &d.DescansoMinutos, &d.fora, &d.Feriado)
	if err != nil {
		return err
	}
	d.Data = data.Format(time.DateOnly)
	m.locais = d.marcas
	return m.check()
}
