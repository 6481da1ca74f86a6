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

// punch is an original punch (NSR set) with its adjustment, if any, or
// a punch the company included (NSR nil, Motivo its reason); either may
// be disregarded now (Desconsiderada, with the reason).
type punch struct {
	ID             int64
	NSR            *int64
	Jornada        time.Time
	Tipo           string
	Horario        time.Time
	Ajuste         *string
	DataSolicitar  *time.Time
	Motivo         *string
	Desconsiderada bool
	MotivoDesc     *string
}

// punches returns employee funcionarioID's punches with workday in
// [inicio, fim]: the originals in NSR order, then the inclusions by time.
func (s *Store) punches(ctx context.Context, empresaID, funcionarioID int64, inicio, fim time.Time) ([]punch, error) {
	rows, _ := s.db.Query(ctx, `SELECT m.*, coalesce(d.desconsiderada, false), d.motivo FROM (
			SELECT p.id, p.nsr, p.jornada, p.tipo, p.horario_registro, a.status, a.data_solicitar, a.motivo
			FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id
			WHERE p.empresa_id = $1 AND p.funcionario_id = $2 AND p.jornada BETWEEN $3 AND $4
			UNION ALL
			SELECT i.id, NULL, i.jornada, '', i.horario, NULL, NULL, i.motivo
			FROM marcacoes_incluidas i
			WHERE i.empresa_id = $1 AND i.funcionario_id = $2 AND i.jornada BETWEEN $3 AND $4
		) m
		LEFT JOIN LATERAL (SELECT x.desconsiderada, x.motivo FROM desconsideracoes x
			WHERE x.registro_id = m.id ORDER BY x.id DESC LIMIT 1) d ON true
		ORDER BY m.nsr NULLS LAST, m.horario_registro`, empresaID, funcionarioID, inicio, fim)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[punch])
	if err != nil {
		return nil, fmt.Errorf("espelho: punches: %w", err)
	}
	return out, nil
}

// abono is a standing (not cancelled) abono of the timesheet.
type abono struct {
	Data        time.Time
	Inicio, Fim *int16
	Tipo        string
	Motivo      string
}

// abonos returns employee funcionarioID's standing abonos dated in
// [inicio, fim], by date and start.
func (s *Store) abonos(ctx context.Context, empresaID, funcionarioID int64, inicio, fim time.Time) ([]abono, error) {
	rows, _ := s.db.Query(ctx, `SELECT a.data, a.inicio, a.fim, a.tipo, a.motivo FROM abonos a
		WHERE a.empresa_id = $1 AND a.funcionario_id = $2 AND a.data BETWEEN $3 AND $4
		AND NOT EXISTS (SELECT 1 FROM abonos_cancelados c WHERE c.abono_id = a.id)
		ORDER BY a.data, a.inicio NULLS FIRST, a.id`, empresaID, funcionarioID, inicio, fim)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[abono])
	if err != nil {
		return nil, fmt.Errorf("espelho: abonos: %w", err)
	}
	return out, nil
}
