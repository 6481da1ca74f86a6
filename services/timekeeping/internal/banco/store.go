// Package banco is the hour bank (banco de horas) of a company's
// employees: the company's policy (PUT/GET
// /registropontos/banco-horas/politica), the balance and movements of an
// employee up to a date (GET
// /registropontos/funcionario/{funcionarioId}/banco-horas), and the
// company's manual movements (POST
// /registropontos/funcionario/{funcionarioId}/banco-horas/movimentos).
//
// The rules are the record core's (core.ComputeBanco), applied by the
// workday engine (package apuracao) to the workdays it computes and the
// stored manual movements, which are append-only.
package banco

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
)

// ErrInativo refuses a manual movement while the company's bank is off.
var ErrInativo = domainerr.Conflict("banco_horas_inativo", "o banco de horas da empresa não está ativo")

// Store holds the SQL of policies and manual movements.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Politica returns company empresaID's policy (the default when none),
// as the workday engine reads it.
func (s *Store) Politica(ctx context.Context, empresaID int64) (Politica, error) {
	return apuracao.NewStore(s.db).Politica(ctx, empresaID)
}

// save stores company empresaID's policy p (validated), replacing the
// one before.
func (s *Store) save(ctx context.Context, empresaID, autor int64, ativo bool, p core.PoliticaBanco, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO banco_horas_politicas
		(empresa_id, ativo, periodo_meses, inicio, limite_credito, limite_debito, autor_id, atualizado_em)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (empresa_id) DO UPDATE SET ativo = EXCLUDED.ativo, periodo_meses = EXCLUDED.periodo_meses,
			inicio = EXCLUDED.inicio, limite_credito = EXCLUDED.limite_credito, limite_debito = EXCLUDED.limite_debito,
			autor_id = EXCLUDED.autor_id, atualizado_em = EXCLUDED.atualizado_em`,
		empresaID, ativo, p.PeriodoMeses, p.Inicio, p.LimiteCredito, p.LimiteDebito, autor, now)
	if err != nil {
		return fmt.Errorf("banco: salvar politica: %w", err)
	}
	return nil
}

// Lancamento is a stored manual movement as the POST answers it.
type Lancamento struct {
	ID            int64  `json:"id"`
	FuncionarioID int64  `json:"funcionarioId"`
	Data          string `json:"data"`
	Tipo          string `json:"tipo"`
	Minutos       int    `json:"minutos"`
	Motivo        string `json:"motivo"`
	RegistradoEm  string `json:"registradoEm"`
}

// novo is a validated manual movement; minutos carries its sign.
type novo struct {
	empresaID, funcionarioID, autor int64
	data                            time.Time
	tipo, motivo                    string
	minutos                         int
}

// post records n under the company's treatment lock: 409 while the
// bank is off or when its date is in a closed period.
func (s *Store) post(ctx context.Context, n novo, now time.Time) (Lancamento, error) {
	out := Lancamento{FuncionarioID: n.funcionarioID, Data: n.data.Format(time.DateOnly), Tipo: n.tipo,
		Minutos: n.minutos, Motivo: n.motivo, RegistradoEm: clock.FormatISO(now)}
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, n.empresaID); err != nil {
			return err
		}
		if err := fechamento.CheckOpen(ctx, tx, n.empresaID, n.data); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO banco_horas_movimentos
			(empresa_id, funcionario_id, data, tipo, minutos, motivo, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			n.empresaID, n.funcionarioID, n.data, n.tipo, n.minutos, n.motivo, n.autor, now).Scan(&out.ID)
	})
	if err != nil {
		return Lancamento{}, err
	}
	return out, nil
}
