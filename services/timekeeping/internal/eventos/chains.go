package eventos

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
	"github.com/ponto/ponto/services/timekeeping/internalapi"
)

var errPrincipal = domainerr.Conflict("estabelecimento_principal",
	"o estabelecimento principal da empresa é outro, e o principal não muda")

// isEstabelecimento reports whether e is an estabelecimento.* event.
func isEstabelecimento(e internalapi.Evento) bool {
	return e.Estabelecimento != nil &&
		(e.Tipo == core.EventoEstabelecimentoIncluido || e.Tipo == core.EventoEstabelecimentoAlterado)
}

// chainsOf are the chains event e writes in, the one it writes first
// first: the principal one for empresa.*; the establishment's own for
// estabelecimento.* (keep checks it); the employee's establishment's for
// funcionario.*, followed, for a move, by the one he left.
func chainsOf(ctx context.Context, tx pgx.Tx, e internalapi.Evento) ([]ledger.Chain, error) {
	switch {
	case isEstabelecimento(e):
		return []ledger.Chain{ledger.ChainFor(e.EmpresaID, e.Estabelecimento.ID, e.Estabelecimento.Principal)}, nil
	case e.Funcionario != nil:
		c, err := ledger.ChainIn(ctx, tx, e.EmpresaID, e.Funcionario.EstabelecimentoID)
		if err != nil || e.Tipo != core.EventoFuncionarioTransferido {
			return []ledger.Chain{c}, err
		}
		old, err := ledger.ChainIn(ctx, tx, e.EmpresaID, *e.Funcionario.EstabelecimentoAnteriorID)
		return []ledger.Chain{c, old}, err
	}
	return []ledger.Chain{ledger.Principal(e.EmpresaID)}, nil
}

// keep records (or updates) establishment s of company empresaID. Which
// establishment is the principal one never changes: its chain is the
// company's first.
func keep(ctx context.Context, tx pgx.Tx, empresaID int64, s *internalapi.Estabelecimento, now time.Time) error {
	var principal bool
	err := tx.QueryRow(ctx, `INSERT INTO estabelecimentos (empresa_id, id, principal, tipo, numero, nome, ativo, atualizado_em)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (empresa_id, id) DO UPDATE SET tipo = EXCLUDED.tipo, numero = EXCLUDED.numero, nome = EXCLUDED.nome,
			ativo = EXCLUDED.ativo, atualizado_em = EXCLUDED.atualizado_em
			WHERE estabelecimentos.principal = EXCLUDED.principal
		RETURNING principal`, empresaID, s.ID, s.Principal, s.Tipo, s.Numero, s.Nome, s.Ativo, now).Scan(&principal)
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, pgx.ErrNoRows), errors.As(err, &pgErr) && pgErr.Code == "23505":
		return errPrincipal
	case err != nil:
		return fmt.Errorf("eventos: establishment: %w", err)
	}
	return nil
}
