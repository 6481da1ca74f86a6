package tratamento

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// MarcacaoTratada is a punch of a period as the treatment left it: an original
// (NSR set, with its adjustment if any) or an inclusion (NSR nil, Motivo
// its reason), either maybe disregarded now (the latest
// desconsideracoes row, with its reason).
type MarcacaoTratada struct {
	ID             int64
	FuncionarioID  int64
	Jornada        time.Time
	NSR            *int64
	Tipo           string // an original's; empty for an inclusion
	Horario        time.Time
	Fuso           int16
	Ajuste         *string // the adjustment's status, if any
	DataSolicitar  *time.Time
	Motivo         *string // the adjustment's reason, or the inclusion's
	Desconsiderada bool
	MotivoDesc     *string
}

// Aprovado says whether the punch has an approved adjustment.
func (p MarcacaoTratada) Aprovado() bool { return p.Ajuste != nil && *p.Ajuste == core.StatusAprovado }

// Ajustado is the time an approved adjustment set, nil without one.
func (p MarcacaoTratada) Ajustado() *time.Time {
	if p.Aprovado() {
		return p.DataSolicitar
	}
	return nil
}

// tratadasSQL selects company $1's punches of the workdays [$2, $3], by
// employee and workday, the originals in NSR order and then the
// inclusions by time; $4 limits them (null: all). filter narrows both
// halves: it is given the half's table alias.
func tratadasSQL(filter func(alias string) string) string {
	return `SELECT m.*, coalesce(d.desconsiderada, false), d.motivo
	FROM (
		SELECT p.id, p.funcionario_id, p.jornada, p.nsr, p.tipo, p.horario_registro AS horario, p.fuso_minutos,
			a.status, a.data_solicitar, a.motivo
		FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id
		WHERE p.empresa_id = $1 AND p.jornada BETWEEN $2 AND $3` + filter("p") + `
		UNION ALL
		SELECT i.id, i.funcionario_id, i.jornada, NULL, '', i.horario, i.fuso_minutos, NULL, NULL, i.motivo
		FROM marcacoes_incluidas i WHERE i.empresa_id = $1 AND i.jornada BETWEEN $2 AND $3` + filter("i") + `
	) m
	LEFT JOIN LATERAL (SELECT x.desconsiderada, x.motivo FROM desconsideracoes x
		WHERE x.registro_id = m.id ORDER BY x.id DESC LIMIT 1) d ON true
	ORDER BY m.funcionario_id, m.jornada, m.nsr NULLS LAST, m.horario
	LIMIT $4`
}

var (
	tratadasEmpresa     = tratadasSQL(func(string) string { return "" })
	tratadasFuncionario = tratadasSQL(func(alias string) string { return " AND " + alias + ".funcionario_id = $5" })
)

// ErrTooMany means the period holds more punches than asked for.
var ErrTooMany = errors.New("tratamento: too many punches")

// Tratadas returns company empresaID's punches of the workdays [inicio,
// fim], by employee and workday: the originals in NSR order, then the
// inclusions by time. max > 0 bounds them (ErrTooMany beyond).
func (s *Store) Tratadas(ctx context.Context, empresaID int64, inicio, fim time.Time, max int) ([]MarcacaoTratada, error) {
	return s.tratadas(ctx, tratadasEmpresa, max, empresaID, inicio, fim)
}

// TratadasFuncionario is Tratadas of employee funcionarioID alone, unbounded.
func (s *Store) TratadasFuncionario(ctx context.Context, empresaID, funcionarioID int64, inicio, fim time.Time) ([]MarcacaoTratada, error) {
	return s.tratadas(ctx, tratadasFuncionario, 0, empresaID, inicio, fim, funcionarioID)
}

func (s *Store) tratadas(ctx context.Context, sql string, max int, empresaID int64, inicio, fim time.Time,
	more ...any) ([]MarcacaoTratada, error) {
	var limit *int
	if max > 0 {
		limit = new(max + 1)
	}
	rows, _ := s.db.Query(ctx, sql, append([]any{empresaID, inicio, fim, limit}, more...)...)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[MarcacaoTratada])
	if err != nil {
		return nil, fmt.Errorf("tratamento: punches: %w", err)
	}
	if max > 0 && len(out) > max {
		return nil, ErrTooMany
	}
	return out, nil
}
