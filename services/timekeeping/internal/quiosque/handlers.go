package quiosque

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

var (
	errCredencial    = domainerr.Unauthenticated("quiosque_invalido", "credencial de quiosque inválida ou revogada")
	errIdentificacao = domainerr.Forbidden("identificacao_invalida", "CPF e PIN ou crachá não reconhecidos")
	errBloqueado     = domainerr.Forbidden("pin_bloqueado",
		"PIN bloqueado após tentativas erradas; peça à empresa para liberá-lo")
	errInativo = domainerr.Forbidden("funcionario_inativo", "funcionário inativo não pode registrar ponto")
	errPIN     = domainerr.InvalidField("pin", "use de 4 a 8 dígitos, sem repetir um só dígito nem sequências como 1234")
)

// Budgets are the rate limits of the kiosk's routes: a kiosk at a shift
// change serves a queue of people; one person identifies himself a few
// times at most. The zero Budgets is DefaultBudgets.
type Budgets struct {
	PerKiosk, PerEmployee ratelimit.Limit
}

// DefaultBudgets: 120 requests a minute per kiosk, 10 per employee.
var DefaultBudgets = Budgets{PerKiosk: ratelimit.PerMinute(120), PerEmployee: ratelimit.PerMinute(10)}

// Employees finds an employee (employee.Cached in production).
type Employees interface {
	Funcionario(ctx context.Context, empresaID, id int64) (employee.Funcionario, error)
}

// Zones find an employee's time zone (fuso.Zones).
type Zones interface {
	Funcionario(ctx context.Context, empresaID int64, own *string) (*time.Location, error)
}

// Handlers serve the kiosks, PINs, badges and the kiosk's punches.
type Handlers struct {
	Store     *Store
	Ledger    *ledger.Ledger
	Employees Employees
	Zones     Zones
	Places    registro.Geofencer
	// Limites is the company's age limit of off-line punches.
	Limites LimiteDias
	Clock   *clock.Clock
	// Limits, when set, bounds each kiosk's and each employee's requests
	// (pkg/ratelimit); nil: unbounded.
	Limits  *ratelimit.Limiter
	Budgets Budgets
	// Verificacao is the public check's URL up to the hash (the
	// receipt's QR code); empty: the QR code holds the hash alone.
	Verificacao string
}

// Kiosk mounts the kiosk's routes on r, which takes no user token: the
// kiosk's credential authenticates them. Mount them before the token
// verifier's group.
func (h *Handlers) Kiosk(r fiber.Router) {
	r.Get("/registropontos/quiosque", h.kiosk, h.self)
	r.Post("/registropontos/quiosque/identificar", h.kiosk, h.identify)
	r.Post("/registropontos/quiosque/marcar", h.kiosk, h.clockIn)
	r.Put("/registropontos/quiosque/chave", h.kiosk, h.setChave)
	r.Post("/registropontos/quiosque/offline", h.kiosk, h.offline)
}

// Public mounts the company's and the employee's routes on r, which must
// already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/quiosques", request.Empresa, request.Created(h.create))
	r.Get("/registropontos/quiosques", request.Empresa, request.Answer(h.list))
	r.Put("/registropontos/quiosques/pin", jwtauth.RequireRole(jwtauth.RoleFuncionario), request.NoContent(h.setPIN))
	r.Delete("/registropontos/quiosques/pin/:funcionarioId", request.Empresa, h.resetPIN)
	r.Post("/registropontos/quiosques/cracha/:funcionarioId", request.Empresa, request.AnswerOn("funcionarioId", h.badge))
	r.Delete("/registropontos/quiosques/:quiosqueId", request.Empresa, h.revoke)
}

// Criado is the answer of POST /registropontos/quiosques: the kiosk and
// its credential, shown this once, also as a code to type and a QR code.
type Criado struct {
	Quiosque
	Credencial string `json:"credencial"`
	Codigo     string `json:"codigo"`
	QRCode     string `json:"qrCode"`
}

