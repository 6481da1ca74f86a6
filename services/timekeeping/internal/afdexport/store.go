package afdexport

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// Store reads what an AFD holds.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// registros are a chain's REP records recorded in a period, in NSR
// order: punches (type 7), employee records (type 5), the employer's
// identification (type 2) and sensitive events (type 6). All kinds take
// their NSR from the one sequence, under one lock, stamped in NSR order, so
// selecting by the recording instant keeps the file's NSRs contiguous (an
// off-line punch's is gravado_em, its arrival).
// $1 company and $5 establishment (the chain), $2..$3 the period's first and last instants (from the start
// of its first date to the start of the day after its last, in the
// company's zone), $4 limit. Columns: type, NSR, instant, offset, and
// a..e and g, whose meaning depends on the type (see Write).
const registros = `SELECT '7' AS tipo, nsr, horario_registro, fuso_minutos, cpf AS a, coletor AS b, hash::text AS c,
		offline::text AS d, '' AS e, gravado_em AS g
	FROM registros_ponto WHERE empresa_id = $1 AND estabelecimento_id = $5
		AND (gravado_em IS NULL AND horario_registro >= $2 AND horario_registro < $3 OR gravado_em >= $2 AND gravado_em < $3)
UNION ALL
SELECT '5', nsr, gravado_em, fuso_minutos, cpf, operacao, responsavel, nome, '', NULL::timestamptz
	FROM empregados_rep WHERE empresa_id = $1 AND estabelecimento_id = $5 AND gravado_em >= $2 AND gravado_em < $3
UNION ALL
SELECT '2', nsr, gravado_em, fuso_minutos, responsavel, empregador, cno_caepf, razao_social, local, NULL
	FROM empresas_rep WHERE empresa_id = $1 AND estabelecimento_id = $5 AND gravado_em >= $2 AND gravado_em < $3
UNION ALL
SELECT '6', nsr, gravado_em, fuso_minutos, codigo, '', '', '', '', NULL
	FROM eventos_rep WHERE empresa_id = $1 AND estabelecimento_id = $5 AND gravado_em >= $2 AND gravado_em < $3
ORDER BY nsr LIMIT $4`

// errTooMany means the period holds more records than one file may.
var errTooMany = fmt.Errorf("afdexport: too many records")

// Write appends chain's records of the dates [inicio, fim] in zone to w,
// at most max of them (errTooMany beyond).
func (s *Store) Write(ctx context.Context, w *core.Writer, chain ledger.Chain, inicio, fim time.Time, zone *time.Location,
	max int) error {
	rows, err := s.db.Query(ctx, registros, chain.EmpresaID, clock.StartOfDay(inicio, zone),
		clock.StartOfDay(fim.AddDate(0, 0, 1), zone), max+1, chain.EstabelecimentoID)
	if err != nil {
		return fmt.Errorf("afdexport: query: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		if n++; n > max {
			return errTooMany
		}
		var tipo, a, b, c, d, e string
		var nsr int64
		var at time.Time
		var gravado *time.Time
		var offset int
		if err := rows.Scan(&tipo, &nsr, &at, &offset, &a, &b, &c, &d, &e, &gravado); err != nil {
			return fmt.Errorf("afdexport: scan: %w", err)
		}
		switch tipo {
		case "7": // a CPF, b collector, c hash, d off-line, g recording time (off-line)
			m := core.Marcacao{NSR: nsr, Horario: at, OffsetMinutes: offset, CPF: a, Coletor: b, OffLine: d == "true"}
			if gravado != nil {
				m.Gravacao = *gravado
			}
			err = w.Marcacao(m, c)
		case "5": // a CPF, b operation, c responsible, d name
			err = w.Empregado(core.Empregado{NSR: nsr, Gravacao: at, OffsetMinutes: offset, Operacao: b,
				CPF: a, Nome: d, Responsavel: c})
		case "2": // a responsible, b employer, c CNO/CAEPF, d legal name, e place
			err = w.Empresa(core.Empresa{NSR: nsr, Gravacao: at, OffsetMinutes: offset, Responsavel: a,
				Empregador: b, CNOCAEPF: c, RazaoSocial: d, Local: e})
		case "6": // a code
			err = w.Evento(core.Evento{NSR: nsr, Gravacao: at, OffsetMinutes: offset, Codigo: a})
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

// errEstabelecimento: no establishment of the caller's company by that id.
var errEstabelecimento = domainerr.NotFound("estabelecimento não encontrado")

// estabelecimento is an establishment as its AFD's header names it.
type estabelecimento struct {
	chain        ledger.Chain
	tipo, numero string
}

// Estabelecimento finds company empresaID's establishment id (0: the
// principal one, whatever timekeeping knows of it), or errEstabelecimento.
func (s *Store) Estabelecimento(ctx context.Context, empresaID, id int64) (estabelecimento, error) {
	if id == 0 {
		return estabelecimento{chain: ledger.Principal(empresaID)}, nil
	}
	var e estabelecimento
	var principal bool
	err := s.db.QueryRow(ctx, `SELECT principal, tipo, numero FROM estabelecimentos WHERE empresa_id = $1 AND id = $2`,
		empresaID, id).Scan(&principal, &e.tipo, &e.numero)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return e, errEstabelecimento
	case err != nil:
		return e, fmt.Errorf("afdexport: establishment: %w", err)
	}
	e.chain = ledger.ChainFor(empresaID, id, principal)
	return e, nil
}
