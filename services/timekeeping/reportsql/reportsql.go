// Package reportsql is the SQL of the workday engine
// (internal/apuracao's Store), behind the timesheet, the department report,
// the hour bank, the AEJ and the Today page: the reads of a period's
// punches and of what the company recorded about them, which the record
// core (package core) then turns into workdays in Go. It is a package of
// its own, outside internal/, so that the benchmark's floor
// (tools/bench/floor) times exactly the SQL the service runs.
package reportsql

import "time"

// Settings are the report transaction's: JIT compilation off (the
// planner cannot see how few rows the employee array gives and would
// spend more time compiling than running), work_mem so that a large
// department's hash tables stay in memory, and a plan made for each
// execution's own parameters: pgx prepares the statements, and after five
// executions on a connection PostgreSQL may switch to a generic plan,
// which cannot see how many employees the array holds.
const Settings = `SET LOCAL jit = off; SET LOCAL work_mem = '32MB'; SET LOCAL plan_cache_mode = force_custom_plan`

// Params select the employees and the period of a report: its rows are
// the dates from Inicio to Fim; the punches are read from the day before
// Inicio, whose last punch starts the rest before Inicio's first.
type Params struct {
	EmpresaID    int64
	Inicio, Fim  time.Time
	Funcionarios []int64 // in report order
}

// Statement is one query of the report's read, with the arguments it
// takes from Params.
type Statement struct {
	// Name says what it reads.
	Name string
	SQL  string
	Args func(Params) []any
}

// Statements are the report's queries, sent together in one batch in
// this order (the small ones first, so that the punches, last, can be
// read as they come): every one keyed by the company, the employees and
// the period, none joined with another's rows.
var Statements = []Statement{
	{Name: "feriados", SQL: Feriados, Args: func(p Params) []any { return []any{p.EmpresaID, p.Inicio, p.Fim.AddDate(0, 0, 1)} }},
	{Name: "faltas", SQL: Faltas, Args: Params.args},
	{Name: "abonos", SQL: Abonos, Args: Params.args},
	{Name: "afastamentos", SQL: Afastamentos, Args: Params.args},
	{Name: "desconsideracoes", SQL: Desconsideracoes, Args: Params.args},
	{Name: "incluidas", SQL: Incluidas, Args: Params.args},
	{Name: "marcacoes", SQL: Marcacoes, Args: Params.args},
}

// args are the parameters of the queries keyed by the employees: $1
// company, $2 employees, $3..$4 the period.
func (p Params) args() []any { return []any{p.EmpresaID, p.Funcionarios, p.Inicio, p.Fim} }

// Marcacoes is the one read of the punches: every REP punch of the
// employees whose workday is in the period or the day before it, with its
// adjustment (the current one, if any), in no order: a bitmap scan reads
// each page once, which costs PostgreSQL half of what an index scan in
// (employee, workday, NSR) order does, and Go puts the rows in order for
// less than a sort here would cost. Columns: employee, workday, id, NSR,
// tipo, original time, UTC offset (minutes), outside every work place,
// the adjustment's status and requested time (NULL without one).
const Marcacoes = `SELECT p.funcionario_id, p.jornada, p.id, p.nsr, p.tipo, p.horario_registro, p.fuso_minutos,
	coalesce(p.fora_do_local, false), a.status, a.data_solicitar
FROM registros_ponto p
LEFT JOIN ajustes a ON a.registro_id = p.id AND a.empresa_id = $1
WHERE p.empresa_id = $1 AND p.funcionario_id = ANY($2::bigint[]) AND p.jornada BETWEEN $3::date - 1 AND $4::date`

// Incluidas are the punches the company included (no NSR, whole
// minutes) over the same days as Marcacoes: employee, workday, id, time,
// UTC offset.
const Incluidas = `SELECT funcionario_id, jornada, id, horario, fuso_minutos
FROM marcacoes_incluidas
WHERE empresa_id = $1 AND funcionario_id = ANY($2::bigint[]) AND jornada BETWEEN $3::date - 1 AND $4::date`

// Desconsideracoes are the punches (REP or included) disregarded now:
// the latest row of each one whose workday is among Marcacoes' days says
// whether it is.
const Desconsideracoes = `SELECT registro_id FROM (
	SELECT DISTINCT ON (registro_id) registro_id, desconsiderada
	FROM desconsideracoes
	WHERE empresa_id = $1 AND funcionario_id = ANY($2::bigint[]) AND jornada BETWEEN $3::date - 1 AND $4::date
	ORDER BY registro_id, id DESC
) d WHERE desconsiderada`

// Faltas are the absences the company marked in the period and did not
// undo: employee, date.
const Faltas = `SELECT f.funcionario_id, f.data
FROM faltas f
WHERE f.empresa_id = $1 AND f.funcionario_id = ANY($2::bigint[]) AND f.data BETWEEN $3::date AND $4::date
	AND NOT EXISTS (SELECT 1 FROM faltas_desfeitas d WHERE d.falta_id = f.id)`

// Abonos are the standing (not cancelled) abonos of the period:
// employee, date, and the range in minutes after the date's local
// midnight (both NULL for the whole day).
const Abonos = `SELECT a.funcionario_id, a.data, a.inicio::int, a.fim::int
FROM abonos a
WHERE a.empresa_id = $1 AND a.funcionario_id = ANY($2::bigint[]) AND a.data BETWEEN $3::date AND $4::date
	AND NOT EXISTS (SELECT 1 FROM abonos_cancelados c WHERE c.abono_id = a.id)`

// Afastamentos are the standing (not cancelled) leaves touching the
// period: employee, id, kind, first and last day.
const Afastamentos = `SELECT funcionario_id, id, tipo, inicio, fim
FROM afastamentos
WHERE empresa_id = $1 AND funcionario_id = ANY($2::bigint[]) AND inicio <= $4::date AND fim >= $3::date
	AND cancelado_em IS NULL`

// Feriados are the company's own holidays of the period: date, name.
// Parameters: $1 company, $2..$3 the period and the day after it (a night
// shift of the last day may run into it).
const Feriados = `SELECT data, nome FROM feriados WHERE empresa_id = $1 AND data BETWEEN $2::date AND $3::date`