// create is POST /registropontos/quiosques {"nome", "dispositivo"}: 201.
func (h *Handlers) create(c *fiber.Ctx, caller *jwtauth.Claims) (Criado, error) {
	var in input
	if err := request.DecodeJSON(c, &in); err != nil {
		return Criado{}, err
	}
	coletor, err := in.check()
	if err != nil {
		return Criado{}, err
	}
	cred := newSecret()
	q, err := h.Store.Create(c.UserContext(), Quiosque{EmpresaID: caller.EmpresaID, Nome: in.Nome,
		Dispositivo: in.Dispositivo, Coletor: coletor, CriadoEm: h.Clock.Now()}, hash(cred))
	if err != nil {
		return Criado{}, err
	}
	qr, err := qrPNG(cred)
	if err != nil {
		return Criado{}, err
	}
	return Criado{Quiosque: q, Credencial: cred, Codigo: codigo(cred), QRCode: qr}, nil
}

// list is GET /registropontos/quiosques: {"itens"}, the kiosks not
// revoked with their last use.
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	itens, err := h.Store.Ativos(c.UserContext(), caller.EmpresaID)
	if itens == nil {
		itens = []Quiosque{}
	}
	return fiber.Map{"itens": itens}, err
}

// revoke is DELETE /registropontos/quiosques/{quiosqueId}: 204, or 404.
func (h *Handlers) revoke(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "quiosqueId")
	if err != nil {
		return err
	}
	if err := h.Store.Revoke(c.UserContext(), caller.EmpresaID, id, h.Clock.Now()); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// setPIN is PUT /registropontos/quiosques/pin {"pin"}: the employee sets
// (or changes) his own PIN, which also unlocks it. 204.
func (h *Handlers) setPIN(c *fiber.Ctx, caller *jwtauth.Claims) error {
	var in struct {
		PIN string `json:"pin"`
	}
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	if !checkPIN(in.PIN) {
		return errPIN
	}
	ctx := c.UserContext()
	f, err := h.Employees.Funcionario(ctx, caller.EmpresaID, caller.FuncionarioID)
	if err != nil {
		return err
	}
	pinHash, err := password.Hash(in.PIN)
	if err != nil {
		return err
	}
	return h.Store.SetPIN(ctx, caller.EmpresaID, caller.FuncionarioID, digits(f.CPF), pinHash, h.Clock.Now())
}

// resetPIN is DELETE /registropontos/quiosques/pin/{funcionarioId}: the
// company removes an employee's PIN (and its lock). 204, or 404.
func (h *Handlers) resetPIN(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "funcionarioId")
	if err != nil {
		return err
	}
	if err := h.Store.ResetPIN(c.UserContext(), caller.EmpresaID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// Cracha is a badge to print: its token, also as a QR code.
type Cracha struct {
	FuncionarioID int64     `json:"funcionarioId"`
	Nome          string    `json:"nome"`
	Cracha        string    `json:"cracha"`
	QRCode        string    `json:"qrCode"`
	EmitidoEm     time.Time `json:"emitidoEm"`
}

// badge is POST /registropontos/quiosques/cracha/{funcionarioId}: a new
// badge for the company's employee; his previous one stops working.
func (h *Handlers) badge(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (Cracha, error) {
	ctx := c.UserContext()
	f, err := h.Employees.Funcionario(ctx, caller.EmpresaID, id)
	if err != nil {
		return Cracha{}, err
	}
	token, now := crachaPrefix+newSecret(), h.Clock.Now()
	if err := h.Store.IssueBadge(ctx, caller.EmpresaID, id, hash(token), now); err != nil {
		return Cracha{}, err
	}
	qr, err := qrPNG(token)
	return Cracha{FuncionarioID: id, Nome: f.Nome, Cracha: token, QRCode: qr, EmitidoEm: now}, err
}

// kioskKey is the Locals key of the authenticated kiosk.
const kioskKey = "quiosque"

// kiosk authenticates the kiosk's bearer credential (401 otherwise) and
// spends its budget.
func (h *Handlers) kiosk(c *fiber.Ctx) error {
	auth := c.Get(fiber.HeaderAuthorization)
	cred, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || len(cred) > 100 {
		return errCredencial
	}
	q, err := h.Store.Use(c.UserContext(), hash(normalizeCredencial(cred)), h.Clock.Now())
	if err != nil {
		return err
	}
	if err := h.limit(c.UserContext(), ratelimit.Check{Name: "quiosque", Limit: h.budgets().PerKiosk, Key: itoa(q.ID)}); err != nil {
		return err
	}
	c.Locals(kioskKey, q)
	return c.Next()
}

func (h *Handlers) budgets() Budgets {
	if h.Budgets == (Budgets{}) {
		return DefaultBudgets
	}
	return h.Budgets
}

func (h *Handlers) limit(ctx context.Context, checks ...ratelimit.Check) error {
	if h.Limits == nil {
		return nil
	}
	return h.Limits.AllowAll(ctx, ratelimit.FailOpen, checks...)
}

// self is GET /registropontos/quiosque: the kiosk's name, the server's
// time, which its clock follows (Anexo IX item 3), and the company's zone
// it shows it in.
func (h *Handlers) self(c *fiber.Ctx) error {
	q := c.Locals(kioskKey).(Quiosque)
	zone, err := h.Zones.Funcionario(c.UserContext(), q.EmpresaID, nil)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"id": q.ID, "nome": q.Nome, "coletor": q.Coletor, "agora": clock.FormatISO(h.Clock.Now()),
		"fusoHorario": zone.String()})
}

