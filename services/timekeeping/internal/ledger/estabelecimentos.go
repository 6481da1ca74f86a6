package ledger

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
)

// errEstabelecimentoPendente: the employee's establishment is one
// company-billing has not told timekeeping of yet (its
// estabelecimento.incluido is on its way through the outbox): the punch
// waits rather than start a chain that may be the principal one's.
var errEstabelecimentoPendente = domainerr.New(domainerr.KindUnavailable, "estabelecimento_pendente",
	"estabelecimento do funcionário ainda não registrado no REP; tente novamente")

// maxCachedChains bounds chainCache; past it the cache starts over.
const maxCachedChains = 100_000

// chainCache remembers each known establishment's chain: an
// establishment never stops being known nor changes whether it is the
// principal one, so an entry never goes stale.
type chainCache struct {
	mu sync.Mutex
	m  map[Chain]Chain
}

func (c *chainCache) get(k Chain) (Chain, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *chainCache) put(k, v Chain) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedChains {
		c.m = make(map[Chain]Chain)
	}
	c.m[k] = v
}

// ChainOf is the chain of company empresaID's establishment
// estabelecimentoID as the employee service names it (0: the principal):
// the principal establishment's chain is Chain{empresa, 0}, a branch's
// Chain{empresa, id}. An establishment timekeeping has not heard of is a
// 503: its chain cannot be told from the principal's yet.
func (l *Ledger) ChainOf(ctx context.Context, empresaID, estabelecimentoID int64) (Chain, error) {
	k := Chain{EmpresaID: empresaID, EstabelecimentoID: estabelecimentoID}
	if estabelecimentoID == 0 {
		return k, nil
	}
	if c, ok := l.chains.get(k); ok {
		return c, nil
	}
	c, err := ChainIn(ctx, l.db, empresaID, estabelecimentoID)
	if err == nil {
		l.chains.put(k, c)
	}
	return c, err
}

// ChainIn is ChainOf read through q, uncached.
func ChainIn(ctx context.Context, q database.RowQuerier, empresaID, estabelecimentoID int64) (Chain, error) {
	if estabelecimentoID == 0 {
		return Principal(empresaID), nil
	}
	var principal bool
	err := q.QueryRow(ctx, `SELECT principal FROM estabelecimentos WHERE empresa_id = $1 AND id = $2`,
		empresaID, estabelecimentoID).Scan(&principal)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Chain{}, errEstabelecimentoPendente
	case err != nil:
		return Chain{}, fmt.Errorf("ledger: establishment: %w", err)
	}
	return ChainFor(empresaID, estabelecimentoID, principal), nil
}

// ChainFor is the chain of establishment id of company empresaID.
func ChainFor(empresaID, id int64, principal bool) Chain {
	if principal {
		return Principal(empresaID)
	}
	return Chain{EmpresaID: empresaID, EstabelecimentoID: id}
}
