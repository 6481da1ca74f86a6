package lembrete

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// Store holds the switches and the messages (migration 00019).
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Envio is one message, keyed by Tipo, DestinatarioID and Data.
type Envio struct {
	Tipo           string
	DestinatarioID int64
	Data           time.Time
	EmpresaID      int64
	Para, Assunto  string
	Corpo          string
	Tentativas     int
}

// Tipos of message.
const (
	TipoImpares = "marcacoes_impares"
	TipoResumo  = "resumo_diario"
)

// EmpresaAtiva reports company empresaID's switch (no row: on).
func (s *Store) EmpresaAtiva(ctx context.Context, empresaID int64) (bool, error) {
	ativo := true
	err := s.db.QueryRow(ctx, `SELECT ativo FROM lembretes_empresas WHERE empresa_id = $1`, empresaID).Scan(&ativo)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("lembrete: empresa: %w", err)
	}
	return ativo, nil
}

// SetEmpresa sets company empresaID's switch.
func (s *Store) SetEmpresa(ctx context.Context, empresaID int64, ativo bool, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO lembretes_empresas (empresa_id, ativo, atualizado_em) VALUES ($1, $2, $3)
		ON CONFLICT (empresa_id) DO UPDATE SET ativo = EXCLUDED.ativo, atualizado_em = EXCLUDED.atualizado_em`,
		empresaID, ativo, now)
	if err != nil {
		return fmt.Errorf("lembrete: set empresa: %w", err)
	}
	return nil
}

// FuncionarioAtivo reports whether employee funcionarioID gets reminders.
func (s *Store) FuncionarioAtivo(ctx context.Context, funcionarioID int64) (bool, error) {
	var out bool
	err := s.db.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM lembretes_optout WHERE funcionario_id = $1)`,
		funcionarioID).Scan(&out)
	if err != nil {
		return false, fmt.Errorf("lembrete: optout: %w", err)
	}
	return out, nil
}

// SetFuncionario records employee funcionarioID's choice.
func (s *Store) SetFuncionario(ctx context.Context, empresaID, funcionarioID int64, ativo bool, now time.Time) error {
	var err error
	if ativo {
		_, err = s.db.Exec(ctx, `DELETE FROM lembretes_optout WHERE funcionario_id = $1`, funcionarioID)
	} else {
		_, err = s.db.Exec(ctx, `INSERT INTO lembretes_optout (funcionario_id, empresa_id, registrado_em)
			VALUES ($1, $2, $3) ON CONFLICT (funcionario_id) DO NOTHING`, funcionarioID, empresaID, now)
	}
	if err != nil {
		return fmt.Errorf("lembrete: set optout: %w", err)
	}
	return nil
}

// empresas are the companies with records (a chain) and reminders on.
func (s *Store) empresas(ctx context.Context) ([]int64, error) {
	withRecords, err := ledger.Companies(ctx, s.db)
	if err != nil {
		return nil, fmt.Errorf("lembrete: empresas: %w", err)
	}
	rows, _ := s.db.Query(ctx, `SELECT id FROM unnest($1::bigint[]) AS id WHERE NOT EXISTS
		(SELECT 1 FROM lembretes_empresas l WHERE l.empresa_id = id AND NOT l.ativo) ORDER BY id`, withRecords)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("lembrete: empresas: %w", err)
	}
	return ids, nil
}

// optouts are company empresaID's employees who want no reminder.
func (s *Store) optouts(ctx context.Context, empresaID int64) (map[int64]bool, error) {
	rows, _ := s.db.Query(ctx, `SELECT funcionario_id FROM lembretes_optout WHERE empresa_id = $1`, empresaID)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("lembrete: optouts: %w", err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// claim records e as to be sent; false when it already was (by this
// pass or another replica's).
func (s *Store) claim(ctx context.Context, e Envio, now time.Time) (bool, error) {
	tag, err := s.db.Exec(ctx, `INSERT INTO lembretes_envios (tipo, destinatario_id, data, empresa_id, para, assunto,
		corpo, proxima_tentativa, criado_em) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT DO NOTHING`,
		e.Tipo, e.DestinatarioID, e.Data, e.EmpresaID, e.Para, e.Assunto, e.Corpo, now)
	if err != nil {
		return false, fmt.Errorf("lembrete: claim: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// due are up to limit messages waiting whose next attempt is due.
func (s *Store) due(ctx context.Context, now time.Time, limit int) ([]Envio, error) {
	rows, _ := s.db.Query(ctx, `SELECT tipo, destinatario_id, data, empresa_id, para, assunto, corpo, tentativas
		FROM lembretes_envios WHERE estado = 'pendente' AND proxima_tentativa <= $1
		ORDER BY proxima_tentativa LIMIT $2`, now, limit)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Envio, error) {
		var e Envio
		err := row.Scan(&e.Tipo, &e.DestinatarioID, &e.Data, &e.EmpresaID, &e.Para, &e.Assunto, &e.Corpo, &e.Tentativas)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("lembrete: due: %w", err)
	}
	return out, nil
}

// start moves e from pendente to enviando; false when it was not pending
// any more. Committed before the SMTP delivery: a sender that dies
// mid-delivery leaves it enviando, never sent again.
func (s *Store) start(ctx context.Context, e Envio) (bool, error) {
	tag, err := s.db.Exec(ctx, `UPDATE lembretes_envios SET estado = 'enviando', tentativas = tentativas + 1
		WHERE tipo = $1 AND destinatario_id = $2 AND data = $3 AND estado = 'pendente'`, e.Tipo, e.DestinatarioID, e.Data)
	if err != nil {
		return false, fmt.Errorf("lembrete: start: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// finish records e's delivery (failure nil) or its failure, to be tried
// again at next (nil: never, falhou).
func (s *Store) finish(ctx context.Context, e Envio, now time.Time, failure error, next *time.Time) error {
	var err error
	switch {
	case failure == nil:
		_, err = s.db.Exec(ctx, `UPDATE lembretes_envios SET estado = 'enviado', enviado_em = $4, erro = NULL
			WHERE tipo = $1 AND destinatario_id = $2 AND data = $3`, e.Tipo, e.DestinatarioID, e.Data, now)
	case next == nil:
		_, err = s.db.Exec(ctx, `UPDATE lembretes_envios SET estado = 'falhou', erro = $4
			WHERE tipo = $1 AND destinatario_id = $2 AND data = $3`, e.Tipo, e.DestinatarioID, e.Data, failure.Error())
	default:
		_, err = s.db.Exec(ctx, `UPDATE lembretes_envios SET estado = 'pendente', erro = $4, proxima_tentativa = $5
			WHERE tipo = $1 AND destinatario_id = $2 AND data = $3`, e.Tipo, e.DestinatarioID, e.Data, failure.Error(), *next)
	}
	if err != nil {
		return fmt.Errorf("lembrete: finish: %w", err)
	}
	return nil
}
