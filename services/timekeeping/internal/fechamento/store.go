// Package fechamento closes a company's periods (POST
// /registropontos/fechamentos): no treatment may touch a date inside a
// closed period until the company reopens it, with a reason kept in the
// history. After closing, each employee acknowledges his month's
// timesheet (ciência), and the company sees who has not.
//
// Every treatment is written under the company's chain lock (Lock), the
// lock clock-ins and closings take too, so a closing and a treatment of
// the same dates cannot slip past each other.
package fechamento

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// ErrFechado refuses a treatment inside a closed period.
var ErrFechado = domainerr.Conflict("periodo_fechado", "a data está em um período fechado; reabra o período para alterá-la")

var (
	errSobreposto     = domainerr.Conflict("fechamento_sobreposto", "o período se sobrepõe a outro período fechado")
	errJaReaberto     = domainerr.Conflict("fechamento_reaberto", "este fechamento já foi reaberto")
	errNaoFechado     = domainerr.Conflict("periodo_nao_fechado", "o mês ainda não foi fechado pela empresa")
	errNaoEncontrado  = domainerr.NotFound("fechamento não encontrado")
	errTratamentoLock = errors.New("fechamento: lock")
)

type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Lock takes the locks of company empresaID's chains (the ones every
// clock-in of the company takes, ledger.LockCompany) until tx ends.
func Lock(ctx context.Context, tx execer, empresaID int64) error {
	if err := ledger.LockCompany(ctx, tx, empresaID); err != nil {
		return fmt.Errorf("%w: %w", errTratamentoLock, err)
	}
	return nil
}

// standing selects a company's closings that were not reopened.
const standing = `SELECT f.* FROM fechamentos f
	WHERE f.empresa_id = $1 AND NOT EXISTS (SELECT 1 FROM reaberturas r WHERE r.fechamento_id = f.id)`

// CheckOpen refuses with ErrFechado when any of datas is inside one of
// company empresaID's standing closings. Call it under Lock.
func CheckOpen(ctx context.Context, tx execer, empresaID int64, datas ...time.Time) error {
	var closed bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM (`+standing+`) f, unnest($2::date[]) d
		WHERE d BETWEEN f.inicio AND f.fim)`, empresaID, datas).Scan(&closed)
	if err != nil {
		return fmt.Errorf("fechamento: check: %w", err)
	}
	if closed {
		return ErrFechado
	}
	return nil
}

// CheckOpenRange refuses with ErrFechado when a day from de (nil: the
// beginning of time) to the day before ate is inside one of company
// empresaID's standing closings. Call it under Lock.
func CheckOpenRange(ctx context.Context, tx execer, empresaID int64, de *time.Time, ate time.Time) error {
	var closed bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM (`+standing+`) f
		WHERE f.inicio < $2::date AND ($3::date IS NULL OR f.fim >= $3::date))`, empresaID, ate, de).Scan(&closed)
	if err != nil {
		return fmt.Errorf("fechamento: check range: %w", err)
	}
	if closed {
		return ErrFechado
	}
	return nil
}

// Store holds the SQL of closings and acknowledgements.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Fechamento is a closed period, with its reopening when there was one.
type Fechamento struct {
	ID         int64       `json:"id"`
	Inicio     string      `json:"inicio"`
	Fim        string      `json:"fim"`
	FechadoEm  string      `json:"fechadoEm"`
	Reabertura *Reabertura `json:"reabertura"`
}

// Reabertura is a closing undone, with its reason.
type Reabertura struct {
	Motivo     string `json:"motivo"`
	ReabertoEm string `json:"reabertoEm"`
}

const selectFechamento = `SELECT f.id, f.inicio, f.fim, f.registrado_em, r.motivo, r.registrado_em
	FROM fechamentos f LEFT JOIN reaberturas r ON r.fechamento_id = f.id `

func scanFechamento(row pgx.CollectableRow) (Fechamento, error) {
	var f Fechamento
	var inicio, fim, fechado time.Time
	var motivo *string
	var em *time.Time
	if err := row.Scan(&f.ID, &inicio, &fim, &fechado, &motivo, &em); err != nil {
		return f, err
	}
	f.Inicio, f.Fim, f.FechadoEm = inicio.Format(time.DateOnly), fim.Format(time.DateOnly), clock.FormatISO(fechado)
	if motivo != nil && em != nil {
		f.Reabertura = &Reabertura{Motivo: *motivo, ReabertoEm: clock.FormatISO(*em)}
	}
	return f, nil
}

// Close closes [inicio, fim] for company empresaID: 409 when it overlaps
// a standing closing.
func (s *Store) Close(ctx context.Context, empresaID, autor int64, inicio, fim, now time.Time) (Fechamento, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		var overlap bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM (`+standing+`) f WHERE f.inicio <= $3 AND $2 <= f.fim)`,
			empresaID, inicio, fim).Scan(&overlap); err != nil {
			return fmt.Errorf("fechamento: overlap: %w", err)
		}
		if overlap {
			return errSobreposto
		}
		return tx.QueryRow(ctx, `INSERT INTO fechamentos (empresa_id, inicio, fim, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, empresaID, inicio, fim, autor, now).Scan(&id)
	})
	if err != nil {
		return Fechamento{}, err
	}
	return s.get(ctx, empresaID, id)
}

