// Package feriado keeps a company's holiday calendar
// (POST/GET /registropontos/feriados, DELETE /registropontos/feriados/{data})
// and which pontos facultativos it keeps as holidays
// (GET/PUT /registropontos/feriados/facultativos): on a holiday, its own
// or a national one (core/feriados.go), no work is expected and work done
// is overtime at 100% (core.ComputeApuracao). Only the company manages it.
package feriado

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

const nomeMax = 100

var (
	errDuplicado = domainerr.Conflict("feriado_duplicado", "já existe um feriado nesta data")
	errNotFound  = domainerr.NotFound("feriado não encontrado")
)

// Feriado is a holiday as the routes show it.
type Feriado struct {
	Data string `json:"data"`
	Nome string `json:"nome"`
}

// Handlers serve the calendar.
type Handlers struct {
	db    *pgxpool.Pool
	clock *clock.Clock
	zones *fuso.Zones
}

// NewHandlers returns the handlers over db.
func NewHandlers(db *pgxpool.Pool, clk *clock.Clock, zones *fuso.Zones) *Handlers {
	return &Handlers{db: db, clock: clk, zones: zones}
}

// Public mounts the company routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/feriados", request.Empresa, request.Answer(h.create))
	r.Get("/registropontos/feriados", request.Empresa, request.Answer(h.list))
	r.Get("/registropontos/feriados/facultativos", request.Empresa, request.Answer(h.getFacultativos))
	r.Put("/registropontos/feriados/facultativos", request.Empresa, request.Answer(h.putFacultativos))
	r.Delete("/registropontos/feriados/:data", request.Empresa, request.NoContent(h.remove))
}

type input struct {
	Data string `json:"data"`
	Nome string `json:"nome"`
}

// check validates a holiday: data YYYY-MM-DD (2000 to 2100), nome 1 to
// 100 characters without surrounding blanks.
func (in input) check() (time.Time, error) {
	v := validate.Errors{}
	d, ok := validate.DateISO(in.Data)
	v.Check(ok && !d.Before(request.Earliest) && d.Year() <= 2100, "data", "data inválida (use AAAA-MM-DD, de 2000 a 2100)")
	n := utf8.RuneCountInString(in.Nome)
	v.Check(n >= 1 && n <= nomeMax && strings.TrimSpace(in.Nome) == in.Nome, "nome",
		"de 1 a 100 caracteres, sem espaços nas pontas")
	return d, v.Err()
}

// create is POST /registropontos/feriados {"data", "nome"}: 200 with the
// holiday; 409 feriado_duplicado when the date already has one.
func (h *Handlers) create(c *fiber.Ctx, caller *jwtauth.Claims) (Feriado, error) {
	var in input
	if err := request.DecodeJSON(c, &in); err != nil {
		return Feriado{}, err
	}
	d, err := in.check()
	if err != nil {
		return Feriado{}, err
	}
	_, err = h.db.Exec(c.UserContext(), `INSERT INTO feriados (empresa_id, data, nome, criado_em) VALUES ($1, $2, $3, $4)`,
		caller.EmpresaID, d, in.Nome, h.clock.Now())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return Feriado{}, errDuplicado
	}
	return Feriado{Data: d.Format(time.DateOnly), Nome: in.Nome}, err
}

