// Package reportsql is the SQL of the department report and the
// timesheet: the one read of a period's punches that the record core
// (package core) then computes in Go. It is a package of its own, outside
// internal/, so that the benchmark's floor (tools/bench/floor) times
// exactly the SQL the service runs.
package reportsql

import (
	"strings"
	"time"
)

// Settings are the report transaction's: JIT compilation off (the
// planner cannot see how few rows the arrays and the calendar give and
// would spend more time compiling than running), work_mem so that the
// sorts of a large department stay in memory, and a plan made for each
// execution's own parameters: pgx prepares the statements, and after five
// executions on a connection PostgreSQL may switch to a generic plan,
// which cannot see how many employees the arrays hold.
const Settings = `SET LOCAL jit = off; SET LOCAL work_mem = '32MB'; SET LOCAL plan_cache_mode = force_custom_plan`

// Params select the employees, period and working weekdays of a report.
// The schedule arrays are parallel, one element per working day of an
// employee: dia is 0 (Monday) to 6 (Sunday).
type Params struct {
	EmpresaID    int64
	Inicio, Fim  time.Time
	Funcionarios []int64 // in report order

	EscalaFuncionario []int64
	EscalaDia         []int32
}

// Args are the SQL's parameters, in order.
func (p Params) Args() []any {
	return []any{p.EmpresaID, p.Inicio, p.Fim, p.Funcionarios, p.EscalaFuncionario, p.EscalaDia}
}

// linhas is the report as SQL: one row per employee and day that is a
// working day of his schedule, has punches or an absence (rest days
// without anything are left out). It only gathers the day's facts; the
// record core (core.Apurar) computes the workday from them in Go.
//
//   - marcacoes: the punches whose workday is in the period (and the day
//     before it, for the rest between workdays), each with its effective
//     time: an approved adjustment's data_solicitar, else the original
//     time, truncated to the minute as the AFD writes punches; then the
//     punches the company included (marcacoes_incluidas, no NSR), each
//     with whether it is disregarded now (the latest desconsideracoes
//     row). The treatment itself is the record core's (core.Tratar):
//     the SQL only says which punch is which.
//   - por_dia: per workday, the effective punches as minutes after the
//     local midnight of the workday's date (marcas, in NSR order then the
//     inclusions by time, with the parallel incluidas and desconsideradas; at each
//     punch's stored UTC offset, so a zone changed later never moves
//     them; a night shift's punches after midnight are past 1440),
//     pending adjustments, punches outside the work places.
//   - descansos: the minutes between the previous workday's last punch
//     and this one's first (art. 66), when the previous date is a
//     workday with punches.
//   - abonos_dia: the day's standing abonos (not cancelled): whether one
//     covers the whole day, and the ranges of the others.
//   - linhas: every date of the period for every employee, with whether
//     it is a working day of his schedule, the absence (unless undone),
//     the abonos and the company's holiday.
//
// {{marcacoes}} is the day's punches as parallel arrays in NSR order
// (marcacoesColumns), or NULLs when only totals are wanted. Arrays rather
// than JSON: for a department's CSV, one JSON object per punch cost
// PostgreSQL several times what the arrays do.
// Parameters: $1 company, $2..$3 period, $4 employees, $5..$6 the schedule
// arrays.
const linhas = `WITH funcs AS (
	SELECT u.id AS funcionario_id, u.ordem
	FROM unnest($4::bigint[]) WITH ORDINALITY AS u(id, ordem)
), escala AS (
	SELECT * FROM unnest($5::bigint[], $6::int[]) AS e(funcionario_id, dia_semana)
), desconsideradas AS (
	SELECT DISTINCT ON (registro_id) registro_id, desconsiderada
	FROM desconsideracoes
	WHERE empresa_id = $1 AND funcionario_id = ANY($4::bigint[]) AND jornada BETWEEN $2::date - 1 AND $3::date
	ORDER BY registro_id, id DESC
), marcacoes AS (
	SELECT m.*, coalesce(d.desconsiderada, false) AS desconsiderada
	FROM (
		SELECT p.funcionario_id, p.jornada, p.id, p.nsr, p.tipo, p.horario_registro, a.status AS ajuste,
			p.fora_do_local, p.fuso_minutos, false AS incluida,
			date_trunc('minute', CASE WHEN a.status = 'ajuste aprovado pela empresa'
				THEN a.data_solicitar ELSE p.horario_registro END) AS efetivo
		FROM registros_ponto p
		LEFT JOIN ajustes a ON a.registro_id = p.id AND a.empresa_id = $1
		WHERE p.empresa_id = $1 AND p.funcionario_id = ANY($4::bigint[]) AND p.jornada BETWEEN $2::date - 1 AND $3::date
		UNION ALL
		SELECT i.funcionario_id, i.jornada, i.id, NULL, '', i.horario, 'marcação incluída pela empresa',
			NULL, i.fuso_minutos, true, i.horario
		FROM marcacoes_incluidas i
		WHERE i.empresa_id = $1 AND i.funcionario_id = ANY($4::bigint[]) AND i.jornada BETWEEN $2::date - 1 AND $3::date
	) m
	LEFT JOIN desconsideradas d ON d.registro_id = m.id
), por_dia AS (
	SELECT funcionario_id, jornada, {{marcacoes}},
		count(*) FILTER (WHERE ajuste = 'ajuste solicitado')::int AS pendentes,
		array_agg(((date_part('epoch', efetivo) - date_part('epoch', jornada::timestamp)) / 60)::int + fuso_minutos
			ORDER BY nsr NULLS LAST, efetivo) AS marcas,
		array_agg(incluida ORDER BY nsr NULLS LAST, efetivo) AS incluidas,
		array_agg(desconsiderada ORDER BY nsr NULLS LAST, efetivo) AS desconsideradas,
		min(efetivo) FILTER (WHERE NOT desconsiderada) AS primeira,
		max(efetivo) FILTER (WHERE NOT desconsiderada) AS ultima,
		count(*) FILTER (WHERE fora_do_local)::int AS fora
	FROM marcacoes
	GROUP BY funcionario_id, jornada
), descansos AS (
	SELECT pd.*, CASE WHEN lag(jornada) OVER w = jornada - 1
			THEN (date_part('epoch', primeira - lag(ultima) OVER w) / 60)::int END AS descanso
	FROM por_dia pd
	WINDOW w AS (PARTITION BY funcionario_id ORDER BY jornada)
), abonos_dia AS (
	SELECT a.funcionario_id, a.data, bool_or(a.inicio IS NULL) AS dia_inteiro,
		array_agg(a.inicio::int) FILTER (WHERE a.inicio IS NOT NULL) AS inicios,
		array_agg(a.fim::int) FILTER (WHERE a.inicio IS NOT NULL) AS fins
	FROM abonos a
	WHERE a.empresa_id = $1 AND a.funcionario_id = ANY($4::bigint[]) AND a.data BETWEEN $2::date AND $3::date
		AND NOT EXISTS (SELECT 1 FROM abonos_cancelados c WHERE c.abono_id = a.id)
	GROUP BY a.funcionario_id, a.data
), linhas AS (
	SELECT f.funcionario_id, f.ordem, d.dia::date AS jornada,
		pd.ids, pd.tipos, pd.registradas, pd.efetivas, pd.status,
		fl.id IS NOT NULL AS falta,
		coalesce(pd.pendentes, 0) AS pendentes,
		coalesce(pd.marcas, '{}') AS marcas, coalesce(pd.incluidas, '{}') AS incluidas,
		coalesce(pd.desconsideradas, '{}') AS desconsideradas,
		coalesce(ab.dia_inteiro, false) AS abono_dia, coalesce(ab.inicios, '{}') AS abono_inicios,
		coalesce(ab.fins, '{}') AS abono_fins,
		pd.descanso, coalesce(pd.fora, 0) AS fora, fe.nome AS feriado
	FROM funcs f
	CROSS JOIN generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') AS d(dia)
	LEFT JOIN escala e ON e.funcionario_id = f.funcionario_id AND e.dia_semana = extract(isodow FROM d.dia)::int - 1
	LEFT JOIN descansos pd ON pd.funcionario_id = f.funcionario_id AND pd.jornada = d.dia::date
	LEFT JOIN faltas fl ON fl.funcionario_id = f.funcionario_id AND fl.data = d.dia::date AND fl.empresa_id = $1
		AND NOT EXISTS (SELECT 1 FROM faltas_desfeitas fd WHERE fd.falta_id = fl.id)
	LEFT JOIN abonos_dia ab ON ab.funcionario_id = f.funcionario_id AND ab.data = d.dia::date
	LEFT JOIN feriados fe ON fe.empresa_id = $1 AND fe.data = d.dia::date
	WHERE e.funcionario_id IS NOT NULL OR pd.funcionario_id IS NOT NULL OR fl.id IS NOT NULL OR ab.funcionario_id IS NOT NULL
)
`

