package aej

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// Store reads the treated data of a period.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// ponto is a punch of the period: an original (NSR set, with its
// approved adjustment if any) or an inclusion, either maybe disregarded
// now (the latest desconsideracoes row).
type ponto struct {
	FuncionarioID  int64
	Jornada        time.Time
	NSR            *int64
	Horario        time.Time
	Fuso           int16
	Ajustado       *time.Time
	Motivo         string
	Desconsiderada bool
	MotivoDesc     string
}

// pontos are company empresaID's punches of the workdays [$2, $3], by
// employee and workday, the originals in NSR order and then the
// inclusions by time (the order of the day's tipo sequence); $4 limit.
const pontos = `SELECT m.funcionario_id, m.jornada, m.nsr, m.horario, m.fuso_minutos, m.ajustado, m.motivo,
		coalesce(d.desconsiderada, false), coalesce(d.motivo, '')
	FROM (
		SELECT p.id, p.funcionario_id, p.jornada, p.nsr, p.horario_registro AS horario, p.fuso_minutos,
			CASE WHEN a.status = 'ajuste aprovado pela empresa' THEN a.data_solicitar END AS ajustado,
			CASE WHEN a.status = 'ajuste aprovado pela empresa' THEN a.motivo ELSE '' END AS motivo
		FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id
		WHERE p.empresa_id = $1 AND p.jornada BETWEEN $2 AND $3
		UNION ALL
		SELECT i.id, i.funcionario_id, i.jornada, NULL, i.horario, i.fuso_minutos, NULL, i.motivo
		FROM marcacoes_incluidas i WHERE i.empresa_id = $1 AND i.jornada BETWEEN $2 AND $3
	) m
	LEFT JOIN LATERAL (SELECT x.desconsiderada, x.motivo FROM desconsideracoes x
		WHERE x.registro_id = m.id ORDER BY x.id DESC LIMIT 1) d ON true
	ORDER BY m.funcionario_id, m.jornada, m.nsr NULLS LAST, m.horario
	LIMIT $4`

// errTooMany means the period holds more punches than one file may.
var errTooMany = errors.New("aej: too many punches")

// pontos returns the period's punches, at most max (errTooMany beyond).
func (s *Store) pontos(ctx context.Context, empresaID int64, inicio, fim time.Time, max int) ([]ponto, error) {
	rows, _ := s.db.Query(ctx, pontos, empresaID, inicio, fim, max+1)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ponto])
	if err != nil {
		return nil, fmt.Errorf("aej: punches: %w", err)
	}
	if len(out) > max {
		return nil, errTooMany
	}
	return out, nil
}

// falta is a standing absence that no whole-day abono excuses.
type falta struct {
	FuncionarioID int64
	Data          time.Time
}

// faltas returns the period's unexcused absences, by employee and date.
func (s *Store) faltas(ctx context.Context, empresaID int64, inicio, fim time.Time) ([]falta, error) {
	rows, _ := s.db.Query(ctx, `SELECT f.funcionario_id, f.data FROM faltas f
		WHERE f.empresa_id = $1 AND f.data BETWEEN $2 AND $3
		AND NOT EXISTS (SELECT 1 FROM faltas_desfeitas x WHERE x.falta_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM abonos a WHERE a.funcionario_id = f.funcionario_id AND a.data = f.data
			AND a.inicio IS NULL AND NOT EXISTS (SELECT 1 FROM abonos_cancelados c WHERE c.abono_id = a.id))
		ORDER BY f.funcionario_id, f.data`, empresaID, inicio, fim)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[falta])
	if err != nil {
		return nil, fmt.Errorf("aej: absences: %w", err)
	}
	return out, nil
}

// pontoAEJ is p as the core reads it.
func (p ponto) pontoAEJ() core.PontoAEJ {
	return core.PontoAEJ{Horario: p.Horario, OffsetMinutes: int(p.Fuso), Original: p.NSR != nil, Motivo: p.Motivo,
		Desconsiderada: p.Desconsiderada, MotivoDesc: p.MotivoDesc, Ajustado: p.Ajustado}
}