// list is GET /registropontos/feriados?ano=YYYY (default this year): 200
// {"ano", "itens", "nacionais"}: the company's own holidays in date order,
// and the national dates of the year, the pontos facultativos marked
// feriado as the company keeps them.
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	zone, err := h.zones.Empresa(c.UserContext(), caller.EmpresaID)
	if err != nil {
		return nil, err
	}
	ano := h.clock.Today(zone).Year()
	if s := c.Query("ano"); s != "" {
		if ano, err = strconv.Atoi(s); err != nil || ano < 2000 || ano > 2100 {
			return nil, domainerr.InvalidField("ano", "ano entre 2000 e 2100")
		}
	}
	itens, err := List(c.UserContext(), h.db, caller.EmpresaID, time.Date(ano, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(ano, 12, 31, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return nil, err
	}
	f, err := Facultativos(c.UserContext(), h.db, caller.EmpresaID)
	return fiber.Map{"ano": ano, "itens": itens, "nacionais": core.FeriadosNacionais(ano, f)}, err
}

// List returns company empresaID's holidays in [inicio, fim].
func List(ctx context.Context, db *pgxpool.Pool, empresaID int64, inicio, fim time.Time) ([]Feriado, error) {
	rows, _ := db.Query(ctx, `SELECT data, nome FROM feriados WHERE empresa_id = $1 AND data BETWEEN $2 AND $3
		ORDER BY data`, empresaID, inicio, fim)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Feriado, error) {
		var d time.Time
		var f Feriado
		err := row.Scan(&d, &f.Nome)
		f.Data = d.Format(time.DateOnly)
		return f, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// remove is DELETE /registropontos/feriados/{data}: 204, or 404.
func (h *Handlers) remove(c *fiber.Ctx, caller *jwtauth.Claims) error {
	d, err := request.Date(c.Params("data"), "data")
	if err != nil {
		return err
	}
	tag, err := h.db.Exec(c.UserContext(), `DELETE FROM feriados WHERE empresa_id = $1 AND data = $2`, caller.EmpresaID, d)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return errNotFound
	}
	return nil
}

// Querier is what Facultativos reads with: the pool or a transaction.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Facultativos returns the pontos facultativos company empresaID keeps as
// holidays (none until it says).
func Facultativos(ctx context.Context, db Querier, empresaID int64) (core.Facultativos, error) {
	var f core.Facultativos
	err := db.QueryRow(ctx, `SELECT carnaval, corpus_christi FROM feriados_facultativos WHERE empresa_id = $1`,
		empresaID).Scan(&f.Carnaval, &f.CorpusChristi)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return f, err
	}
	return f, nil
}

// getFacultativos is GET /registropontos/feriados/facultativos: 200
// {"carnaval", "corpusChristi"}.
func (h *Handlers) getFacultativos(c *fiber.Ctx, caller *jwtauth.Claims) (core.Facultativos, error) {
	return Facultativos(c.UserContext(), h.db, caller.EmpresaID)
}

// putFacultativos is PUT /registropontos/feriados/facultativos
// {"carnaval": bool, "corpusChristi": bool}, both required: 200 with what
// is kept. It changes the figures of every day computed after it, past
// days included, as a holiday typed by the company does.
func (h *Handlers) putFacultativos(c *fiber.Ctx, caller *jwtauth.Claims) (core.Facultativos, error) {
	var in struct {
		Carnaval      *bool `json:"carnaval"`
		CorpusChristi *bool `json:"corpusChristi"`
	}
	if err := request.DecodeJSON(c, &in); err != nil {
		return core.Facultativos{}, err
	}
	v := validate.Errors{}
	v.Check(in.Carnaval != nil, "carnaval", "obrigatório (true ou false)")
	v.Check(in.CorpusChristi != nil, "corpusChristi", "obrigatório (true ou false)")
	if err := v.Err(); err != nil {
		return core.Facultativos{}, err
	}
	_, err := h.db.Exec(c.UserContext(), `INSERT INTO feriados_facultativos (empresa_id, carnaval, corpus_christi, alterado_em)
		VALUES ($1, $2, $3, $4) ON CONFLICT (empresa_id) DO UPDATE
		SET carnaval = excluded.carnaval, corpus_christi = excluded.corpus_christi, alterado_em = excluded.alterado_em`,
		caller.EmpresaID, *in.Carnaval, *in.CorpusChristi, h.clock.Now())
	return core.Facultativos{Carnaval: *in.Carnaval, CorpusChristi: *in.CorpusChristi}, err
}
