// Package disponibilidade records the REP-P's sensitive events of
// availability (AFD type 6, Portaria MTP 671/2021 Anexo V): "08" when the
// service became unavailable to a company, "07" when it became available
// again.
//
// The rule (docs/compliance.md): the service is unavailable to a company
// while its punches are refused because the database cannot be reached.
// When writes succeed again and the outage lasted at least a threshold,
// each company whose punches were refused during it gets an 08 dated at
// the first refusal and a 07 dated at the recovery, under its chain lock
// with its next NSRs. Shorter blips (a pod restart, a failover of seconds)
// write nothing, so the records are not flooded. A company that punched
// nothing during the outage noticed none and gets none. Replicas each see
// the outage; the first to record it for a company does, the others see
// its 07 and skip.
package disponibilidade

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// Recorder writes an outage's two records for companies.
type Recorder interface {
	Record(ctx context.Context, empresas []int64, inicio, fim time.Time) error
}

// Monitor follows the clock-in's writes.
type Monitor struct {
	limite time.Duration
	rec    Recorder
	log    *slog.Logger

	mu       sync.Mutex
	desde    time.Time // the first refusal of the outage; zero while available
	empresas map[int64]bool
	// wg tracks the recordings under way (tests wait on it).
	wg sync.WaitGroup
}

// NewMonitor returns a monitor recording outages of at least limite with
// rec.
func NewMonitor(limite time.Duration, rec Recorder, log *slog.Logger) *Monitor {
	return &Monitor{limite: limite, rec: rec, log: log, empresas: map[int64]bool{}}
}

// Refused notes punches of empresas refused at at because the database
// could not be reached.
func (m *Monitor) Refused(empresas []int64, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.desde.IsZero() {
		m.desde = at
	}
	for _, id := range empresas {
		m.empresas[id] = true
	}
}

// Written notes a batch written at at: the service is available. An
// outage long enough is recorded in the background.
func (m *Monitor) Written(at time.Time) {
	m.mu.Lock()
	if m.desde.IsZero() {
		m.mu.Unlock()
		return
	}
	inicio, empresas := m.desde, m.empresas
	m.desde, m.empresas = time.Time{}, map[int64]bool{}
	m.mu.Unlock()
	if at.Sub(inicio) < m.limite {
		return
	}
	ids := make([]int64, 0, len(empresas))
	for id := range empresas {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := m.rec.Record(ctx, ids, inicio, at); err != nil {
			m.log.Error("could not record the outage (AFD type 6)", "empresas", len(ids), "inicio", inicio, "err", err)
		}
	}()
}

// Wait waits for the recordings under way.
func (m *Monitor) Wait() { m.wg.Wait() }

// Store records outages in the database.
type Store struct {
	db   *pgxpool.Pool
	zone func(ctx context.Context, empresaID int64) (*time.Location, error)
}

// NewStore returns a Store on db; zone gives a company's time zone.
func NewStore(db *pgxpool.Pool, zone func(ctx context.Context, empresaID int64) (*time.Location, error)) *Store {
	return &Store{db: db, zone: zone}
}

// Record writes, for each company, 08 at inicio and 07 at fim, unless a
// 07 at or after inicio is already there (another replica recorded it).
func (s *Store) Record(ctx context.Context, empresas []int64, inicio, fim time.Time) error {
	for _, id := range empresas {
		loc, err := s.zone(ctx, id)
		if err != nil {
			return err
		}
		if err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error { return record(ctx, tx, id, inicio, fim, loc) }); err != nil {
			return fmt.Errorf("disponibilidade: company %d: %w", id, err)
		}
	}
	return nil
}

func record(ctx context.Context, tx pgx.Tx, empresaID int64, inicio, fim time.Time, loc *time.Location) error {
	// The REP was down for every establishment of the company: each chain
	// that has records gets the pair (a company without any, its
	// principal chain).
	chains, err := ledger.Chains(ctx, tx, empresaID)
	if err != nil {
		return err
	}
	if len(chains) == 0 {
		chains = []ledger.Chain{ledger.Principal(empresaID)}
	}
	if _, err := ledger.Lock(ctx, tx, chains...); err != nil {
		return err
	}
	for _, c := range chains {
		if _, err := ledger.AppendTx(ctx, tx, c, func(core.Head) ([]ledger.Record, error) {
			return outage(ctx, tx, c, inicio, fim, loc)
		}); err != nil {
			return err
		}
	}
	return nil
}

// outage is chain c's 08 at inicio and 07 at fim, unless a 07 at or after
// inicio is already there (another replica recorded it).
func outage(ctx context.Context, tx pgx.Tx, c ledger.Chain, inicio, fim time.Time, loc *time.Location) ([]ledger.Record, error) {
	var recorded bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM eventos_rep
		WHERE empresa_id = $1 AND estabelecimento_id = $2 AND codigo = $3 AND gravado_em >= $4)`,
		c.EmpresaID, c.EstabelecimentoID, core.EventoDisponibilidade, inicio).Scan(&recorded); err != nil || recorded {
		return nil, err
	}
	return []ledger.Record{
		ledger.Evento{Codigo: core.EventoIndisponibilidade, GravadoEm: inicio, Fuso: core.Offset(inicio, loc)},
		ledger.Evento{Codigo: core.EventoDisponibilidade, GravadoEm: fim, Fuso: core.Offset(fim, loc)},
	}, nil
}
