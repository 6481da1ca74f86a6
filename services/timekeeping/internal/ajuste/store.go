package ajuste

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

// Store holds the SQL of adjustments.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// author is who made a change, as the history records it.
type author struct {
	role string // jwtauth.RoleFuncionario or jwtauth.RoleEmpresa
	id   int64
}

// Request records employee funcionarioID's request to adjust his punch
// registroID. fits validates the requested time against the punch's
// workday. The adjustment row is locked (or created, a twin insert failing
// on its primary key) so that concurrent requests and decisions apply one
// after the other.
func (s *Store) Request(ctx context.Context, empresaID, funcionarioID, registroID int64, req pedido,
	now time.Time, fits func(jornada time.Time) error) error {
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		var jornada time.Time
		err := tx.QueryRow(ctx, `SELECT jornada FROM registros_ponto
			WHERE id = $1 AND funcionario_id = $2 AND empresa_id = $3`, registroID, funcionarioID, empresaID).Scan(&jornada)
		if errors.Is(err, pgx.ErrNoRows) {
			if err := notAPunch(ctx, tx, registroID, `funcionario_id = $2`, funcionarioID); err != nil {
				return err
			}
			return registro.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("ajuste: punch: %w", err)
		}
		if err := fits(jornada); err != nil {
			return err
		}
		status, err := lockStatus(ctx, tx, registroID)
		if err != nil {
			return err
		}
		if err := canRequest(status); err != nil {
			return err
		}
		if status == nil {
			_, err = tx.Exec(ctx, `INSERT INTO ajustes (registro_id, empresa_id, funcionario_id, status,
					data_solicitar, motivo, solicitado_em) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				registroID, empresaID, funcionarioID, core.StatusSolicitado, req.DataSolicitar, req.Motivo, now)
			if isPrimaryKeyViolation(err) {
				return errJaSolicitado // a twin request got there first
			}
		} else {
			_, err = tx.Exec(ctx, `UPDATE ajustes SET status = $2, data_solicitar = $3, motivo = $4,
					solicitado_em = $5, decidido_em = NULL WHERE registro_id = $1`,
				registroID, core.StatusSolicitado, req.DataSolicitar, req.Motivo, now)
		}
		if err != nil {
			return fmt.Errorf("ajuste: request: %w", err)
		}
		return history(ctx, tx, registroID, author{jwtauth.RoleFuncionario, funcionarioID}, now)
	})
}

// Decide approves (or rejects) the pending adjustment of company
// empresaID's punch registroID. Approving treats the punch, so it is
// refused (409 periodo_fechado) when its workday is in a closed period;
// it takes the company's chain lock first, as every treatment does.
func (s *Store) Decide(ctx context.Context, empresaID, registroID int64, aprovar bool, now time.Time) error {
	status := core.StatusReprovado
	if aprovar {
		status = core.StatusAprovado
	}
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if aprovar {
			if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
				return err
			}
		}
		var current string
		err := tx.QueryRow(ctx, `SELECT status FROM ajustes WHERE registro_id = $1 AND empresa_id = $2 FOR UPDATE`,
			registroID, empresaID).Scan(&current)
		if errors.Is(err, pgx.ErrNoRows) {
			if err := notAPunch(ctx, tx, registroID, `empresa_id = $2`, empresaID); err != nil {
				return err
			}
			return errSemPendente // the company's punch, never adjusted
		}
		if err != nil {
			return fmt.Errorf("ajuste: lock: %w", err)
		}
		if err := canDecide(&current); err != nil {
			return err
		}
		if aprovar {
			var jornada time.Time
			if err := tx.QueryRow(ctx, `SELECT jornada FROM registros_ponto WHERE id = $1`, registroID).Scan(&jornada); err != nil {
				return fmt.Errorf("ajuste: workday: %w", err)
			}
			if err := fechamento.CheckOpen(ctx, tx, empresaID, jornada); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE ajustes SET status = $2, decidido_em = $3 WHERE registro_id = $1`,
			registroID, status, now); err != nil {
			return fmt.Errorf("ajuste: decide: %w", err)
		}
		return history(ctx, tx, registroID, author{jwtauth.RoleEmpresa, empresaID}, now)
	})
}

