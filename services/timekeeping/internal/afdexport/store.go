package afdexport

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/internal/afd"
)

// Store reads what an AFD holds.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// registros are a company's REP records of a period, in NSR order: its
// punches (type 7) whose workday is in the period and its employee
// records (type 5) written on a local date in it. Both kinds take their
// NSR from the same sequence, so the period's records are contiguous.
// $1 company, $2..$3 period, $4 time zone, $5 limit.
const registros = `SELECT '7' AS tipo, nsr, horario_registro, fuso_minutos, cpf, coletor, hash::text, ''
	FROM registros_ponto WHERE empresa_id = $1 AND jornada BETWEEN $2::date AND $3::date
UNION ALL
SELECT '5', nsr, gravado_em, fuso_minutos, cpf, operacao, responsavel, nome
	FROM empregados_rep WHERE empresa_id = $1 AND (gravado_em AT TIME ZONE $4::text)::date BETWEEN $2::date AND $3::date
ORDER BY nsr LIMIT $5`

// errTooMany means the period holds more records than one file may.
var errTooMany = fmt.Errorf("afdexport: too many records")

// Write appends company empresaID's records of [inicio, fim] to w, at
// most max of them (errTooMany beyond).
func (s *Store) Write(ctx context.Context, w *afd.Writer, empresaID int64, inicio, fim time.Time, zone string, max int) error {
	rows, err := s.db.Query(ctx, registros, empresaID, inicio, fim, zone, max+1)
	if err != nil {
		return fmt.Errorf("afdexport: query: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		if n++; n > max {
			return errTooMany
		}
		var tipo, cpf, codigo, extra, nome string
		var nsr int64
		var at time.Time
		var offset int
		if err := rows.Scan(&tipo, &nsr, &at, &offset, &cpf, &codigo, &extra, &nome); err != nil {
			return fmt.Errorf("afdexport: scan: %w", err)
		}
		if tipo == "5" {
			err = w.Empregado(afd.Empregado{NSR: nsr, Gravacao: at, OffsetMinutes: offset, Operacao: codigo,
				CPF: cpf, Nome: nome, Responsavel: extra})
		} else {
			err = w.Marcacao(afd.Marcacao{NSR: nsr, Horario: at, OffsetMinutes: offset, CPF: cpf, Coletor: codigo}, extra)
		}
		if err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("afdexport: rows: %w", err)
	}
	return nil
}
