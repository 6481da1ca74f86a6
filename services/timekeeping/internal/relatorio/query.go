package relatorio

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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
}

func (p Params) args() []any {
	return []any{p.EmpresaID, p.Inicio, p.Fim, p.Zone, p.Funcionarios,
		p.EscalaFuncionario, p.EscalaDia, p.EscalaEntrada, p.EscalaPrevistos}
}

// linhas is the report as SQL: one row per employee and day that has a
// schedule entry, punches or an absence (rest days without anything are
// left out).
//
//   - marcacoes: the punches of the period, each with its effective time:
//     an approved adjustment's data_solicitar, else the original time,
//     truncated to the minute as the AFD writes punches.
//   - pares: each punch opening a period (entrada, retorno almoço) paired
//     with the next punch of the workday in NSR order (the order that gave
//     each punch its tipo), whatever its type: the tipo sequence guarantees
//     it closes the period.
//   - por_dia: worked minutes (sum of the pairs; an unpaired last punch
//     counts nothing and flags the day incompleto), the first entrada,
//     pending adjustments.
//   - linhas: every date of the period for every employee, with the
//     schedule entry of its weekday (expected minutes, lateness against
//     the scheduled entrada in the company's zone) and the absence.
//
// {{marcacoes}} is the punches' JSON (or NULL when only totals are wanted).
// Parameters: $1 company, $2..$3 period, $4 time zone, $5 employees,
// $6..$9 the schedule arrays.
const linhas = `WITH funcs AS (
	SELECT u.id AS funcionario_id, u.ordem
	FROM unnest($5::bigint[]) WITH ORDINALITY AS u(id, ordem)
), escala AS (
	SELECT * FROM unnest($6::bigint[], $7::int[], $8::int[], $9::int[]) AS e(funcionario_id, dia_semana, entrada, previstos)
), marcacoes AS (
	SELECT p.funcionario_id, p.jornada, p.id, p.nsr, p.tipo, p.horario_registro, a.status AS ajuste,
		date_trunc('minute', CASE WHEN a.status = 'ajuste aprovado pela empresa'
			THEN a.data_solicitar ELSE p.horario_registro END) AS efetivo
	FROM registros_ponto p
	LEFT JOIN ajustes a ON a.registro_id = p.id AND a.empresa_id = $1
	WHERE p.empresa_id = $1 AND p.funcionario_id = ANY($5::bigint[]) AND p.jornada BETWEEN $2::date AND $3::date
), pares AS (
	SELECT m.*, CASE WHEN m.tipo IN ('entrada', 'retorno almoço') THEN lead(m.efetivo) OVER (
			PARTITION BY m.funcionario_id, m.jornada ORDER BY m.nsr) END AS fecha
	FROM marcacoes m
), por_dia AS (
	SELECT funcionario_id, jornada, {{marcacoes}} AS marcacoes,
		coalesce(sum(greatest(0, (date_part('epoch', fecha - efetivo) / 60)::int)), 0)::int AS trabalhados,
		min(efetivo) FILTER (WHERE tipo = 'entrada') AS primeira_entrada,
		count(*) FILTER (WHERE ajuste = 'ajuste solicitado')::int AS pendentes,
		count(*) % 2 = 1 AS incompleto
	FROM pares
	GROUP BY funcionario_id, jornada
), linhas AS (
	SELECT f.funcionario_id, f.ordem, d.dia::date AS jornada, pd.marcacoes,
		coalesce(pd.trabalhados, 0) AS trabalhados,
		coalesce(e.previstos, 0) AS previstos,
		coalesce(greatest(0, (date_part('epoch', (pd.primeira_entrada AT TIME ZONE $4::text) - d.dia) / 60)::int
			- e.entrada), 0) AS atraso,
		fl.id IS NOT NULL AS falta,
		coalesce(pd.pendentes, 0) AS pendentes,
		coalesce(pd.incompleto, false) AS incompleto
	FROM funcs f
	CROSS JOIN generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') AS d(dia)
	LEFT JOIN escala e ON e.funcionario_id = f.funcionario_id AND e.dia_semana = extract(isodow FROM d.dia)::int - 1
	LEFT JOIN por_dia pd ON pd.funcionario_id = f.funcionario_id AND pd.jornada = d.dia::date
	LEFT JOIN faltas fl ON fl.funcionario_id = f.funcionario_id AND fl.data = d.dia::date AND fl.empresa_id = $1
	WHERE e.funcionario_id IS NOT NULL OR pd.funcionario_id IS NOT NULL OR fl.id IS NOT NULL
)
`