// notAPunch explains why registroID is not a punch of the owner named by
// cond ($2 = owner): one of its absences is a 409, a punch is nil, and
// anything else (unknown, another employee's or company's) a 404.
func notAPunch(ctx context.Context, tx pgx.Tx, registroID int64, cond string, owner int64) error {
	var kind string
	err := tx.QueryRow(ctx, `SELECT 'punch' FROM registros_ponto WHERE id = $1 AND `+cond+`
		UNION ALL SELECT 'falta' FROM faltas WHERE id = $1 AND `+cond, registroID, owner).Scan(&kind)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return registro.ErrNotFound
	case err != nil:
		return fmt.Errorf("ajuste: record kind: %w", err)
	case kind == "falta":
		return errNaoAjustavel
	}
	return nil
}

// lockStatus locks registroID's adjustment and returns its status (nil
// when there is none yet).
func lockStatus(ctx context.Context, tx pgx.Tx, registroID int64) (*string, error) {
	var status string
	err := tx.QueryRow(ctx, `SELECT status FROM ajustes WHERE registro_id = $1 FOR UPDATE`, registroID).Scan(&status)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("ajuste: lock: %w", err)
	}
	return &status, nil
}

// history appends the adjustment's state after a change, with its author.
func history(ctx context.Context, tx pgx.Tx, registroID int64, a author, now time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO ajustes_historico (registro_id, empresa_id, status, data_solicitar,
			motivo, autor_role, autor_id, registrado_em)
		SELECT registro_id, empresa_id, status, data_solicitar, motivo, $2, $3, $4
		FROM ajustes WHERE registro_id = $1`, registroID, a.role, a.id, now)
	if err != nil {
		return fmt.Errorf("ajuste: history: %w", err)
	}
	return nil
}

// Item is a punch with its adjustment, as the adjustments list shows it.
type Item struct {
	registro.Record
	SolicitadoEm string  `json:"solicitadoEm"`
	DecididoEm   *string `json:"decididoEm"`
}

// List returns one page of company empresaID's adjustments in status,
// oldest request first, and how many there are.
func (s *Store) List(ctx context.Context, empresaID int64, status string, p page.Page) ([]Item, int, error) {
	var total int
	if err := s.db.QueryRow(ctx, `SELECT count(*) FROM ajustes WHERE empresa_id = $1 AND status = $2`,
		empresaID, status).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("ajuste: count: %w", err)
	}
	rows, _ := s.db.Query(ctx, `SELECT p.id, p.empresa_id, p.funcionario_id, p.jornada, p.horario_registro, p.tipo,
			p.localizacao, p.nsr, p.hash::text, a.status, a.data_solicitar, a.motivo, a.solicitado_em, a.decidido_em
		FROM ajustes a JOIN registros_ponto p ON p.id = a.registro_id
		WHERE a.empresa_id = $1 AND a.status = $2
		ORDER BY a.solicitado_em, a.registro_id LIMIT $3 OFFSET $4`, empresaID, status, p.Limit(), p.Offset())
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Item, error) {
		var r registro.Row
		var solicitado time.Time
		var decidido *time.Time
		err := row.Scan(&r.ID, &r.EmpresaID, &r.FuncionarioID, &r.Jornada, &r.HorarioRegistro, &r.Tipo,
			&r.Localizacao, &r.NSR, &r.Hash, &r.AjusteStatus, &r.DataSolicitar, &r.Motivo, &solicitado, &decidido)
		it := Item{Record: registro.Render(r), SolicitadoEm: clock.FormatISO(solicitado)}
		if decidido != nil {
			s := clock.FormatISO(*decidido)
			it.DecididoEm = &s
		}
		return it, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("ajuste: list: %w", err)
	}
	return items, total, nil
}

func isPrimaryKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "ajustes_pkey"
}