// marcacoesColumns are a day's punches in NSR order: ids, tipos, original
// and effective times, and status (the adjustment's, else "aprovado
// automaticamente").
const marcacoesColumns = `array_agg(id ORDER BY nsr NULLS LAST, efetivo) AS ids,
		array_agg(tipo ORDER BY nsr NULLS LAST, efetivo) AS tipos,
		array_agg(horario_registro ORDER BY nsr NULLS LAST, efetivo) AS registradas,
		array_agg(efetivo ORDER BY nsr NULLS LAST, efetivo) AS efetivas,
		array_agg(coalesce(ajuste, 'aprovado automaticamente') ORDER BY nsr NULLS LAST, efetivo) AS status`

// marcacoesNull stands for marcacoesColumns when no punch is wanted.
const marcacoesNull = `NULL::bigint[] AS ids, NULL::text[] AS tipos, NULL::timestamptz[] AS registradas,
		NULL::timestamptz[] AS efetivas, NULL::text[] AS status`

// selectRows lists the day rows in report order. Its columns are what
// Columns names.
const selectRows = `SELECT funcionario_id, jornada, ids, tipos, registradas, efetivas, status,
	falta, pendentes, marcas, incluidas, desconsideradas, abono_dia, abono_inicios, abono_fins, descanso, fora, feriado
FROM linhas
ORDER BY ordem, jornada`

// DaysSQL lists the rows with their punches; FactsSQL without them, for
// the department's totals.
var (
	DaysSQL  = strings.Replace(linhas, "{{marcacoes}}", marcacoesColumns, 1) + selectRows
	FactsSQL = strings.Replace(linhas, "{{marcacoes}}", marcacoesNull, 1) + selectRows
)