// marcacoesJSON renders a day's punches, in NSR order.
const marcacoesJSON = `json_agg(json_build_object(
		'id', id,
		'tipo', tipo,
		'horarioRegistro', to_char(horario_registro AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		'horarioEfetivo', to_char(efetivo AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		'horaLocal', to_char(efetivo AT TIME ZONE $4::text, 'HH24:MI'),
		'status', coalesce(ajuste, 'aprovado automaticamente'))
	ORDER BY nsr)`

// daysSQL lists the rows with each employee's totals over the period.
var daysSQL = strings.Replace(linhas, "{{marcacoes}}", marcacoesJSON, 1) + `SELECT funcionario_id, jornada, coalesce(marcacoes, '[]'::json),
	trabalhados, previstos, greatest(trabalhados - previstos, 0), atraso, falta, pendentes, incompleto,
	sum(trabalhados) OVER f, sum(previstos) OVER f, sum(greatest(trabalhados - previstos, 0)) OVER f,
	sum(atraso) OVER f, count(*) FILTER (WHERE falta) OVER f, sum(pendentes) OVER f
FROM linhas
WINDOW f AS (PARTITION BY funcionario_id)
ORDER BY ordem, jornada`

// totalsSQL sums every row.
var totalsSQL = strings.Replace(linhas, "{{marcacoes}}", "NULL::json", 1) + `SELECT coalesce(sum(trabalhados), 0),
	coalesce(sum(previstos), 0), coalesce(sum(greatest(trabalhados - previstos, 0)), 0),
	coalesce(sum(atraso), 0), count(*) FILTER (WHERE falta), coalesce(sum(pendentes), 0)
FROM linhas`

// Dia is one employee's day in the report.
type Dia struct {
	FuncionarioID      int64           `json:"-"`
	Data               string          `json:"data"`
	Marcacoes          json.RawMessage `json:"marcacoes"`
	MinutosTrabalhados int             `json:"minutosTrabalhados"`
	MinutosPrevistos   int             `json:"minutosPrevistos"`
	MinutosExtras      int             `json:"minutosExtras"`
	MinutosAtraso      int             `json:"minutosAtraso"`
	SaldoMinutos       int             `json:"saldoMinutos"`
	Falta              bool            `json:"falta"`
	AjustesPendentes   int             `json:"ajustesPendentes"`
	Incompleto         bool            `json:"incompleto"`

	// Totais are the employee's totals over the period (the same on each
	// of his rows).
	Totais Totais `json:"-"`
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
}

// Report returns the rows of listed's employees and the totals over all's,
// both read from one snapshot (a read-only repeatable-read transaction), so
// that the page and the totals agree. JIT compilation is off for it: the
// planner cannot see how few rows the arrays and the calendar give and
// would spend more time compiling than running; work_mem lets the sorts of
// a large department stay in memory.
func (s *Store) Report(ctx context.Context, listed, all Params) (days []Dia, totals Totais, err error) {
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.db, opts, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL jit = off; SET LOCAL work_mem = '32MB'`); err != nil {
			return fmt.Errorf("relatorio: settings: %w", err)
		}
		if days, err = queryDays(ctx, tx, listed); err != nil {
			return err
		}
		totals, err = queryTotals(ctx, tx, all)
		return err
	})
	return days, totals, err
}

func queryDays(ctx context.Context, tx pgx.Tx, p Params) ([]Dia, error) {
	rows, _ := tx.Query(ctx, daysSQL, p.args()...)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Dia, error) {
		var d Dia
		var data time.Time
		var t Totais
		err := row.Scan(&d.FuncionarioID, &data, &d.Marcacoes, &d.MinutosTrabalhados, &d.MinutosPrevistos,
			&d.MinutosExtras, &d.MinutosAtraso, &d.Falta, &d.AjustesPendentes, &d.Incompleto,
			&t.MinutosTrabalhados, &t.MinutosPrevistos, &t.MinutosExtras, &t.MinutosAtraso, &t.Faltas, &t.AjustesPendentes)
		d.Data = data.Format(time.DateOnly)
		d.SaldoMinutos = d.MinutosTrabalhados - d.MinutosPrevistos
		t.SaldoMinutos = t.MinutosTrabalhados - t.MinutosPrevistos
		d.Totais = t
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("relatorio: days: %w", err)
	}
	return out, nil
}

func queryTotals(ctx context.Context, tx pgx.Tx, p Params) (Totais, error) {
	var t Totais
	err := tx.QueryRow(ctx, totalsSQL, p.args()...).Scan(&t.MinutosTrabalhados, &t.MinutosPrevistos,
		&t.MinutosExtras, &t.MinutosAtraso, &t.Faltas, &t.AjustesPendentes)
	if err != nil {
		return Totais{}, fmt.Errorf("relatorio: totals: %w", err)
	}
	t.SaldoMinutos = t.MinutosTrabalhados - t.MinutosPrevistos
	return t, nil
}
