package hoje

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store reads the counts of the pending items and the health of the
// records, in one round trip.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// resumo is what the store reads.
type resumo struct {
	ajustes, solicitacoes, indisponibilidades int
	// fimFechado is the latest standing closing's last date (zero: none).
	fimFechado time.Time
	// mesFechado is the latest month wholly inside standing closings
	// (zero: none); cientes who acknowledged it.
	mesFechado time.Time
	cientes    map[int64]bool
}

// standing are the company's closings not reopened.
const standing = `SELECT f.inicio, f.fim FROM fechamentos f WHERE f.empresa_id = $1
	AND NOT EXISTS (SELECT 1 FROM reaberturas r WHERE r.fechamento_id = f.id)`

// read reads company empresaID's summary; mesDesde is the start of this
// month (the unavailability events counted from it).
func (s *Store) read(ctx context.Context, empresaID int64, mesDesde time.Time) (resumo, error) {
	r := resumo{cientes: map[int64]bool{}}
	var fim, mes *time.Time
	b := &pgx.Batch{}
	b.Queue(`SELECT count(*) FROM ajustes WHERE empresa_id = $1 AND status = 'ajuste solicitado'`,
		empresaID).QueryRow(func(row pgx.Row) error { return row.Scan(&r.ajustes) })
	b.Queue(`SELECT count(*) FROM solicitacoes_marcacao s WHERE s.empresa_id = $1
		AND NOT EXISTS (SELECT 1 FROM solicitacoes_decisoes d WHERE d.solicitacao_id = s.id)`,
		empresaID).QueryRow(func(row pgx.Row) error { return row.Scan(&r.solicitacoes) })
	b.Queue(`SELECT count(*) FROM eventos_rep WHERE empresa_id = $1 AND codigo = '07' AND gravado_em >= $2`,
		empresaID, mesDesde).QueryRow(func(row pgx.Row) error { return row.Scan(&r.indisponibilidades) })
	b.Queue(`SELECT max(fim) FROM (`+standing+`) f`, empresaID).QueryRow(func(row pgx.Row) error {
		return row.Scan(&fim)
	})
	// The latest month before the latest closing's end whose every date
	// is inside a standing closing.
	b.Queue(`SELECT max(m)::date FROM generate_series(
			date_trunc('month', (SELECT min(inicio) FROM (`+standing+`) f)),
			date_trunc('month', (SELECT max(fim) FROM (`+standing+`) f)), interval '1 month') m
		WHERE NOT EXISTS (SELECT 1 FROM generate_series(m, m + interval '1 month' - interval '1 day', interval '1 day') d
			WHERE NOT EXISTS (SELECT 1 FROM (`+standing+`) f WHERE d::date BETWEEN f.inicio AND f.fim))`,
		empresaID).QueryRow(func(row pgx.Row) error { return row.Scan(&mes) })
	if err := s.db.SendBatch(ctx, b).Close(); err != nil {
		return resumo{}, fmt.Errorf("hoje: resumo: %w", err)
	}
	if fim != nil {
		r.fimFechado = *fim
	}
	if mes == nil {
		return r, nil
	}
	r.mesFechado = *mes
	rows, _ := s.db.Query(ctx, `SELECT funcionario_id FROM ciencias_espelho WHERE empresa_id = $1 AND mes = $2`,
		empresaID, r.mesFechado)
	var id int64
	if _, err := pgx.ForEachRow(rows, []any{&id}, func() error { r.cientes[id] = true; return nil }); err != nil {
		return resumo{}, fmt.Errorf("hoje: ciencias: %w", err)
	}
	return r, nil
}

// estabelecimento is company empresaID's establishment id as the employee
// service names it: 0 for 0 and for the principal's own id, id itself
// for any other. An id timekeeping has not been told of (another
// company's, or one whose event is still in company-billing's outbox) is
// not refused: the roster's employees of it are listed, none for another
// company's, so a just-created establishment filters without a 404.
func (s *Store) estabelecimento(ctx context.Context, empresaID, id int64) (int64, error) {
	if id == 0 {
		return 0, nil
	}
	var principal bool
	err := s.db.QueryRow(ctx, `SELECT principal FROM estabelecimentos WHERE empresa_id = $1 AND id = $2`,
		empresaID, id).Scan(&principal)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return id, nil
	case err != nil:
		return 0, fmt.Errorf("hoje: estabelecimento: %w", err)
	case principal:
		return 0, nil
	}
	return id, nil
}
