package verificacao

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

// Store finds punches by hash and verifies their company's chain.
type Store struct {
	db *pgxpool.Pool
	// verified keeps, per company, the last punch up to which the chain
	// is known to verify (walked here from NSR 1 or from the chain
	// audit's checkpoint): punches are append-only (database triggers),
	// so later checks walk only from there. One entry per company, few
	// bytes each.
	mu       sync.Mutex
	verified map[ledger.Chain]checkpoint
	// recomputed counts the punches whose hash a check recomputed.
	recomputed prometheus.Counter
}

type checkpoint struct {
	nsr  int64
	hash string
}

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store {
	return &Store{db: db, verified: map[ledger.Chain]checkpoint{},
		recomputed: prometheus.NewCounter(prometheus.CounterOpts{Name: "ponto_verificacao_recomputed_punches_total",
			Help: "Punches whose hash the public receipt check recomputed (those past the chain audit's and this replica's last verified punch)."}),
	}
}

// Collectors are the store's metrics, to register once.
func (s *Store) Collectors() []prometheus.Collector { return []prometheus.Collector{s.recomputed} }

// Marcacao is what the public check shows of a punch: nothing that names
// the employee.
type Marcacao struct {
	EmpresaID     int64
	Chain         ledger.Chain
	NSR           int64
	Horario       time.Time
	OffsetMinutes int
}

// Find returns the punch whose hash is hash (registro.ErrNotFound if
// none).
func (s *Store) Find(ctx context.Context, hash string) (Marcacao, error) {
	var p Marcacao
	err := s.db.QueryRow(ctx, `SELECT empresa_id, estabelecimento_id, nsr, horario_registro, fuso_minutos FROM registros_ponto
		WHERE hash = $1 ORDER BY nsr LIMIT 1`, hash).Scan(&p.EmpresaID, &p.Chain.EstabelecimentoID, &p.NSR, &p.Horario,
		&p.OffsetMinutes)
	p.Chain.EmpresaID = p.EmpresaID
	if errors.Is(err, pgx.ErrNoRows) {
		return Marcacao{}, registro.ErrNotFound
	}
	if err != nil {
		return Marcacao{}, fmt.Errorf("verificacao: find: %w", err)
	}
	return p, nil
}

// Estabelecimento is the establishment of chain c when it is a branch's
// (nil for the principal chain, which the company identifies).
func (s *Store) Estabelecimento(ctx context.Context, c ledger.Chain) (*estabelecimento.Estabelecimento, error) {
	if c.EstabelecimentoID == 0 {
		return nil, nil
	}
	return estabelecimento.Find(ctx, s.db, c.EmpresaID, c.EstabelecimentoID)
}

// ChainVerifies says whether chain c verifies up to the
// punch of NSR nsr: each hash recomputed from the stored fields and the
// previous hash (core.VerifyMarcacao), from the furthest of this
// replica's last check and the chain audit's checkpoint (chainaudit), so
// that a check after a restart does not walk years of records. false
// means a stored punch does not match its hash, or the audit found the
// chain broken at or before nsr.
func (s *Store) ChainVerifies(ctx context.Context, c ledger.Chain, nsr int64) (bool, error) {
	s.mu.Lock()
	from := s.verified[c]
	s.mu.Unlock()
	if from.nsr >= nsr {
		return true, nil
	}
	audit, err := chainaudit.ReadChainCheckpoint(ctx, s.db, c)
	if err != nil {
		return false, fmt.Errorf("verificacao: %w", err)
	}
	if audit.Quebra != 0 && audit.Quebra <= nsr {
		return false, nil
	}
	if audit.NSR > from.nsr {
		from = checkpoint{nsr: audit.NSR, hash: audit.Hash}
	}
	last, ok, err := s.recompute(ctx, c, from, nsr)
	if !ok || err != nil {
		return false, err
	}
	s.mu.Lock()
	if last.nsr > s.verified[c].nsr {
		s.verified[c] = last
	}
	s.mu.Unlock()
	return true, nil
}

// recompute checks chain c's punches after from up to NSR nsr
// and returns the last one checked; false at the first that does not
// match its hash.
func (s *Store) recompute(ctx context.Context, c ledger.Chain, from checkpoint, nsr int64) (checkpoint, bool, error) {
	last := from
	if from.nsr >= nsr {
		return last, true, nil
	}
	rows, err := s.db.Query(ctx, `SELECT nsr, horario_registro, fuso_minutos, cpf, coletor, hash::text, hash_versao,
		coalesce(gravado_em, horario_registro), offline FROM registros_ponto WHERE empresa_id = $1 AND estabelecimento_id = $4 AND nsr > $2 AND nsr <= $3 ORDER BY nsr`,
		c.EmpresaID, from.nsr, nsr, c.EstabelecimentoID)
	if err != nil {
		return last, false, fmt.Errorf("verificacao: chain: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m core.Marcacao
		var hash string
		if err := rows.Scan(&m.NSR, &m.Horario, &m.OffsetMinutes, &m.CPF, &m.Coletor, &hash, &m.Versao,
			&m.Gravacao, &m.OffLine); err != nil {
			return last, false, fmt.Errorf("verificacao: chain: %w", err)
		}
		s.recomputed.Inc()
		if core.VerifyMarcacao(m, last.hash, hash) != nil {
			return last, false, nil
		}
		last = checkpoint{nsr: m.NSR, hash: hash}
	}
	if err := rows.Err(); err != nil {
		return last, false, fmt.Errorf("verificacao: chain: %w", err)
	}
	return last, true, nil
}
