package espelho

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store reads an employee's original punches and their adjustments.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// punch is an original punch with its adjustment, if any.
type punch struct {
	ID, NSR       int64
	Jornada       time.Time
	Tipo          string
	Horario       time.Time
	Ajuste        *string
	DataSolicitar *time.Time
	Motivo        *string
}

// punches returns employee funcionarioID's punches with workday in
// [inicio, fim], in NSR order.
func (s *Store) punches(ctx context.Context, empresaID, funcionarioID int64, inicio, fim time.Time) ([]punch, error) {
	rows, _ := s.db.Query(ctx, `SELECT p.id, p.nsr, p.jornada, p.tipo, p.horario_registro, a.status, a.data_solicitar, a.motivo
		FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id
		WHERE p.empresa_id = $1 AND p.funcionario_id = $2 AND p.jornada BETWEEN $3 AND $4
		ORDER BY p.nsr`, empresaID, funcionarioID, inicio, fim)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[punch])
	if err != nil {
		return nil, fmt.Errorf("espelho: punches: %w", err)
	}
	return out, nil
}
