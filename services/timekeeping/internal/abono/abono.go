// Package abono keeps excused absences (abonos): a whole day or a time
// range of an employee's day excused by a medical certificate, an
// attendance statement, a leave, a day off or another reason. The
// excused scheduled minutes count as worked for pay and never as overtime
// (core.Abonados). Append-only: cancelling adds a row to
// abonos_cancelados, with its reason.
package abono

import (
	"context"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Tipos are the kinds of abono.
var Tipos = map[string]bool{"atestado_medico": true, "declaracao_comparecimento": true, "licenca": true,
	"folga": true, "outro": true}

// maxFuturo bounds how far ahead an abono may be given (a planned leave).
const maxFuturo = 366

var (
	errSobreposto    = domainerr.Conflict("abono_sobreposto", "já existe um abono neste dia que se sobrepõe a este")
	errJaCancelado   = domainerr.Conflict("abono_cancelado", "este abono já foi cancelado")
	errNaoEncontrado = domainerr.NotFound("abono não encontrado")
)

// Abono is an excused absence as the routes answer it.
type Abono struct {
	ID            int64         `json:"id"`
	FuncionarioID int64         `json:"funcionarioId"`
	Data          string        `json:"data"`
	Inicio        *string       `json:"inicio"`
	Fim           *string       `json:"fim"`
	Tipo          string        `json:"tipo"`
	Motivo        string        `json:"motivo"`
	RegistradoEm  string        `json:"registradoEm"`
	Cancelamento  *Cancelamento `json:"cancelamento"`
}

// Cancelamento is an abono undone.
type Cancelamento struct {
	Motivo      string `json:"motivo"`
	CanceladoEm string `json:"canceladoEm"`
}

// Store holds the SQL of abonos.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

const selectAbono = `SELECT a.id, a.funcionario_id, a.data, a.inicio, a.fim, a.tipo, a.motivo, a.registrado_em,
	c.motivo, c.registrado_em
	FROM abonos a LEFT JOIN abonos_cancelados c ON c.abono_id = a.id `

func scanAbono(row pgx.CollectableRow) (Abono, error) {
	var a Abono
	var data, em time.Time
	var inicio, fim *int16
	var cm *string
	var ce *time.Time
	if err := row.Scan(&a.ID, &a.FuncionarioID, &data, &inicio, &fim, &a.Tipo, &a.Motivo, &em, &cm, &ce); err != nil {
		return a, err
	}
	a.Data, a.RegistradoEm = data.Format(time.DateOnly), clock.FormatISO(em)
	a.Inicio, a.Fim = hhmm(inicio), hhmm(fim)
	if cm != nil && ce != nil {
		a.Cancelamento = &Cancelamento{Motivo: *cm, CanceladoEm: clock.FormatISO(*ce)}
	}
	return a, nil
}

func hhmm(m *int16) *string {
	if m == nil {
		return nil
	}
	s := fmt.Sprintf("%02d:%02d", *m/60, *m%60)
	return &s
}

// novo is a validated abono to record.
type novo struct {
	empresaID, funcionarioID, autor int64
	data                            time.Time
	inicio, fim                     *int // minutes after local midnight, both or neither
	tipo, motivo                    string
}

// create records n: 409 when its date is closed or it overlaps a standing
// abono of the same day (a whole day overlaps everything).
func (s *Store) create(ctx context.Context, n novo, now time.Time) (Abono, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, n.empresaID); err != nil {
			return err
		}
		if err := fechamento.CheckOpen(ctx, tx, n.empresaID, n.data); err != nil {
			return err
		}
		var overlap bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM abonos a
			WHERE a.funcionario_id = $1 AND a.data = $2
			AND NOT EXISTS (SELECT 1 FROM abonos_cancelados c WHERE c.abono_id = a.id)
			AND (a.inicio IS NULL OR $3::int IS NULL OR (a.inicio < $4::int AND $3::int < a.fim)))`,
			n.funcionarioID, n.data, n.inicio, n.fim).Scan(&overlap); err != nil {
			return fmt.Errorf("abono: overlap: %w", err)
		}
		if overlap {
			return errSobreposto
		}
		return tx.QueryRow(ctx, `INSERT INTO abonos (empresa_id, funcionario_id, data, inicio, fim, tipo, motivo, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
			n.empresaID, n.funcionarioID, n.data, n.inicio, n.fim, n.tipo, n.motivo, n.autor, now).Scan(&id)
	})
	if err != nil {
		return Abono{}, err
	}
	return s.get(ctx, s.db, n.empresaID, id)
}

func (s *Store) get(ctx context.Context, q database.Querier, empresaID, id int64) (Abono, error) {
	return database.One(ctx, q, scanAbono, errNaoEncontrado, "abono: get",
		selectAbono+`WHERE a.id = $1 AND a.empresa_id = $2`, id, empresaID)
}