// Identificado is who the kiosk recognised and the tipo his next punch
// will have.
type Identificado struct {
	FuncionarioID int64  `json:"funcionarioId"`
	Nome          string `json:"nome"`
	ProximoTipo   string `json:"proximoTipo"`
}

// identify is POST /registropontos/quiosque/identificar {"cpf", "pin"} or
// {"cracha"}: 200 with his name and next tipo; nothing is recorded.
func (h *Handlers) identify(c *fiber.Ctx) error {
	q := c.Locals(kioskKey).(Quiosque)
	var in identificacao
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	f, err := h.whom(c.UserContext(), q, &in)
	if err != nil {
		return err
	}
	zone, err := h.Zones.Funcionario(c.UserContext(), q.EmpresaID, f.FusoHorario)
	if err != nil {
		return err
	}
	last, err := h.Store.LastTipo(c.UserContext(), f.ID, core.Jornada(h.Clock.Now(), zone, f.Schedule()))
	if err != nil {
		return err
	}
	return c.JSON(Identificado{FuncionarioID: f.ID, Nome: f.Nome, ProximoTipo: core.TipoAfter(last)})
}

// whom finds the active employee of the kiosk's company that in names.
// Wrong PINs count towards the lock; a CPF without a PIN, a wrong PIN and
// an unknown badge are the same answer.
func (h *Handlers) whom(ctx context.Context, q Quiosque, in *identificacao) (employee.Funcionario, error) {
	if err := in.check(); err != nil {
		return employee.Funcionario{}, err
	}
	var id int64
	if in.Cracha != "" {
		token := hash(in.Cracha)
		if err := h.limit(ctx, ratelimit.Check{Name: "quiosque:cracha", Limit: h.budgets().PerEmployee, Key: itoaBytes(token[:8])}); err != nil {
			return employee.Funcionario{}, err
		}
		owner, ok, err := h.Store.BadgeOwner(ctx, q.EmpresaID, token)
		if err != nil || !ok {
			return employee.Funcionario{}, orIdent(err)
		}
		id = owner
	} else {
		if err := h.limit(ctx, ratelimit.Check{Name: "quiosque:cpf", Limit: h.budgets().PerEmployee,
			Key: ratelimit.EmailKey(itoa(q.EmpresaID) + ":" + in.CPF)}); err != nil {
			return employee.Funcionario{}, err
		}
		var err error
		if id, err = h.checkPIN(ctx, q.EmpresaID, in.CPF, in.PIN); err != nil {
			return employee.Funcionario{}, err
		}
	}
	f, err := h.Employees.Funcionario(ctx, q.EmpresaID, id)
	switch {
	case isNotFound(err):
		return f, errIdentificacao
	case err != nil:
		return f, err
	case in.Cracha == "" && digits(f.CPF) != in.CPF:
		return f, errIdentificacao // his CPF changed since he set the PIN
	case !f.Ativo:
		return f, errInativo
	}
	return f, nil
}

