package chainaudit

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// maxChains bounds the chains a company's audit state lists (one per
// establishment).
const maxChains = 10_000

// Auditoria is the last audit of one chain.
type Auditoria struct {
	UltimoNSRVerificado int64      `json:"ultimoNsrVerificado"`
	VerificadoEm        *time.Time `json:"verificadoEm"`
	Integra             bool       `json:"integra"`
	NSRQuebra           *int64     `json:"nsrQuebra"`
}

// Estado is the last audit of a company's chains: the principal
// establishment's at the top level (what it was before a company had
// more than one chain), every establishment's in Estabelecimentos.
type Estado struct {
	Auditoria
	Estabelecimentos []Cadeia `json:"estabelecimentos"`
}

// Cadeia is one establishment's chain and its last audit.
type Cadeia struct {
	// EstabelecimentoID is the establishment's id, null for the principal
	// one while company-billing has not told timekeeping of it; Nome its
	// name, null alike.
	EstabelecimentoID *int64  `json:"estabelecimentoId"`
	Principal         bool    `json:"principal"`
	Nome              *string `json:"nome"`
	Auditoria
}

// ChainCheckpoint is one chain of a company, its establishment and its
// checkpoint.
type ChainCheckpoint struct {
	Chain             ledger.Chain
	EstabelecimentoID *int64  // nil: the principal one, not told of yet
	Nome              *string // nil alike
	Checkpoint
}

// Read returns company empresaID's last audit of each of its chains
// (never audited: nothing verified yet, integra until shown otherwise).
func Read(ctx context.Context, db database.Querier, empresaID int64) (Estado, error) {
	cps, err := ReadCheckpoints(ctx, db, empresaID)
	if err != nil {
		return Estado{}, err
	}
	e := Estado{Estabelecimentos: make([]Cadeia, 0, len(cps))}
	for _, c := range cps {
		a := auditoria(c.Checkpoint)
		principal := c.Chain.EstabelecimentoID == 0
		if principal {
			e.Auditoria = a
		}
		e.Estabelecimentos = append(e.Estabelecimentos, Cadeia{EstabelecimentoID: c.EstabelecimentoID,
			Principal: principal, Nome: c.Nome, Auditoria: a})
	}
	return e, nil
}

func auditoria(c Checkpoint) Auditoria {
	a := Auditoria{UltimoNSRVerificado: c.NSR, VerificadoEm: c.VerificadoEm, Integra: c.Quebra == 0}
	if c.Quebra != 0 {
		a.NSRQuebra = &c.Quebra
	}
	return a
}

// ReadCheckpoints returns the checkpoint of every chain of company
// empresaID, the principal first (always there, audited or not), then
// each other establishment's by id, records or not: a branch's chain
// starts only once company-billing told of it (ledger.ChainIn).
func ReadCheckpoints(ctx context.Context, q database.Querier, empresaID int64) ([]ChainCheckpoint, error) {
	rows, err := q.Query(ctx, `WITH chains AS (
			SELECT 0::bigint AS est
			UNION SELECT estabelecimento_id FROM auditorias_cadeia WHERE empresa_id = $1
			UNION SELECT id FROM estabelecimentos WHERE empresa_id = $1 AND NOT principal)
		SELECT ch.est, s.id, s.nome, a.ultimo_nsr, a.ultimo_hash::text, a.nsr_quebra, a.verificado_em,
			a.revisao_nsr, a.revisao_hash::text, a.revisada_em
		FROM chains ch
		LEFT JOIN estabelecimentos s ON s.empresa_id = $1 AND (s.id = ch.est OR (ch.est = 0 AND s.principal))
		LEFT JOIN auditorias_cadeia a ON a.empresa_id = $1 AND a.estabelecimento_id = ch.est
		ORDER BY ch.est LIMIT $2`, empresaID, maxChains)
	if err != nil {
		return nil, fmt.Errorf("chainaudit: checkpoints: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ChainCheckpoint, error) {
		c := ChainCheckpoint{Chain: ledger.Chain{EmpresaID: empresaID}}
		var nsr, quebra, reviewNSR *int64
		var hash, reviewHash *string
		err := row.Scan(&c.Chain.EstabelecimentoID, &c.EstabelecimentoID, &c.Nome, &nsr, &hash, &quebra,
			&c.VerificadoEm, &reviewNSR, &reviewHash, &c.review.endedAt)
		if nsr != nil { // audited
			c.NSR, c.Hash = *nsr, deref(hash)
		}
		if quebra != nil {
			c.Quebra = *quebra
		}
		if reviewNSR != nil {
			c.review.underWay, c.review.nsr, c.review.hash = true, *reviewNSR, deref(reviewHash)
		}
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("chainaudit: checkpoints: %w", err)
	}
	return out, nil
}
