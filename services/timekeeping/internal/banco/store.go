// Package banco is the hour bank (banco de horas) of a company's
// employees: the company's policy (PUT/GET
// /registropontos/banco-horas/politica), the balance and movements of an
// employee up to a date (GET
// /registropontos/funcionario/{funcionarioId}/banco-horas), and the
// company's manual movements (POST
// /registropontos/funcionario/{funcionarioId}/banco-horas/movimentos).
//
// The rules are the record core's (core.ComputeBanco): the balance is
// computed from the workdays as the report computes them (package
// relatorio), plus the stored manual movements, which are append-only.
package banco

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
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
)

// ErrInativo refuses a manual movement while the company's bank is off.
var ErrInativo = domainerr.Conflict("banco_horas_inativo", "o banco de horas da empresa não está ativo")

// Store holds the SQL of policies and manual movements.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Politica is a company's policy as the routes answer it; a company that
// never set one has the default, off (Inicio and AtualizadoEm null).
type Politica struct {
	Ativo                bool    `json:"ativo"`
	PeriodoMeses         int     `json:"periodoMeses"`
	Inicio               *string `json:"inicio"`
	LimiteCreditoMinutos int     `json:"limiteCreditoMinutos"`
	LimiteDebitoMinutos  int     `json:"limiteDebitoMinutos"`
	AtualizadoEm         *string `json:"atualizadoEm"`
}

// Core is the policy as the record core reads it.
func (p Politica) Core() core.PoliticaBanco {
	out := core.PoliticaBanco{PeriodoMeses: p.PeriodoMeses, LimiteCredito: p.LimiteCreditoMinutos,
		LimiteDebito: p.LimiteDebitoMinutos}
	if p.Inicio != nil {
		out.Inicio, _ = time.Parse(time.DateOnly, *p.Inicio)
	}
	return out
}

// Politica returns company empresaID's policy (the default when none).
func (s *Store) Politica(ctx context.Context, empresaID int64) (Politica, error) {
	p := Politica{PeriodoMeses: core.BancoPeriodoPadrao}
	var inicio, em time.Time
	err := s.db.QueryRow(ctx, `SELECT ativo, periodo_meses, inicio, limite_credito, limite_debito, atualizado_em
		FROM banco_horas_politicas WHERE empresa_id = $1`, empresaID).
		Scan(&p.Ativo, &p.PeriodoMeses, &inicio, &p.LimiteCreditoMinutos, &p.LimiteDebitoMinutos, &em)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("banco: politica: %w", err)
	}
	i, a := inicio.Format(time.DateOnly), clock.FormatISO(em)
	p.Inicio, p.AtualizadoEm = &i, &a
	return p, nil
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

// manuais returns the manual movements of employees ids of company
// empresaID dated in [inicio, fim], by employee, in date and id order.
func (s *Store) manuais(ctx context.Context, empresaID int64, ids []int64, inicio, fim time.Time) (map[int64][]core.MovimentoBanco, error) {
	rows, err := s.db.Query(ctx, `SELECT funcionario_id, id, data, tipo, minutos, motivo FROM banco_horas_movimentos
		WHERE empresa_id = $1 AND funcionario_id = ANY($2::bigint[]) AND data BETWEEN $3 AND $4
		ORDER BY funcionario_id, data, id`, empresaID, ids, inicio, fim)
	if err != nil {
		return nil, fmt.Errorf("banco: movimentos: %w", err)
	}
	defer rows.Close()
	out := map[int64][]core.MovimentoBanco{}
	for rows.Next() {
		var f int64
		var m core.MovimentoBanco
		if err := rows.Scan(&f, &m.ID, &m.Data, &m.Tipo, &m.Minutos, &m.Motivo); err != nil {
			return nil, fmt.Errorf("banco: movimentos: %w", err)
		}
		out[f] = append(out[f], m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("banco: movimentos: %w", err)
	}
	return out, nil
}