// checkPIN is the employee whose PIN in company empresaID matches cpf and
// pin.
func (h *Handlers) checkPIN(ctx context.Context, empresaID int64, cpf, pin string) (int64, error) {
	p, ok, err := h.Store.PIN(ctx, empresaID, cpf)
	switch {
	case err != nil || !ok:
		return 0, orIdent(err)
	case p.bloqueado:
		return 0, errBloqueado
	case !password.Matches(p.hash, pin):
		locked, err := h.Store.Failed(ctx, p.funcionarioID, h.Clock.Now())
		if err != nil {
			return 0, err
		}
		if locked {
			return 0, errBloqueado
		}
		return 0, errIdentificacao
	}
	return p.funcionarioID, h.Store.Succeeded(ctx, p.funcionarioID)
}

func isNotFound(err error) bool {
	var d *domainerr.Error
	return errors.As(err, &d) && d.Kind == domainerr.KindNotFound
}

func orIdent(err error) error {
	if err != nil {
		return err
	}
	return errIdentificacao
}

// Marcado is the kiosk's punch: the record, whose it is, and the receipt
// for him to keep (the public check's QR code).
type Marcado struct {
	Registro    registro.Record `json:"registro"`
	Nome        string          `json:"nome"`
	Comprovante Comprovante     `json:"comprovante"`
}

// Comprovante is what the kiosk shows of the receipt.
type Comprovante struct {
	NSR            int64  `json:"nsr"`
	Hash           string `json:"hash"`
	VerificacaoURL string `json:"verificacaoUrl,omitempty"`
	QRCode         string `json:"qrCode"`
}

// clockIn is POST /registropontos/quiosque/marcar {"cpf", "pin"} or
// {"cracha"}, optionally "endereco" (the kiosk's position) and an
// Idempotency-Key: 200 with the punch, recorded through the ledger with
// the kiosk's collector code.
func (h *Handlers) clockIn(c *fiber.Ctx) error {
	q := c.Locals(kioskKey).(Quiosque)
	var in identificacao
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	key, err := registro.IdempotencyKey(c.Get(validate.IdempotencyKeyHeader))
	if err != nil {
		return err
	}
	loc := ""
	if in.Endereco != nil && strings.TrimSpace(*in.Endereco) != "" {
		var ok bool
		if loc, ok = registro.Localizacao(*in.Endereco); !ok || len(*in.Endereco) > 64 {
			return domainerr.InvalidField("endereco", `use "latitude, longitude" em graus decimais`)
		}
	}
	ctx := c.UserContext()
	f, err := h.whom(ctx, q, &in)
	if err != nil {
		return err
	}
	r, _, err := h.record(ctx, q, f, loc, key, nil)
	if err != nil {
		return err
	}
	out := Marcado{Registro: registro.Render(r), Nome: f.Nome}
	if r.Hash != nil && r.NSR != nil {
		content := *r.Hash
		if h.Verificacao != "" {
			content = h.Verificacao + *r.Hash
			out.Comprovante.VerificacaoURL = content
		}
		out.Comprovante.NSR, out.Comprovante.Hash = *r.NSR, *r.Hash
		if out.Comprovante.QRCode, err = qrPNG(content); err != nil {
			return err
		}
	}
	return c.JSON(out)
}

// record writes f's punch at the kiosk through the ledger, on his
// establishment's chain (off set: made off-line); replayed when its key
// was recorded before.
func (h *Handlers) record(ctx context.Context, q Quiosque, f employee.Funcionario, loc string, key *string,
	off *ledger.Offline) (ledger.Row, bool, error) {
	zone, err := h.Zones.Funcionario(ctx, q.EmpresaID, f.FusoHorario)
	if err != nil {
		return ledger.Row{}, false, err
	}
	var g *ledger.Geofence
	if loc != "" {
		if g, err = h.Places.Geofence(ctx, q.EmpresaID, loc); err != nil {
			return ledger.Row{}, false, err
		}
	}
	chain, err := h.Ledger.ChainOf(ctx, q.EmpresaID, f.EstabelecimentoID)
	if err != nil {
		return ledger.Row{}, false, err
	}
	r, _, replayed, err := h.Ledger.ClockIn(ctx, ledger.Marcacao{EmpresaID: q.EmpresaID,
		EstabelecimentoID: chain.EstabelecimentoID, FuncionarioID: f.ID, CPF: f.CPF, Nome: f.Nome, Localizacao: loc,
		IdempotencyKey: key, Local: g, Coletor: q.Coletor, Zone: zone, Escala: f.Schedule(), Offline: off})
	return r, replayed, err
}