// cancel undoes abono id of company empresaID: 404 another company's,
// 409 when already cancelled or its date is closed.
func (s *Store) cancel(ctx context.Context, empresaID, id, autor int64, motivo string, now time.Time) (Abono, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		a, err := s.get(ctx, tx, empresaID, id)
		if err != nil {
			return err
		}
		if a.Cancelamento != nil {
			return errJaCancelado
		}
		data, _ := time.Parse(time.DateOnly, a.Data)
		if err := fechamento.CheckOpen(ctx, tx, empresaID, data); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO abonos_cancelados (abono_id, empresa_id, motivo, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5)`, id, empresaID, motivo, autor, now)
		return err
	})
	if err != nil {
		return Abono{}, err
	}
	return s.get(ctx, s.db, empresaID, id)
}

// List returns employee funcionarioID's abonos dated in [inicio, fim],
// cancelled ones included (with their cancellation), by date and start.
func (s *Store) List(ctx context.Context, empresaID, funcionarioID int64, inicio, fim time.Time) ([]Abono, error) {
	rows, _ := s.db.Query(ctx, selectAbono+`WHERE a.empresa_id = $1 AND a.funcionario_id = $2 AND a.data BETWEEN $3 AND $4
		ORDER BY a.data, a.inicio NULLS FIRST, a.id`, empresaID, funcionarioID, inicio, fim)
	out, err := pgx.CollectRows(rows, scanAbono)
	if err != nil {
		return nil, fmt.Errorf("abono: list: %w", err)
	}
	return out, nil
}

// Handlers serve the abono routes.
type Handlers request.Handlers[*Store]

// Public mounts the company routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/funcionario/:funcionarioId/abonos", request.Empresa, h.create)
	r.Get("/registropontos/funcionario/:funcionarioId/abonos", request.Empresa, request.AnswerOn("funcionarioId", h.list))
	r.Post("/registropontos/abonos/:abonoId/cancelar", request.Empresa, request.AnswerReasoned("abonoId", h.cancel))
}

type criarInput struct {
	Data   *string `json:"data"`
	Inicio *string `json:"inicio"`
	Fim    *string `json:"fim"`
	Motivo *string `json:"motivo" text:"multiline"`
	Tipo   *string `json:"tipo"`
}

// check validates the body: data YYYY-MM-DD, inicio and fim HH:MM (both or
// neither, inicio before fim; neither is the whole day), motivo, tipo.
func (in criarInput) check(v validate.Errors) novo {
	n := novo{data: request.RequiredDate(v, in.Data, "data")}
	clockTime := func(s *string, field string) *int {
		if s == nil {
			return nil
		}
		m, ok := validate.ClockTime(*s)
		v.Check(ok, field, "deve estar no formato HH:MM (00:00 a 23:59)")
		return &m
	}
	n.inicio, n.fim = clockTime(in.Inicio, "inicio"), clockTime(in.Fim, "fim")
	v.Check((n.inicio == nil) == (n.fim == nil), "fim", "informe inicio e fim, ou nenhum dos dois para o dia inteiro")
	if n.inicio != nil && n.fim != nil {
		v.Check(*n.inicio < *n.fim, "fim", "deve ser posterior a inicio")
	}
	n.motivo = request.Motivo(v, in.Motivo, "motivo")
	v.Check(in.Tipo != nil && Tipos[*in.Tipo], "tipo",
		"use atestado_medico, declaracao_comparecimento, licenca, folga ou outro")
	if in.Tipo != nil {
		n.tipo = *in.Tipo
	}
	return n
}

// create is POST /registropontos/funcionario/{funcionarioId}/abonos: 201
// the abono. 400 (body; a date older than the keeping period or more than
// a year ahead), 404 (not the company's employee), 409 (closed period,
// abono_sobreposto, fora_do_vinculo).
func (h *Handlers) create(c *fiber.Ctx) error {
	var in criarInput
	e, err := request.ReadEntry(c, h.Workdays, &in, func(v validate.Errors) novo { return in.check(v) })
	if err != nil {
		return err
	}
	n, today := e.Body, h.Clock.Today(e.Zone)
	if n.data.After(today.AddDate(0, 0, maxFuturo)) || n.data.Before(today.AddDate(-5, 0, 0)) {
		return domainerr.InvalidField("data", "a data deve estar entre o prazo legal de guarda (5 anos) e um ano à frente")
	}
	if err := fuso.Vinculo(e.Funcionario, n.data); err != nil {
		return err
	}
	n.empresaID, n.funcionarioID, n.autor = e.Caller.EmpresaID, e.ID, e.Caller.EmpresaID
	a, err := h.Store.create(c.UserContext(), n, h.Clock.Now())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(a)
}

// list is GET /registropontos/funcionario/{funcionarioId}/abonos?inicio=
// &fim=: {"itens"} the employee's abonos of the period (default this
// month, at most 366 days), cancelled ones with their cancellation.
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (fiber.Map, error) {
	ctx := c.UserContext()
	zone, err := h.Workdays.Zones.Empresa(ctx, caller.EmpresaID)
	if err != nil {
		return nil, err
	}
	inicio, fim, err := request.Period(c, h.Clock.Today(zone), 366)
	if err != nil {
		return nil, err
	}
	if _, err := h.Workdays.Employees.Funcionario(ctx, caller.EmpresaID, id); err != nil {
		return nil, err
	}
	itens, err := h.Store.List(ctx, caller.EmpresaID, id, inicio, fim)
	return fiber.Map{"itens": itens}, err
}

// cancel is POST /registropontos/abonos/{abonoId}/cancelar {"motivo"}:
// 200 the abono with its cancellation; 404 another company's, 409 when
// already cancelled or in a closed period.
func (h *Handlers) cancel(c *fiber.Ctx, caller *jwtauth.Claims, id int64, motivo string) (Abono, error) {
	return h.Store.cancel(c.UserContext(), caller.EmpresaID, id, caller.EmpresaID, motivo, h.Clock.Now())
}
