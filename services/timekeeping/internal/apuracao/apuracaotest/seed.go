// Package apuracaotest seeds the synthetic department the engine's and
// the report's tests and benchmarks read: only tests import it.
package apuracaotest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// The synthetic department: employees 1..n on one schedule (08:00 to
// 17:00 with an hour of lunch, Monday to Friday) over 30 days in São
// Paulo, with the punches seedPunches writes.
var (
	Inicio = time.Date(2026, 10, 22, 0, 0, 0, 0, time.UTC)
	Fim    = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	Escala = employee.Escala{ID: 1, Horarios: []employee.Horario{
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
	}}
)

const Zone = "America/Sao_Paulo"

// Seed gives employees 1..n of company 1, from the day before the
// period to its end, four punches a weekday around the schedule (some
// days without the saída: incomplete; some without any punch), two on
// some Saturdays (overtime), a few outside the work places, with
// fractions of a second; an adjustment on every ajusteCada-th punch,
// cycling through pending, approved and rejected, and two approved ones
// that move employee 2's punches of 2026-11-05 to the dates before and
// after; absences on one day; two holidays, one named like a formula.
func Seed(tb testing.TB, db *pgxpool.Pool, n, ajusteCada int) {
	tb.Helper()
	ctx := context.Background()
	for _, st := range []struct {
		sql string
		arg []any
	}{
		{`INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada, horario_registro, tipo, localizacao, nsr, hash, cpf,
	fuso_minutos, coletor, fora_do_local)
SELECT 1, f, d::date,
	(d::date + make_interval(mins => (ARRAY[480, 720, 780, 1020, 540, 660])[k]
		+ (f * 7 + k * 3 + extract(doy FROM d)::int) % 15 - 7, secs => (f * k) % 60 + (f + k) % 4 * 0.333333))
		AT TIME ZONE 'America/Sao_Paulo',
	(ARRAY['entrada', 'almoço', 'retorno almoço', 'saída', 'entrada', 'almoço'])[k], '0,0',
	row_number() OVER (ORDER BY d, f, k), repeat('a', 64), lpad(f::text, 12, '0'), -180, '01', (f + k) % 50 = 0
FROM generate_series(1, $1::int) f,
	generate_series('2026-10-21'::date, '2026-11-20'::date, interval '1 day') d,
	generate_series(1, 6) k
WHERE (extract(isodow FROM d) < 6 AND k <= 4 AND NOT (k = 4 AND (f + extract(doy FROM d)::int) % 23 = 0)
		AND (f * 3 + extract(doy FROM d)::int) % 31 <> 0)
	OR (extract(isodow FROM d) = 6 AND k >= 5 AND f % 3 = 0)`, []any{n}},
		{`INSERT INTO ajustes (registro_id, empresa_id, funcionario_id, status, data_solicitar, motivo, solicitado_em, decidido_em)
SELECT id, 1, funcionario_id, s, horario_registro + interval '10 minutes 30 seconds', 'motivo', now(),
	CASE WHEN s <> 'ajuste solicitado' THEN now() END
FROM (SELECT id, funcionario_id, horario_registro, (ARRAY['ajuste solicitado', 'ajuste aprovado pela empresa',
		'ajuste reprovado pela empresa'])[1 + (id / $1::int) % 3] AS s
	FROM registros_ponto WHERE id % $1::int = 0) a`, []any{ajusteCada}},
		{`INSERT INTO ajustes (registro_id, empresa_id, funcionario_id, status, data_solicitar, motivo, solicitado_em, decidido_em)
SELECT id, 1, funcionario_id, 'ajuste aprovado pela empresa',
	horario_registro + CASE tipo WHEN 'entrada' THEN interval '-10 hours' ELSE interval '9 hours 59 minutes 59.9 seconds' END,
	'motivo', now(), now()
FROM registros_ponto WHERE funcionario_id = 2 AND jornada = '2026-11-05' AND tipo IN ('entrada', 'saída')
ON CONFLICT (registro_id) DO UPDATE SET status = excluded.status, data_solicitar = excluded.data_solicitar,
	decidido_em = excluded.decidido_em`, nil},
		{`INSERT INTO faltas (empresa_id, funcionario_id, data, inicio_dia, registrado_em)
SELECT 1, f, '2026-11-03', '2026-11-03 03:00Z', now() FROM generate_series(1, $1::int, 4) f`, []any{n}},
		{`INSERT INTO feriados (empresa_id, data, nome, criado_em)
VALUES (1, '2026-11-02', 'Finados', now()), (1, '2026-11-20', '=Consciência Negra', now())`, nil},
		{`ANALYZE`, nil},
	} {
		if _, err := db.Exec(ctx, st.sql, st.arg...); err != nil {
			tb.Fatal(err)
		}
	}
}

// Funcionarios names employees 1..n, the first ones as a spreadsheet
// could misread them.
func Funcionarios(n int) []employee.Funcionario {
	names := []string{"Ana Lima", "=Bruno", "+55 Carla", "-Davi", `@Eva; "Evinha"`, "Fábio Conceição"}
	out := make([]employee.Funcionario, n)
	for i := range out {
		id := int64(i + 1)
		nome := "Funcionário " + strconv.Itoa(i+1)
		if i < len(names) {
			nome = names[i]
		}
		out[i] = employee.Funcionario{Funcionario: employeeapi.Funcionario{ID: id, EmpresaID: 1,
			EscalaTrabalhoID: Escala.ID, Nome: nome, CPF: strconv.FormatInt(10_000_000_000+id, 10), Ativo: true}}
	}
	return out
}
