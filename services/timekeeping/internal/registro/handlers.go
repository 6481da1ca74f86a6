package registro

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// maxOwnDays bounds the period of GET /registropontos/me.
const maxOwnDays = 366

var errInativo = domainerr.Forbidden("funcionario_inativo", "funcionário inativo não pode registrar ponto")

// Geofencer checks a punch's position against the company's work places:
// nil when there is nothing to check against.
type Geofencer interface {
	Geofence(ctx context.Context, empresaID int64, localizacao string) (*Geofence, error)
}

// Employees finds the punching employee: employee.Cached in production, so
// that a punch rarely calls the employee service (see there for how stale
// a record may be), or employee.Client.
type Employees interface {
	Funcionario(ctx context.Context, empresaID, id int64) (employee.Funcionario, error)
}

// Zones find an employee's time zone (fuso.Zones).
type Zones interface {
	Funcionario(ctx context.Context, empresaID int64, own *string) (*time.Location, error)
}

// Handlers serve the clock-in and the employee's own records.
type Handlers struct {
	store     *Store
	employees Employees
	clock     *clock.Clock
	places    Geofencer
	zones     Zones
	devices   Devices
}

// NewHandlers returns the handlers.
func NewHandlers(store *Store, employees Employees, clk *clock.Clock, places Geofencer, zones Zones) *Handlers {
	return &Handlers{store: store, employees: employees, clock: clk, places: places, zones: zones}
}

// Public mounts the employee routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	funcionario := jwtauth.RequireRole(jwtauth.RoleFuncionario)
	r.Post("/registropontos", funcionario, h.clockIn)
	r.Get("/registropontos/me", funcionario, request.Answer(h.own))
	if h.devices != nil {
		r.Post("/registropontos/offline", funcionario, request.Answer(h.offline))
	}
}

// clockIn is POST /registropontos {"endereco", "funcionarioId"}: 200 with
// the new punch and the employee record nested. Order of checks: 400
// (body, key), 403 (another employee's funcionarioId), then the employee
// service (404 unknown, 403 inactive, 503 down) before anything is written.
func (h *Handlers) clockIn(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	var in clockInInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	loc, coletor, err := in.check()
	if err != nil {
		return err
	}
	key, err := IdempotencyKey(c.Get(validate.IdempotencyKeyHeader))
	if err != nil {
		return err
	}
	if err := request.SameFuncionario(caller, in.FuncionarioID); err != nil {
		return err
	}
	ctx := c.UserContext()
	f, m, err := h.puncher(ctx, caller)
	if err != nil {
		return err
	}
	// Outside every work place is a flag, never a refusal.
	if m.Local, err = h.places.Geofence(ctx, caller.EmpresaID, loc); err != nil {
		return err
	}
	m.Localizacao, m.IdempotencyKey, m.Coletor = loc, key, coletor
	r, earlier, replayed, err := h.store.ClockIn(ctx, m)
	if err != nil {
		return err
	}
	return sendAnswer(r, f, earlier, func(body []byte) {
		if replayed {
			c.Set("Idempotent-Replayed", "true")
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		c.Response().SetBody(body) // a copy, into the response's own pooled body
	})
}

// puncher reads the punching employee (404 unknown, 403 inactive, 503
// down) and returns him with a clock-in of his, its chain, zone and
// schedule filled in.
func (h *Handlers) puncher(ctx context.Context, caller *jwtauth.Claims) (employee.Funcionario, Marcacao, error) {
	f, err := h.employees.Funcionario(ctx, caller.EmpresaID, caller.FuncionarioID)
	if err != nil {
		return f, Marcacao{}, err
	}
	if !f.Ativo {
		return f, Marcacao{}, errInativo
	}
	zone, err := h.zones.Funcionario(ctx, caller.EmpresaID, f.FusoHorario)
	if err != nil {
		return f, Marcacao{}, err
	}
	// The employee's establishment picks the chain (0: the principal).
	chain, err := h.store.ledger.ChainOf(ctx, caller.EmpresaID, f.EstabelecimentoID)
	if err != nil {
		return f, Marcacao{}, err
	}
	return f, Marcacao{EmpresaID: caller.EmpresaID, EstabelecimentoID: chain.EstabelecimentoID,
		FuncionarioID: caller.FuncionarioID, CPF: f.CPF, Nome: f.Nome, Zone: zone, Escala: f.Schedule()}, nil
}

// clockInAnswer writes the clock-in's JSON into dst: the punch's record
// with the employee's record nested as funcionario, whose registrosPonto
// holds the earlier punches of the workday. The employee's part is the
// largest of the answer and the same on every punch, so it is spliced in
// as the employee package rendered it (PublicJSON, once per cached record)
// rather than encoded, and validated, again by encoding/json each time.
func clockInAnswer(dst *bytes.Buffer, r Row, f employee.Funcionario, earlier []*Row) error {
	public, err := f.PublicJSON()
	if err != nil {
		return err
	}
	// The encoder writes what json.Marshal returns, and a newline.
	enc := json.NewEncoder(dst)
	if err := enc.Encode(Render(r)); err != nil { // Funcionario is nil: omitted
		return fmt.Errorf("registro: render punch: %w", err)
	}
	dst.Truncate(dst.Len() - len("}\n")) // left open for funcionario
	dst.WriteString(`,"funcionario":`)
	dst.Write(public)
	dst.WriteString(`,"registrosPonto":[`) // [] rather than null when empty
	// One record rendered at a time through the same variable: a slice
	// of them was about 6% of what a punch allocated (docs/performance.md).
	record := new(Record)
	for i, e := range earlier {
		if i > 0 {
			dst.WriteByte(',')
		}
		*record = Render(*e)
		if err := enc.Encode(record); err != nil {
			return fmt.Errorf("registro: render earlier: %w", err)
		}
		dst.Truncate(dst.Len() - len("\n"))
	}
	dst.WriteString("]}}")
	return nil
}

// sendAnswer writes the clock-in's answer (clockInAnswer) in a pooled
// buffer and hands it to send, which must copy it: the buffer goes back
// to the pool when send returns. So the answer, the largest allocation of
// a punch's request, costs none of its own (docs/performance.md).
func sendAnswer(r Row, f employee.Funcionario, earlier []*Row, send func([]byte)) error {
	body := answers.Get().(*bytes.Buffer)
	defer func() {
		if body.Cap() <= maxPooledAnswer {
			body.Reset()
			answers.Put(body)
		}
	}()
	if err := clockInAnswer(body, r, f, earlier); err != nil {
		return err
	}
	send(body.Bytes())
	return nil
}

// answers are the buffers clock-in answers are written in before the
// response copies them into its own (pooled) body.
var answers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledAnswer: a buffer grown past it (a workday of unusually many
// punches) is left to the collector rather than kept at that size.
const maxPooledAnswer = 64 << 10

// own is GET /registropontos/me?inicio=&fim=&pagina=&tamanho=: the
// caller's punches and absences of the period (default: this month).
func (h *Handlers) own(c *fiber.Ctx, caller *jwtauth.Claims) (page.Result[Record], error) {
	zone, err := h.zones.Funcionario(c.UserContext(), caller.EmpresaID, nil)
	if err != nil {
		return page.Result[Record]{}, err
	}
	inicio, fim, err := request.Period(c, h.clock.Today(zone), maxOwnDays)
	if err != nil {
		return page.Result[Record]{}, err
	}
	return request.Paged(c, func(p page.Page) ([]Record, int, error) {
		rows, total, err := h.store.Own(c.UserContext(), caller.FuncionarioID, inicio, fim, p)
		return RenderAll(rows), total, err
	})
}