// Reopen reopens closing id of company empresaID with motivo: 404 for
// another company's, 409 when already reopened.
func (s *Store) Reopen(ctx context.Context, empresaID, id, autor int64, motivo string, now time.Time) (Fechamento, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		f, err := s.getTx(ctx, tx, empresaID, id)
		if err != nil {
			return err
		}
		if f.Reabertura != nil {
			return errJaReaberto
		}
		_, err = tx.Exec(ctx, `INSERT INTO reaberturas (fechamento_id, empresa_id, motivo, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5)`, id, empresaID, motivo, autor, now)
		return err
	})
	if err != nil {
		return Fechamento{}, err
	}
	return s.get(ctx, empresaID, id)
}

func (s *Store) get(ctx context.Context, empresaID, id int64) (Fechamento, error) {
	return s.getTx(ctx, s.db, empresaID, id)
}

func (s *Store) getTx(ctx context.Context, q database.Querier, empresaID, id int64) (Fechamento, error) {
	return database.One(ctx, q, scanFechamento, errNaoEncontrado, "fechamento: get",
		selectFechamento+`WHERE f.id = $1 AND f.empresa_id = $2`, id, empresaID)
}

// List is a page of company empresaID's closings, latest period first.
func (s *Store) List(ctx context.Context, empresaID int64, p page.Page) ([]Fechamento, int, error) {
	return database.Page(ctx, s.db, scanFechamento, "fechamento", `SELECT count(*) FROM fechamentos WHERE empresa_id = $1`,
		selectFechamento+`WHERE f.empresa_id = $1 ORDER BY f.inicio DESC, f.id DESC LIMIT $2 OFFSET $3`,
		p.Limit(), p.Offset(), empresaID)
}

// Ciencia is an employee's acknowledgement of a month's timesheet.
type Ciencia struct {
	FuncionarioID int64  `json:"funcionarioId"`
	Mes           string `json:"mes"`
	CienteEm      string `json:"cienteEm"`
}

// DarCiencia records that employee funcionarioID acknowledged the
// timesheet of the month starting mes, which must lie wholly inside a
// standing closing (409 otherwise). A repeat answers the first one.
func (s *Store) DarCiencia(ctx context.Context, empresaID, funcionarioID int64, mes, now time.Time) (Ciencia, error) {
	out := Ciencia{FuncionarioID: funcionarioID, Mes: mes.Format("2006-01")}
	var em time.Time
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		closed, err := monthClosed(ctx, tx, empresaID, mes)
		if err != nil {
			return err
		}
		if !closed {
			return errNaoFechado
		}
		_, err = tx.Exec(ctx, `INSERT INTO ciencias_espelho (empresa_id, funcionario_id, mes, registrado_em)
			VALUES ($1, $2, $3, $4) ON CONFLICT (funcionario_id, mes) DO NOTHING`, empresaID, funcionarioID, mes, now)
		if err != nil {
			return fmt.Errorf("fechamento: ciencia: %w", err)
		}
		return tx.QueryRow(ctx, `SELECT registrado_em FROM ciencias_espelho WHERE funcionario_id = $1 AND mes = $2`,
			funcionarioID, mes).Scan(&em)
	})
	out.CienteEm = clock.FormatISO(em)
	return out, err
}

// monthClosed reports whether every date of the month starting mes is
// inside a standing closing of the company.
func monthClosed(ctx context.Context, q execer, empresaID int64, mes time.Time) (bool, error) {
	var open bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM generate_series($2::date, ($2::date + interval '1 month' - interval '1 day')::date,
			interval '1 day') d
		WHERE NOT EXISTS (SELECT 1 FROM (`+standing+`) f WHERE d::date BETWEEN f.inicio AND f.fim))`,
		empresaID, mes).Scan(&open)
	if err != nil {
		return false, fmt.Errorf("fechamento: month closed: %w", err)
	}
	return !open, nil
}

// Ciencias returns, of employees ids of company empresaID, when each
// acknowledged the month starting mes (absent: not yet), and whether the
// month is closed.
func (s *Store) Ciencias(ctx context.Context, empresaID int64, ids []int64, mes time.Time) (map[int64]time.Time, bool, error) {
	closed, err := monthClosed(ctx, s.db, empresaID, mes)
	if err != nil {
		return nil, false, err
	}
	rows, _ := s.db.Query(ctx, `SELECT funcionario_id, registrado_em FROM ciencias_espelho
		WHERE empresa_id = $1 AND mes = $2 AND funcionario_id = ANY($3)`, empresaID, mes, ids)
	out := map[int64]time.Time{}
	var id int64
	var em time.Time
	_, err = pgx.ForEachRow(rows, []any{&id, &em}, func() error {
		out[id] = em.UTC()
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("fechamento: ciencias: %w", err)
	}
	return out, closed, nil
}
